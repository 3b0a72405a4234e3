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
	el, sc, err := f.render()
	if err != nil {
		return "", err
	}
	return el + "\n" + sc, nil
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
			if c, ok := b.(*Figure); ok && !c.empty() {
				sec.Figures = append(sec.Figures, *c)
			}
		}
		out = append(out, sec)
	}
	return out, nil
}
