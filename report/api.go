package report

import (
	"bytes"
	"context"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
)

// EChartsJS returns the ECharts library every HTML report inlines (npm
// package echarts 5.6.0, dist/echarts.min.js, Apache-2.0; see
// internal/document/assets/NOTICE), for pages that draw charts outside a
// report: the notebooks load it once from here rather than keep a second
// copy.
func EChartsJS() string { return document.EChartsJS }

// EChartsNotice returns the NOTICE of the ECharts library
// (internal/document/assets/NOTICE), to be shown wherever EChartsJS is.
func EChartsNotice() string { return document.EChartsNotice }

// Seconds writes a time in seconds as the report's tables do: three
// significant digits in µs, ms or s, never an exponent ("106 µs", "1.52 s").
func Seconds(sec float64) string { return document.Dur(sec) }

// Bytes writes a size in bytes as the report does: "512 B", "3.05 MiB".
func Bytes(b float64) string { return document.BytesStr(b) }

// Count writes a whole number as the report does, thousands separated by
// commas ("50,000").
func Count(n int) string { return document.Count(n) }

// MarkdownText returns s as Markdown that shows s as it is, on one line,
// escaped as the Markdown report escapes its own text (a heading, a
// paragraph, a table cell), for pages that put text from data — a CSV
// field, a folder's name — into Markdown of their own.
func MarkdownText(s string) string { return document.MdText(s) }

// A Section is one section of the report, in both formats, for showing the
// report piece by piece (the notebooks show each course report's section
// beside its experiments).
type Section struct {
	ID    string // SectionSummary … SectionMethod: "summary", "r000" … "r004", "beyond", "gpu", "method", …
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
	Figures []document.Figure
}

// A Figure is a chart of the report as data (see document.Figure): x–y
// series, each point with the median and the min and max of its
// repetitions. Its HTML method draws it as the report draws its charts,
// and ExportFigures as files; the notebooks draw theirs with it.
type Figure = document.Figure

// A FigureSeries is one line of a Figure.
type FigureSeries = document.FigureSeries

// A FigurePoint is one point of a series: x, the median y, and the range
// of y over the repetitions (Lo == Hi == Y where there is one value).
type FigurePoint = document.FigurePoint

// A FigureMark is a vertical line of a Figure at X, named Name.
type FigureMark = document.FigureMark

// AlignmentHTML draws an alignment as the report does (document.AlignmentHTML).
func AlignmentHTML(what, a, b, cigar string, width int) (string, error) {
	return document.AlignmentHTML(what, a, b, cigar, width)
}

// TeXDocument wraps a LaTeX report fragment in a document (document.TeXDocument).
func TeXDocument(fragment string) string { return document.TeXDocument(fragment) }

// ExportFigures draws figures into dir as SVG and PNG files
// (document.ExportFigures).
func ExportFigures(ctx context.Context, dir string, figs []Figure) ([]string, error) {
	return document.ExportFigures(ctx, dir, figs)
}

// Sections returns the report of o (Format is ignored) section by section,
// in the order of the whole report. It reads what Write reads, and the
// sections hold what Write would write: the same chart ids, so a page that
// shows several sections of one report shows each chart once.
func Sections(o Options) ([]Section, error) {
	d, err := load(o)
	if err != nil {
		return nil, err
	}
	whole := build(d, o.Align)
	out := make([]Section, 0, len(whole.Sections))
	for _, s := range whole.Sections {
		var h, m bytes.Buffer
		if err := document.WriteHTMLSection(&h, s); err != nil {
			return nil, err
		}
		document.WriteMarkdownFigs(&m, &document.Doc{Sections: []document.Section{s}}, "")
		_, md, _ := strings.Cut(m.String(), "\n") // drop the one-section document's "# " title line
		sec := Section{
			ID: s.ID, Title: s.Title,
			HTML:     h.String(),
			Markdown: strings.TrimLeft(md, "\n"),
		}
		for _, b := range s.Blocks {
			if c, ok := b.(*document.Figure); ok && !c.Empty() {
				sec.Figures = append(sec.Figures, *c)
			}
		}
		out = append(out, sec)
	}
	return out, nil
}
