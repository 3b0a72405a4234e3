package report

import (
	"bytes"
	"fmt"
	"strings"
)

// EChartsJS returns the ECharts library every HTML report inlines (npm
// package echarts 5.6.0, dist/echarts.min.js, Apache-2.0; see
// assets/NOTICE), for pages that draw charts outside a report: the
// notebooks load it once from here rather than keep a second copy.
func EChartsJS() string { return echartsJS }

// EChartsNotice returns the NOTICE of the ECharts library (assets/NOTICE),
// to be shown wherever EChartsJS is.
func EChartsNotice() string { return echartsNotice }

// Seconds writes a time in seconds as the report's tables do: three
// significant digits in µs, ms or s, never an exponent ("106 µs", "1.52 s").
func Seconds(sec float64) string { return dur(sec) }

// Bytes writes a size in bytes as the report does: "512 B", "3.05 MiB".
func Bytes(b float64) string { return bytesStr(b) }

// Count writes a whole number as the report does, thousands separated by
// commas ("50,000").
func Count(n int) string { return count(n) }

// MarkdownText returns s as Markdown that shows s as it is, on one line,
// escaped as the Markdown report escapes its own text (a heading, a
// paragraph, a table cell), for pages that put text from data — a CSV
// field, a folder's name — into Markdown of their own.
func MarkdownText(s string) string { return mdText(s) }

// A Section is one section of the report, in both formats, for showing the
// report piece by piece (the notebooks show each course report's section
// beside its experiments).
type Section struct {
	ID    string // "summary", "notrun", "read", "r000" … "r004", "beyond", "gpu", "benchmarks", "method"
	Title string
	// HTML is the section's <section> element: its paragraphs, tables and
	// charts. The charts' scripts call the global echarts, which the page
	// must load first (EChartsJS); the element holds no library.
	HTML string
	// Markdown is the section as the Markdown report writes it: a "##"
	// heading, paragraphs, tables, and each chart as the table of its points.
	Markdown string
	// Figures are the section's charts as data, in order, for drawing them
	// elsewhere (as PNG or SVG files, say); charts without points are left
	// out.
	Figures []Figure
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
	// MarkFromX, when > 0, starts MarkY's line at that x rather than at
	// the axis: a bound stated from some length on is drawn from there.
	MarkFromX float64
	// Failed are vertical lines, each where a point failed.
	Failed []FigureMark
	// XFit ends the x axis at the data's least and greatest x; XWhole
	// ticks it at whole numbers alone (workers, tile sides); XBase2 ticks a
	// log x axis at powers of two (workers or ranks that double).
	XFit, XWhole, XBase2 bool
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

// HTML returns f as the report draws its charts: a <figure> with f.Title
// as its caption and the chart's element, then the <script> that draws it
// with the global echarts (EChartsJS, which the page loads first). A chart
// of the report and the Figure Sections gives for it are the same bytes.
// The ID must be a plain name (a letter, then letters, digits or _), or
// the error says so.
func (f Figure) HTML() (string, error) {
	if !chartID.MatchString(f.ID) {
		return "", fmt.Errorf("report: figure id %q: want a letter, then letters, digits or _", f.ID)
	}
	el, sc, err := chartOf(f).render()
	if err != nil {
		return "", err
	}
	return el + "\n" + sc, nil
}

// A FigureSeries is one line of a Figure.
type FigureSeries struct {
	Name      string
	Published bool // the course report's numbers, not ours
	Points    []FigurePoint
	// Group and Machine, set where the report reads several machines:
	// Name without its machine (the series of a group share a colour), and
	// the machine's index among those read (its line and symbol).
	Group   string
	Machine int
}

// A FigurePoint is one point of a series: x, the median y, and the range of
// y over the repetitions (Lo == Hi == Y where there is one value).
type FigurePoint struct{ X, Y, Lo, Hi float64 }

// Sections returns the report of o (Format is ignored) section by section,
// in the order of the whole report. It reads what Write reads, and the
// sections hold what Write would write: the same chart ids, so a page that
// shows several sections of one report shows each chart once.
func Sections(o Options) ([]Section, error) {
	d, err := load(o)
	if err != nil {
		return nil, err
	}
	whole := build(d)
	out := make([]Section, 0, len(whole.sections))
	for _, s := range whole.sections {
		var h, m bytes.Buffer
		if err := writeHTMLSection(&h, s); err != nil {
			return nil, err
		}
		writeMarkdownFigs(&m, &doc{sections: []section{s}}, "")
		_, md, _ := strings.Cut(m.String(), "\n") // drop the one-section document's "# " title line
		sec := Section{
			ID: s.id, Title: s.title,
			HTML:     h.String(),
			Markdown: strings.TrimLeft(md, "\n"),
		}
		for _, b := range s.blocks {
			if c, ok := b.(*chart); ok && !c.empty() {
				sec.Figures = append(sec.Figures, c.figure())
			}
		}
		out = append(out, sec)
	}
	return out, nil
}

func (c *chart) figure() Figure {
	f := Figure{ID: c.id, Title: c.title, XName: c.xName, YName: c.yName, XLog: c.xLog, YLog: c.yLog, MarkY: c.markY, MarkName: c.markName, MarkFromX: c.markFrom,
		XFit: c.xFit, XWhole: c.xWhole, XBase2: c.xBase2, Labels: c.labels}
	for _, m := range c.marksX {
		f.Failed = append(f.Failed, FigureMark{X: m.x, Name: m.name})
	}
	for _, s := range c.series {
		fs := FigureSeries{Name: s.name, Published: s.published, Group: s.group, Machine: s.machine}
		for _, p := range s.pts {
			fs.Points = append(fs.Points, FigurePoint{X: p.x, Y: p.y, Lo: p.lo, Hi: p.hi})
		}
		f.Series = append(f.Series, fs)
	}
	return f
}
