package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
)

// TestMarkdownFigs: with a figures folder each chart is its image, its
// title as a caption and the table of its points; without, the table
// alone; a cell's spread follows its value in parentheses.
func TestMarkdownFigs(t *testing.T) {
	c := &document.Figure{ID: "r000fig3", Title: "Speedup [x] by length", XName: "n",
		Series: []document.FigureSeries{{Name: "tiled", Points: []document.FigurePoint{{X: 1, Y: 2, Lo: 2, Hi: 2}, {X: 2, Y: 3, Lo: 3, Hi: 3}}}}}
	d := &document.Doc{Title: "T", Sections: []document.Section{{ID: "s", Title: "S", Blocks: []any{
		c, &document.Table{Caption: "t", Head: []string{"a", "b"}, Rows: [][]string{{"x", "1.23 ms\n1.20–1.31"}}},
	}}}}
	for _, tc := range []struct {
		figs, want string
	}{
		{"figs", "\n![Speedup \\[x\\] by length](figs/r000fig3.png)\n\nFigure 1. Speedup [x] by length\n\n**Speedup [x] by length (the figure's points)**\n\n| n | tiled |"},
		{"my figs (1)", "](my%20figs%20%281%29/r000fig3.png)\n"},
		{"javascript:alert(1)", "](javascript%3Aalert%281%29/r000fig3.png)\n"},
		{"", "\n## S\n\n**Figure 1. Speedup [x] by length (the figure's points)**\n"},
	} {
		var buf bytes.Buffer
		document.WriteMarkdownFigs(&buf, d, tc.figs)
		out := buf.String()
		if !strings.Contains(out, tc.want) {
			t.Errorf("figs %q: the Markdown lacks %q:\n%s", tc.figs, tc.want, out)
		}
		if tc.figs == "" && strings.Contains(out, "![") {
			t.Errorf("figs \"\": an image in\n%s", out)
		}
		if !strings.Contains(out, "| x | 1.23 ms (1.20–1.31) |\n") {
			t.Errorf("figs %q: no spread in parentheses:\n%s", tc.figs, out)
		}
	}
}

func TestMDAlt(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a [b] c", `a \[b\] c`},
		{"x](y)", `x\](y)`},
		{`a\]`, `a\\\]`},
		{"*e*", `\*e\*`},
	} {
		if got := document.MdAlt(c.in); got != c.want {
			t.Errorf("mdAlt(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// TestMarkdownNumbers: charts and drawings are numbered as figures, tables
// with a caption as tables, in order, as the page's stylesheet numbers
// them; a folded table and the list of references are not numbered.
func TestMarkdownNumbers(t *testing.T) {
	c := &document.Figure{ID: "f", Title: "Chart", XName: "n",
		Series: []document.FigureSeries{{Name: "a", Points: []document.FigurePoint{{X: 1, Y: 2, Lo: 2, Hi: 2}, {X: 2, Y: 3, Lo: 3, Hi: 3}}}}}
	tab := func(caption string, folded bool) *document.Table {
		return &document.Table{Caption: caption, Folded: folded, Head: []string{"a"}, Rows: [][]string{{"x"}}}
	}
	d := &document.Doc{Title: "T", Sections: []document.Section{
		{ID: "s", Title: "S", Blocks: []any{tab("first", false), c, tab("folded", true), tab("second", false)}},
		{ID: "refs", Title: "Terms and references", Blocks: []any{tab("references", false)}},
	}}
	var buf bytes.Buffer
	document.WriteMarkdown(&buf, d)
	out := buf.String()
	for _, want := range []string{"**Table 1. first**", "**Figure 1. Chart (the figure's points)**", "**folded**", "**Table 2. second**", "**references**"} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, out)
		}
	}
	css, err := os.ReadFile("internal/document/report.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`content:"Figure " counter(fig)`, `content:"Table " counter(tab)`, "details table>caption::before,#refs table>caption::before,section.screen figure>figcaption::before,figure.screen>figcaption::before,section.screen table>caption::before{counter-increment:none"} {
		if !strings.Contains(string(css), want) {
			t.Errorf("report.css does not number as the Markdown does: no %q", want)
		}
	}
}
