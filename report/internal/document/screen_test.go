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
