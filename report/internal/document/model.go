package document

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Doc is the report before it is written in a format.
type Doc struct {
	Title    string
	Byline   string // when and by which levlab it was written, from which runs
	Sections []Section
}

// RefsID is the ID of the section of terms and references, whose table
// is a list, not numbered (report.css styles it by this ID on paper).
const RefsID = "refs"

type Section struct {
	ID, Title string
	Source    string // the course report's file, named once under the title
	Blocks    []any  // para, *table, *Figure, *drawing
	// Screen: raw detail that paper (HTML printed) leaves out whole, as
	// it would print a heading over folded tables alone; Markdown and TeX
	// keep it.
	Screen bool
}

type Para string

type Table struct {
	Caption string
	Folded  bool // details most readers skip: HTML shows the caption, the rows on a click
	Head    []string
	Rows    [][]string
	Links   []string // links[i]: the id of the section row i's first cell links to ("": none)
	Prose   bool     // cells of words, not numbers: wrapped and left-aligned
}

// link returns the id of the section row i links to, "" for none.
func (t *Table) link(i int) string {
	if i < len(t.Links) {
		return t.Links[i]
	}
	return ""
}

// A Figure is a chart of the report as data: x–y series, each point with
// the median and the min and max of its repetitions. HTML draws it as the
// report draws its charts, and ExportFigures as files; the notebooks draw
// theirs with it.
type Figure struct {
	ID, Title    string
	XName, YName string
	XLog, YLog   bool
	Series       []FigureSeries
	// MarkY, when > 0, is a horizontal line the chart draws at that y,
	// named MarkName (for instance the number of cores on a speedup chart).
	MarkY    float64
	MarkName string
	// MarkInNote: a note names MarkY's line, which then draws no label
	// (one that would lie over the lines near it).
	MarkInNote bool
	// MarkFromX, when > 0, starts MarkY's line at that x rather than at
	// the axis: a bound stated from some length on is drawn from there.
	MarkFromX float64
	// Failed are vertical lines, each where a point failed.
	Failed []FigureMark
	// XFit ends the x axis at the data's least and greatest x; XWhole
	// ticks it at whole numbers alone (workers, tile sides); XBase2 ticks a
	// log x axis at powers of two (workers or ranks that double).
	XFit, XWhole, XBase2 bool
	// Notes are sentences on the chart itself (lines drawn over one
	// another, points it cannot draw), set under it in every format so
	// that on paper they travel with it rather than with the text.
	Notes []string
	// Labels, where set, make the figure a bar chart: a bar per label, the
	// first at the top, each of the first series' Y at the same index,
	// drawn across from zero on a linear axis named YName (a bar's length
	// is its value, so give it a measure where longer is better, such as
	// GCUPS). A point whose Y is not finite has no bar.
	Labels []string
}

// A FigureMark is a vertical line of a Figure at X, named Name.
type FigureMark struct {
	X    float64
	Name string
}

// A FigureSeries is one line of a Figure.
type FigureSeries struct {
	Name      string
	Published bool // the course report's numbers, not ours: drawn dashed
	Points    []FigurePoint
	// Group and Machine, set where the report reads several machines:
	// Name without its machine (the series of a group share a colour), and
	// the machine's index among those read (its line and symbol; one below
	// zero draws as zero). An own experiment's figure of series by
	// implementation and more sets them on one machine too: the
	// implementation, and the index of the rest (1 worker, 2 workers …).
	Group   string
	Machine int
}

// A FigurePoint is one point of a series: x, the median y, and the range of
// y over the repetitions (Lo == Hi == Y where there is one value).
type FigurePoint struct {
	X, Y, Lo, Hi float64
	// CI: Lo–Hi is the 95% interval of a ratio, not the repetitions' range.
	CI bool
}

func (s *Section) Add(b ...any) { s.Blocks = append(s.Blocks, b...) }

func (s *Section) P(format string, args ...any) { s.Add(Para(fmt.Sprintf(format, args...))) }

// OutlierFactor is how many times its median a repetition must take to be
// an outlier: a table of a time chart's points marks the range of such a
// point ‡, as the report's own tables do.
const OutlierFactor = 3

// asTable writes a chart's points as a table: one row per x, one column
// per series, each value with its spread as a second line, a time's range
// marked ‡ where it holds an outlier (OutlierFactor). Markdown and LaTeX
// without figures show charts this way.
func (c *Figure) asTable() *Table {
	t := &Table{Caption: c.Title + " (the figure's points)", Head: []string{c.XName}}
	var xs []float64
	seen := map[float64]bool{}
	for _, s := range c.Series {
		t.Head = append(t.Head, s.Name)
		for _, p := range s.Points {
			if !seen[p.X] {
				seen[p.X] = true
				xs = append(xs, p.X)
			}
		}
	}
	sort.Float64s(xs)
	for _, x := range xs {
		row := []string{Xnum(x)}
		for _, s := range c.Series {
			cell := ""
			for _, p := range s.Points {
				if p.X == x {
					cell = c.yValue(p.Y)
					if p.Lo != p.Hi {
						cell += "\n" + c.yValue(p.Lo) + "–" + c.yValue(p.Hi)
						if AxisUnit(c.YName) == "seconds" && !p.CI && p.Y > 0 && p.Hi > OutlierFactor*p.Y {
							cell += " ‡"
						}
					}
				}
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// yValue formats a y value of the chart in its axis's unit.
func (c *Figure) yValue(y float64) string {
	switch {
	case AxisUnit(c.YName) == "seconds":
		return Dur(y)
	case strings.Contains(c.YName, "bytes"):
		return BytesStr(y)
	}
	return Num(y)
}

// Xnum formats an x value: whole numbers (lengths, tiles, workers) as
// integers.
func Xnum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return Count(int64(x))
	}
	return Num(x)
}

// Empty reports whether the chart has nothing to draw: no series with two
// points or more (a single point is a number, which the text gives).
func (c *Figure) Empty() bool {
	for _, s := range c.Series {
		if len(s.Points) > 1 {
			return false
		}
	}
	return true
}

// Numbers returns the label each numbered figure and table of d is shown
// with, "Figure 3" or "Table 5", by block: a chart with points or a
// drawing is a figure, a table with a caption a table, counted in order
// through the sections. What paper leaves out (a Screen section's blocks,
// a Screen drawing), a folded table and the references' tables are not
// numbered, so that the page, its print, Markdown and TeX count alike.
func Numbers(d *Doc) map[any]string {
	nums := map[any]string{}
	var figs, tabs int
	for _, s := range d.Sections {
		if s.Screen {
			continue
		}
		for _, b := range s.Blocks {
			switch b := b.(type) {
			case *Figure:
				if !b.Empty() {
					figs++
					nums[b] = fmt.Sprintf("Figure %d", figs)
				}
			case *Drawing:
				if !b.Screen {
					figs++
					nums[b] = fmt.Sprintf("Figure %d", figs)
				}
			case *Table:
				if b.Caption != "" && !b.Folded && s.ID != RefsID {
					tabs++
					nums[b] = fmt.Sprintf("Table %d", tabs)
				}
			}
		}
	}
	return nums
}
