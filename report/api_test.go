package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
)

// TestSections: the sections of the committed results are the report's,
// in its order, each an element without the library, with Markdown under a
// "##" heading and every drawn chart among its Figures.
func TestSections(t *testing.T) {
	secs, err := Sections(Options{Results: "../results"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range secs {
		ids = append(ids, s.ID)
		if !(strings.HasPrefix(s.HTML, `<section id="`+s.ID+`">`) || strings.HasPrefix(s.HTML, `<section id="`+s.ID+`" class="screen">`)) || !strings.HasSuffix(s.HTML, "</section>\n") {
			t.Errorf("%s: HTML is not one <section> element: %.80q … %.40q", s.ID, s.HTML, s.HTML[max(0, len(s.HTML)-40):])
		}
		if strings.Contains(s.HTML, "Apache ECharts") || len(s.HTML) > len(EChartsJS()) {
			t.Errorf("%s: HTML holds the ECharts library", s.ID)
		}
		if !strings.HasPrefix(s.Markdown, "## "+s.Title+"\n") {
			t.Errorf("%s: Markdown starts %.60q; want the section's heading", s.ID, s.Markdown)
		}
		if got := strings.Count(s.HTML, "echarts.init("); got != len(s.Figures) {
			t.Errorf("%s: %d charts in the HTML, %d Figures", s.ID, got, len(s.Figures))
		}
		for _, f := range s.Figures {
			if f.ID == "" || len(f.Series) == 0 || !strings.Contains(s.HTML, `id="`+f.ID+`"`) {
				t.Errorf("%s: figure %q has no id, no series, or no element", s.ID, f.ID)
			}
		}
	}
	// "read" is there when the tree holds a run the report leaves out (a
	// quick run of this checkout's own, say); the committed runs alone
	// have none.
	ids = slices.DeleteFunc(ids, func(id string) bool { return id == "read" })
	// The order a reader meets: what was found first, the reports in
	// order, what goes beyond them, the own experiments, then how it was
	// measured and the references last. A section added between needs no
	// line here; one out of that order fails.
	got := strings.Join(ids, " ")
	if !strings.HasPrefix(got, "summary notrun r000 r001 r002 r003 r004 ") || !strings.HasSuffix(got, " method refs") {
		t.Errorf("sections %s: want the summary and the reports first, method and refs last", got)
	}
	seen := map[string]bool{}
	own := false
	for _, id := range ids {
		if seen[id] {
			t.Errorf("section %s twice", id)
		}
		seen[id] = true
		switch {
		case strings.HasPrefix(id, "own-"):
			own = true
		case own && id != "method" && id != "refs":
			t.Errorf("section %s after an own experiment's: %s", id, got)
		}
	}
	if !own {
		t.Errorf("sections %s: the committed results' own experiments are not there", got)
	}
	if !strings.Contains(EChartsJS(), `version="5.6.0"`) || !strings.Contains(EChartsNotice(), "Apache ECharts") {
		t.Errorf("EChartsJS is not ECharts 5.6.0, or EChartsNotice not its notice")
	}
}

// TestFigureHTML: a Figure that Sections gives draws as the same bytes as
// its chart in the section, so that a notebook showing it shows the
// report's chart; a bar figure draws a bar per label; an id that is not a
// plain name is refused.
func TestFigureHTML(t *testing.T) {
	secs, err := Sections(Options{Results: fixture})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range secs {
		for _, f := range s.Figures {
			h, err := f.HTML()
			if err != nil {
				t.Fatalf("%s: %v", f.ID, err)
			}
			if !strings.Contains(s.HTML, h) {
				t.Errorf("figure %s: its HTML is not the section's chart", f.ID)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the fixture's sections hold no figure")
	}
	bars := document.Figure{ID: "bars1", Title: "GCUPS per algorithm", YName: "GCUPS", Labels: []string{"myers", "tworow", "gone"},
		Series: []document.FigureSeries{{Name: "GCUPS", Points: []document.FigurePoint{{Y: 40}, {Y: 2.5}, {Y: math.NaN()}}}}}
	h, err := bars.HTML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"type":"bar"`, `"myers"`, `"tworow"`, `"gone"`, `"value":40`, `"value":"-"`, "<figcaption", "GCUPS per algorithm", `height:194px`} {
		if !strings.Contains(h, want) {
			t.Errorf("the bar figure's HTML lacks %s", want)
		}
	}
	if _, err := (document.Figure{ID: "a-b"}).HTML(); err == nil || !strings.Contains(err.Error(), `"a-b"`) {
		t.Errorf("Figure{ID: \"a-b\"}.HTML(): %v; want an error naming the id", err)
	}
}
