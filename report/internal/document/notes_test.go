package document

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// A chart's notes are set with it in every format, after its drawing (in
// HTML inside its figure, so that on paper they move with it), and a log
// x axis is labelled at the lengths measured.
func TestFigureNotesTravel(t *testing.T) {
	c := &Figure{ID: "f", Title: "Time by length", XName: "length", YName: TimeAxis, XLog: true, YLog: true,
		Series: []FigureSeries{{Name: "a", Points: []FigurePoint{{X: 10, Y: 1, Lo: 1, Hi: 1}, {X: 100, Y: 2, Lo: 2, Hi: 2}}}},
		Notes:  []string{"Drawn over one another: a and b."}}
	d := &Doc{Title: "t", Sections: []Section{{ID: "s", Title: "S", Blocks: []any{c, Para("After the chart.")}}}}

	var h bytes.Buffer
	if err := WriteHTML(&h, d); err != nil {
		t.Fatal(err)
	}
	html := h.String()
	note, end, after := strings.Index(html, "Drawn over one another"), strings.Index(html, "</figure>"), strings.Index(html, "After the chart.")
	if note < 0 || end < 0 || !(note < end && end < after) {
		t.Errorf("HTML: the note at %d, the figure's end at %d, the next paragraph at %d; want the note inside the figure", note, end, after)
	}

	var m bytes.Buffer
	WriteMarkdownFigs(&m, d, "figs")
	md := m.String()
	if img, n := strings.Index(md, "![Time by length]"), strings.Index(md, "Drawn over one another"); img < 0 || n < img || n > strings.Index(md, "After the chart.") {
		t.Errorf("Markdown: the note is not between its chart and the next paragraph:\n%s", md)
	}

	var x bytes.Buffer
	if err := WriteTeX(&x, d, "figs"); err != nil {
		t.Fatal(err)
	}
	tex := x.String()
	if n, e := strings.Index(tex, "Drawn over one another"), strings.Index(tex, `\end{figure}`); n < 0 || n > e {
		t.Errorf("TeX: the note is not inside the figure float:\n%s", tex)
	}
}

func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		xs, want []float64
	}{
		{[]float64{10_000, 30_000, 50_000, 100_000, 150_000}, []float64{10_000, 30_000, 150_000}},      // 100,000 and 50,000 crowd their neighbours
		{[]float64{1_000, 2_000, 5_000, 10_000, 20_000, 50_000}, []float64{1_000, 10_000, 50_000}},     // powers of ten first
		{[]float64{1_000, 2_000, 4_000, 8_000, 16_000}, []float64{1_000, 2_000, 4_000, 8_000, 16_000}}, // a quarter apart
		{[]float64{1, 2, 4, 8, 16, 32, 64, 128}, []float64{1, 4, 16, 128}},                             // a seventh of the axis apart: every other
		{[]float64{5}, nil},
	} {
		got := logTicks(c.xs)
		if len(got) != len(c.want) {
			t.Errorf("logTicks(%v) = %v, want %v", c.xs, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("logTicks(%v) = %v, want %v", c.xs, got, c.want)
				break
			}
		}
	}
	// The option carries them as the axis' labels and ticks.
	c := &Figure{ID: "f", XName: "length", YName: TimeAxis, XLog: true,
		Series: []FigureSeries{{Name: "a", Points: []FigurePoint{{X: 10_000, Y: 1}, {X: 30_000, Y: 2}, {X: 150_000, Y: 3}}}}}
	_, o := c.Option("100%", "300px")
	xs, _ := o["xAxis"].([]map[string]any)
	if len(xs) == 0 {
		t.Fatalf("no x axis in %v", o["xAxis"])
	}
	label, _ := xs[0]["axisLabel"].(map[string]any)
	if got := fmt.Sprint(label["customValues"]); got != "[10000 30000 150000]" {
		t.Errorf("x axis labels %s, want the 3 lengths", got)
	}
}
