package report

import (
	"slices"
	"strings"
	"testing"
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
		if !strings.HasPrefix(s.HTML, `<section id="`+s.ID+`">`) || !strings.HasSuffix(s.HTML, "</section>\n") {
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
	want := "summary notrun r000 r001 r002 r003 r004 beyond pairs align gpu benchmarks own-my-omp own-offbyone method"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("sections %s; want %s", got, want)
	}
	if !strings.Contains(EChartsJS(), `version="5.6.0"`) || !strings.Contains(EChartsNotice(), "Apache ECharts") {
		t.Errorf("EChartsJS is not ECharts 5.6.0, or EChartsNotice not its notice")
	}
}
