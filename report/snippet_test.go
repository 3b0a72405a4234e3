package report

import (
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/go-echarts/go-echarts/v2/opts"
)

// TestChartSnippetRefuses: an id or a size that chartSnippet would write
// into the element or the script as it is must be a plain name or a CSS
// length.
func TestChartSnippetRefuses(t *testing.T) {
	option := map[string]any{"tooltip": map[string]any{}, "series": []any{}}
	for _, c := range []struct {
		init opts.Initialization
		want string
	}{
		{opts.Initialization{ChartID: "a1_b", Width: "900px", Height: "100%"}, ""},
		{opts.Initialization{ChartID: `x" onclick="alert(1)`, Width: "1px", Height: "1px"}, "chart id"},
		{opts.Initialization{ChartID: "x');alert(1);('", Width: "1px", Height: "1px"}, "chart id"},
		{opts.Initialization{ChartID: "1x", Width: "1px", Height: "1px"}, "chart id"},
		{opts.Initialization{ChartID: "x", Width: `1px" onclick="alert(1)`, Height: "1px"}, "CSS length"},
		{opts.Initialization{ChartID: "x", Width: "1px", Height: "1px;background:url(//e.x)"}, "CSS length"},
	} {
		el, sc, err := document.ChartSnippet(c.init, option)
		switch {
		case c.want == "" && (err != nil || !strings.Contains(el, `id="a1_b"`) || !strings.Contains(sc, "let option_a1_b = ")):
			t.Errorf("%+v: %v\n%s\n%s", c.init, err, el, sc)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || el != "" || sc != ""):
			t.Errorf("%+v: error %v; want one about the %s, and no HTML", c.init, err, c.want)
		}
	}
}
