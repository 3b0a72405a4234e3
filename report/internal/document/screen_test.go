package document

import (
	"bytes"
	"strings"
	"testing"
)

// A Screen section is marked for the print stylesheet to leave out, and
// that stylesheet does; a section without Screen is not marked.
func TestScreenSectionLeftOffPaper(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTMLSection(&b, Section{ID: "raw", Title: "Raw", Screen: true, Blocks: []any{Para("detail")}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), `<section id="raw" class="screen">`) {
		t.Errorf("a Screen section starts %.60q; want it marked class=\"screen\"", b.String())
	}
	b.Reset()
	if err := WriteHTMLSection(&b, Section{ID: "kept", Title: "Kept"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "screen") {
		t.Errorf("a section without Screen is marked: %.60q", b.String())
	}
	_, print, ok := strings.Cut(css, "@media print{")
	if !ok || !strings.Contains(print, "section.screen{display:none}") {
		t.Error("the print stylesheet does not leave out section.screen")
	}
}

// A Screen drawing is marked for the print stylesheet to leave out, and
// that stylesheet does; Markdown keeps it.
func TestScreenDrawingLeftOffPaper(t *testing.T) {
	d, err := DrawAlignment("an example", "kitten", "sitting", "1X3=1X1=1D", 60)
	if err != nil {
		t.Fatal(err)
	}
	d.Screen = true
	var b bytes.Buffer
	writeHTMLDrawing(&b, d)
	if !strings.HasPrefix(b.String(), `<figure class="align screen"`) {
		t.Errorf("a Screen drawing starts %.60q; want class \"align screen\"", b.String())
	}
	_, print, _ := strings.Cut(css, "@media print{")
	if !strings.Contains(print, "figure.screen{display:none}") {
		t.Error("the print stylesheet does not leave out figure.screen")
	}
	b.Reset()
	WriteMarkdown(&b, &Doc{Title: "T", Sections: []Section{{ID: "s", Title: "S", Blocks: []any{d}}}})
	// Kept, but not numbered: paper, which leaves it out, counts the
	// figures after it as every format does.
	if !strings.Contains(b.String(), "An example") || strings.Contains(b.String(), "Figure 1.") {
		t.Errorf("the Markdown leaves out a Screen drawing, or numbers it:\n%s", b.String())
	}
}
