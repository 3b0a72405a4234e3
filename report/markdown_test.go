package report

import (
	"bytes"
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
		{"figs", "\n![Speedup \\[x\\] by length](figs/r000fig3.png)\n\nSpeedup [x] by length\n\n**Speedup [x] by length (the figure's points)**\n"},
		{"my figs (1)", "](my%20figs%20%281%29/r000fig3.png)\n"},
		{"javascript:alert(1)", "](javascript%3Aalert%281%29/r000fig3.png)\n"},
		{"", "\n## S\n\n**Speedup [x] by length (the figure's points)**\n"},
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
