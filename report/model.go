package report

import (
	"fmt"
	"math"
	"strings"
)

// doc is the report before it is written in a format.
type doc struct {
	title    string
	byline   string // when and by which levlab it was written, from which runs
	sections []section
}

type section struct {
	id, title string
	source    string // the course report's file, named once under the title
	blocks    []any  // para, *table, *chart, *drawing
}

type para string

type table struct {
	caption string
	folded  bool // details most readers skip: HTML shows the caption, the rows on a click
	head    []string
	rows    [][]string
	links   []string // links[i]: the id of the section row i's first cell links to ("": none)
	prose   bool     // cells of words, not numbers: wrapped and left-aligned
}

// link returns the id of the section row i links to, "" for none.
func (t *table) link(i int) string {
	if i < len(t.links) {
		return t.links[i]
	}
	return ""
}

// chart is an x–y chart of series; each point may carry min and max.
type chart struct {
	id, title  string
	xName      string
	yName      string
	xLog, yLog bool
	series     []series
	markY      float64 // > 0: a horizontal line at this y
	markName   string
	markFrom   float64 // > 0: markY's line starts at this x
	marksX     []markX // vertical lines: where a point failed
	// xFit ends the x axis at the data's least and greatest x, and
	// xWhole ticks it at whole numbers alone (workers, tile sides); xBase2
	// makes a log x axis tick at powers of two (workers, ranks that double).
	xFit, xWhole, xBase2 bool
	// labels make the chart a bar chart: a bar per label, the first
	// series' y at the same index (Figure.Labels).
	labels []string
}

// markX is a vertical line at x, named.
type markX struct {
	x    float64
	name string
}

type series struct {
	name      string
	published bool // drawn dashed: the report's numbers
	pts       []pt
	// With several machines: group is the name without the machine (the
	// series of one group share a colour) and machine the run's index (it
	// picks the line and the symbol). build sets them.
	group   string
	machine int
}

type pt struct{ x, y, lo, hi float64 }

func (s *section) add(b ...any) { s.blocks = append(s.blocks, b...) }

func (s *section) p(format string, args ...any) { s.add(para(fmt.Sprintf(format, args...))) }

// asTable writes a chart's points as a table: one row per x, one column
// per series, each value with its spread as a second line. Markdown and
// LaTeX without figures show charts this way.
func (c *chart) asTable() *table {
	t := &table{caption: c.title + " (the figure's points)", head: []string{c.xName}}
	var xs []float64
	seen := map[float64]bool{}
	for _, s := range c.series {
		t.head = append(t.head, s.name)
		for _, p := range s.pts {
			if !seen[p.x] {
				seen[p.x] = true
				xs = append(xs, p.x)
			}
		}
	}
	sortFloats(xs)
	for _, x := range xs {
		row := []string{xnum(x)}
		for _, s := range c.series {
			cell := ""
			for _, p := range s.pts {
				if p.x == x {
					cell = c.yValue(p.y)
					if p.lo != p.hi {
						cell += "\n" + c.yValue(p.lo) + "–" + c.yValue(p.hi)
					}
				}
			}
			row = append(row, cell)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// yValue formats a y value of the chart in its axis's unit.
func (c *chart) yValue(y float64) string {
	switch {
	case axisUnit(c.yName) == "seconds":
		return dur(y)
	case strings.Contains(c.yName, "bytes"):
		return bytesStr(y)
	}
	return num(y)
}

// xnum formats an x value: whole numbers (lengths, tiles, workers) as
// integers.
func xnum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return count(int64(x))
	}
	return num(x)
}

// empty reports whether the chart has nothing to draw: no series with two
// points or more (a single point is a number, which the text gives).
func (c *chart) empty() bool {
	for _, s := range c.series {
		if len(s.pts) > 1 {
			return false
		}
	}
	return true
}
