package nb

import (
	"math"

	"github.com/levlab/levlab/report"
)

// Line returns a series of a report.Figure through the points (x[i],
// y[i]), each a single value (no whisker). A point with a NaN or infinite
// coordinate is left out: the chart has no place for it (and its option,
// JSON, no way to write it).
func Line(name string, x, y []float64) report.FigureSeries {
	s := report.FigureSeries{Name: name}
	for i := range min(len(x), len(y)) {
		if finite(x[i]) && finite(y[i]) {
			s.Points = append(s.Points, report.FigurePoint{X: x[i], Y: y[i], Lo: y[i], Hi: y[i]})
		}
	}
	return s
}

// FigureHTML returns f as the report draws its charts (report.Figure's
// HTML: the same bytes as the report's chart of the same data), its
// script's body in a block, so that running a cell again redeclares
// nothing in the page. An f without an ID gets a new one (ChartID); a
// figure the report refuses (an id that is not a plain name) comes back
// as ErrorHTML of why. LoadECharts first.
func FigureHTML(f report.Figure) string {
	if f.ID == "" {
		f.ID = ChartID("nbfig")
	}
	h, err := f.HTML()
	if err != nil {
		return ErrorHTML(err)
	}
	return blockScripts(h) + "\n"
}

// ShowFigure displays FigureHTML(f).
func ShowFigure(f report.Figure) { display(FigureHTML(f)) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
