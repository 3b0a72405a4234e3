package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// The ECharts library (npm package echarts 5.6.0, dist/echarts.min.js),
// inlined in every HTML report; its LICENSE and NOTICE sit beside it in
// assets/ and the notice is repeated in the page.
//
//go:embed assets/echarts.min.js
var echartsJS string

//go:embed assets/NOTICE
var echartsNotice string

// doc is the report before it is written in a format.
type doc struct {
	title    string
	sections []section
}

type section struct {
	id, title string
	blocks    []any // para, *table, *chart
}

type para string

type table struct {
	caption string
	head    []string
	rows    [][]string
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
}

type series struct {
	name      string
	published bool // drawn dashed: the report's numbers
	pts       []pt
}

type pt struct{ x, y, lo, hi float64 }

func (s *section) add(b ...any) { s.blocks = append(s.blocks, b...) }

func (s *section) p(format string, args ...any) { s.add(para(fmt.Sprintf(format, args...))) }

// asTable writes a chart's points as a table: one row per x, one column
// per series. Markdown shows charts this way.
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
					cell = num(p.y)
					if p.lo != p.hi {
						cell += " [" + num(p.lo) + "–" + num(p.hi) + "]"
					}
				}
			}
			row = append(row, cell)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// xnum formats an x value: whole numbers (lengths, tiles, workers) as
// integers.
func xnum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return num(x)
}

func (c *chart) empty() bool {
	for _, s := range c.series {
		if len(s.pts) > 0 {
			return false
		}
	}
	return true
}

// chartID is what a chart id may be: it is written into an HTML attribute
// and JavaScript names as it is.
var chartID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// render returns the chart's element and its script: go-echarts builds
// the option, ChartSnippet writes them.
func (c *chart) render() (element, script string, err error) {
	if !chartID.MatchString(c.id) {
		panic(fmt.Sprintf("report: chart id %q is not a plain name", c.id)) // ids are constants of this package
	}
	l := charts.NewLine()
	// Every legend entry stays visible (a saved PNG has no scrolling):
	// about six fit on a row; the plot starts below the last row.
	legendRows := (len(c.series) + 5) / 6
	xType, yType := "value", "value"
	if c.xLog {
		xType = "log"
	}
	if c.yLog {
		yType = "log"
	}
	const width, height = "900px", "420px"
	l.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: c.id, Width: width, Height: height, PageTitle: c.title, AssetsHost: "./"}),
		charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: c.title}),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Name: c.id, Title: "save as PNG"},
		}}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "28px", Left: "center", Width: "80%"}),
		charts.WithGridOpts(opts.Grid{Top: fmt.Sprintf("%dpx", 60+24*legendRows), Left: "80px", Right: "140px"}),
		charts.WithXAxisOpts(opts.XAxis{Type: xType, Name: c.xName, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: yType, Name: c.yName, Scale: opts.Bool(true)}),
	)
	for i, s := range c.series {
		col := palette[i%len(palette)]
		data := make([]opts.LineData, 0, len(s.pts))
		spread := false
		for _, p := range s.pts {
			if !finite(p.x, p.y, p.lo, p.hi) {
				continue // JSON has no NaN or infinity; the tables show "—"
			}
			data = append(data, opts.LineData{Value: []float64{p.x, p.y, p.lo, p.hi}})
			spread = spread || p.lo != p.hi
		}
		ls := opts.LineStyle{Color: col}
		if s.published {
			ls.Type = "dashed"
		}
		so := []charts.SeriesOpts{
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: symbol(s.published)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: col}),
			charts.WithLineStyleOpts(ls),
		}
		if i == 0 && c.markY > 0 && finite(c.markY) {
			so = append(so, charts.WithMarkLineNameYAxisItemOpts(opts.MarkLineNameYAxisItem{Name: c.markName, YAxis: c.markY}),
				charts.WithMarkLineStyleOpts(opts.MarkLineStyle{Label: &opts.Label{Show: opts.Bool(true), Formatter: c.markName}}))
		}
		l.AddSeries(s.name, data, so...)
		if spread {
			// The min–max whiskers: a custom series of the same name (the
			// legend toggles both) drawing a capped bar per point; its y
			// takes min and max so that the axis holds them. The script
			// gives it its renderItem.
			l.MultiSeries = append(l.MultiSeries, charts.SingleSeries{
				Name: s.name, Type: "custom", Data: data,
				ItemStyle: &opts.ItemStyle{Color: col}, Encode: &opts.Encode{X: 0, Y: []int{1, 2, 3}},
			})
		}
	}
	l.Validate()
	return ChartSnippet(l.Initialization, l.JSON())
}

// cssLength is what a chart's width or height may be: it is written into
// a style attribute as it is.
var cssLength = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(px|%|em|rem|vw|vh)?$`)

// ChartSnippet returns a go-echarts chart as the report writes its own:
// its element, and a <script> that draws it there with the global echarts
// (EChartsJS, which the page loads first). Pass the chart's Initialization
// and, after its Validate, its option:
//
//	element, script, err := report.ChartSnippet(line.Initialization, line.JSON())
//
// Use it rather than go-echarts' RenderSnippet, which writes every string
// into the <script> unescaped (a series named "</script>…" ends the tag)
// and turns any string between "__f__" markers, data too, into code. Here
// the option is JSON as encoding/json writes it — <, >, & and U+2028/2029
// as \u escapes, so no string can end the tag or the line — with every
// "__f__" escaped as well (scriptJSON), so that a function option of
// go-echarts (opts.FuncOpts) stays a string. The script sets the only two
// functions itself: a tooltip formatter that shows names and values as
// text (tooltipJS), and the renderItem of each custom series, the report's
// min–max whiskers (whiskerJS). The script declares goecharts_<id> and option_<id> with
// let, as go-echarts' does. The id must be a plain name (a letter, then
// letters, digits or _) and the width and height CSS lengths ("900px",
// "100%"), or the error says which is not.
func ChartSnippet(init opts.Initialization, option map[string]any) (element, script string, err error) {
	id := init.ChartID
	if !chartID.MatchString(id) {
		return "", "", fmt.Errorf("report: chart id %q: want a letter, then letters, digits or _", id)
	}
	for _, l := range []string{init.Width, init.Height} {
		if !cssLength.MatchString(l) {
			return "", "", fmt.Errorf("report: chart %s: size %q: want a CSS length such as 900px or 100%%", id, l)
		}
	}
	opt, err := scriptJSON(option)
	if err != nil {
		return "", "", fmt.Errorf("report: chart %s: %w", id, err)
	}
	initOpts, err := scriptJSON(map[string]string{"renderer": init.Renderer})
	if err != nil {
		return "", "", fmt.Errorf("report: chart %s: %w", id, err)
	}
	theme, err := scriptJSON(init.Theme)
	if err != nil {
		return "", "", fmt.Errorf("report: chart %s: %w", id, err)
	}
	element = fmt.Sprintf("<div class=\"container\">\n    <div class=\"item\" id=\"%s\" style=\"width:%s;height:%s;\"></div>\n</div>", id, init.Width, init.Height)
	// The same shape as go-echarts' script (goecharts_ID, option_ID), so
	// that pages which show the report's sections find what they expect.
	inst, o := "goecharts_"+id, "option_"+id
	script = "<script type=\"text/javascript\">\n    \"use strict\";\n" +
		"    let " + inst + " = echarts.init(document.getElementById('" + id + "'), " + theme + ", " + initOpts + ");\n" +
		"    let " + o + " = " + opt + ";\n" +
		"    " + o + ".tooltip.formatter = " + tooltipJS + ";\n" +
		"    " + o + ".series.forEach(function (s) { if (s.type === 'custom') { s.renderItem = " + whiskerJS + "; } });\n" +
		"    " + inst + ".setOption(" + o + ");\n</script>"
	return element, script, nil
}

// scriptJSON returns v as JSON that may stand inside a <script> element
// and never becomes code: encoding/json writes <, >, & and U+2028/2029 as
// \u escapes, so that no string ends the tag or the line, and each "__f__"
// — go-echarts' function marker — gets its first "_" as \u005f, so that
// no tool that looks for the marker finds it in data. (JSON holds "_" only
// inside strings, where \u005f reads back as "_". One pass can leave a
// marker where two overlapped, "__f__f__"; each pass removes a "_", so
// the loop ends.)
func scriptJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	for bytes.Contains(b, []byte("__f__")) {
		b = bytes.ReplaceAll(b, []byte("__f__"), []byte(`\u005f_f__`))
	}
	return string(b), nil
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// tooltipJS shows a point as its series' name, x, its median and, where
// the repetitions spread, their min and max (a point's value is [x,
// median, min, max]; a mark line's is its y alone). ECharts writes a
// formatter's result into the tooltip as HTML, so every name and value
// goes through echarts.format.encodeHTML: a series named "<img …>" shows
// as that text.
const tooltipJS = `function (p) {
      var e = echarts.format.encodeHTML, v = p.value;
      if (!Array.isArray(v)) { return e(String(p.seriesName)) + '<br>' + e(String(p.name)) + ': ' + e(String(v)); }
      var r = e(String(p.seriesName)) + '<br>x = ' + e(String(v[0])) + '<br>y = ' + e(String(v[1]));
      if (v[2] !== v[3]) { r += '<br>min ' + e(String(v[2])) + ', max ' + e(String(v[3])); }
      return r;
    }`

// whiskerJS draws one point's min–max bar with caps (renderItem of an
// ECharts custom series).
const whiskerJS = `function (params, api) {
      var x = api.value(0), lo = api.value(2), hi = api.value(3);
      if (lo === hi) { return; }
      var a = api.coord([x, lo]), b = api.coord([x, hi]), w = 4;
      var st = {stroke: api.visual('color'), lineWidth: 1};
      return {type: 'group', children: [
        {type: 'line', shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: st},
        {type: 'line', shape: {x1: a[0] - w, y1: a[1], x2: a[0] + w, y2: a[1]}, style: st},
        {type: 'line', shape: {x1: b[0] - w, y1: b[1], x2: b[0] + w, y2: b[1]}, style: st}
      ]};
    }`

// palette colours the series in order, a line and its whiskers alike.
var palette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc", "#2f4554", "#b8860b", "#008b8b"}

func symbol(published bool) string {
	if published {
		return "diamond"
	}
	return "circle"
}

const css = `body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}
th{background:#eee}td{white-space:nowrap}td:last-child{white-space:normal}td:first-child,th:first-child{text-align:left}caption{caption-side:top;text-align:left;font-weight:bold;padding:4px 0}
.container{margin:1em 0}div.table{overflow-x:auto}p.note{color:#555}`

func writeHTML(w *bytes.Buffer, d *doc) error {
	e := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>%s</style>\n", e(d.title), css)
	// ECharts inline: the report fetches nothing. A "</script" inside the
	// library would end the tag early; it holds none (checked in tests).
	w.WriteString("<script type=\"text/javascript\">\n/*\n" + strings.ReplaceAll(echartsNotice, "*/", "* /") + "\nApache License 2.0: https://www.apache.org/licenses/LICENSE-2.0\n*/\n")
	w.WriteString(echartsJS)
	w.WriteString("\n</script>\n</head>\n<body>\n")
	fmt.Fprintf(w, "<h1>%s</h1>\n<nav><ul>\n", e(d.title))
	for _, s := range d.sections {
		fmt.Fprintf(w, "<li><a href=\"#%s\">%s</a></li>\n", s.id, e(s.title))
	}
	w.WriteString("</ul></nav>\n")
	for _, s := range d.sections {
		fmt.Fprintf(w, "<section id=\"%s\">\n<h2>%s</h2>\n", s.id, e(s.title))
		for _, b := range s.blocks {
			switch b := b.(type) {
			case para:
				fmt.Fprintf(w, "<p>%s</p>\n", e(string(b)))
			case *table:
				writeHTMLTable(w, b)
			case *chart:
				if b.empty() {
					fmt.Fprintf(w, "<p class=\"note\">%s: no points to draw.</p>\n", e(b.title))
					continue
				}
				el, sc, err := b.render()
				if err != nil {
					return err
				}
				w.WriteString(el + "\n" + sc + "\n")
			default:
				return fmt.Errorf("report: block of type %T", b)
			}
		}
		w.WriteString("</section>\n")
	}
	w.WriteString("</body>\n</html>\n")
	return nil
}

func writeHTMLTable(w io.Writer, t *table) {
	e := html.EscapeString
	fmt.Fprintf(w, "<div class=\"table\"><table>\n<caption>%s</caption>\n<tr>", e(t.caption))
	for _, h := range t.head {
		fmt.Fprintf(w, "<th>%s</th>", e(h))
	}
	fmt.Fprint(w, "</tr>\n")
	for _, r := range t.rows {
		fmt.Fprint(w, "<tr>")
		for _, c := range r {
			fmt.Fprintf(w, "<td>%s</td>", e(c))
		}
		fmt.Fprint(w, "</tr>\n")
	}
	fmt.Fprint(w, "</table></div>\n")
}

func writeMarkdown(w *bytes.Buffer, d *doc) {
	m := mdText
	fmt.Fprintf(w, "# %s\n", m(d.title))
	for _, s := range d.sections {
		fmt.Fprintf(w, "\n## %s\n", m(s.title))
		for _, b := range s.blocks {
			switch b := b.(type) {
			case para:
				fmt.Fprintf(w, "\n%s\n", m(string(b)))
			case *table:
				writeMDTable(w, b)
			case *chart:
				if b.empty() {
					fmt.Fprintf(w, "\n%s: no points to draw.\n", m(b.title))
					continue
				}
				writeMDTable(w, b.asTable())
			}
		}
	}
}

func writeMDTable(w io.Writer, t *table) {
	m := mdText
	fmt.Fprintf(w, "\n**%s**\n\n|", m(t.caption))
	for _, h := range t.head {
		fmt.Fprintf(w, " %s |", m(h))
	}
	fmt.Fprint(w, "\n|")
	for range t.head {
		fmt.Fprint(w, " --- |")
	}
	fmt.Fprint(w, "\n")
	for _, r := range t.rows {
		fmt.Fprint(w, "|")
		for _, c := range r {
			fmt.Fprintf(w, " %s |", m(c))
		}
		fmt.Fprint(w, "\n")
	}
}

// mdText returns s as Markdown (CommonMark with GitHub's tables and
// strikethrough) that shows s as it is, on one line: the report's text is
// plain — a heading, a paragraph, a caption or a table cell, never
// Markdown of its own — and some of it comes from CSV and folder names.
// Line breaks become spaces (a row or paragraph stays one); \, `, *, ~,
// |, #, < and > are always escaped (no code, emphasis, strikethrough, cell
// break, heading end, HTML or autolink); _ where it is not between two
// letters or digits (there it cannot start or end emphasis); & before a
// letter, digit or # (an entity); ] before (, [ or : (so that no link,
// image or link definition forms: a [text] alone is text when nothing
// defines it); and a -, +, = or "1." or "1)" that starts s and would
// start a list or a rule ("- x", "---", "1. x"; not "-1" or "0.38").
func mdText(s string) string {
	rs := []rune(s)
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return 0
		}
		return rs[i]
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	lead := 0 // the first rune that is not a space
	for lead < len(rs) && rs[lead] == ' ' {
		lead++
	}
	digits := lead // the end of the digits s starts with
	for digits < len(rs) && rs[digits] >= '0' && rs[digits] <= '9' {
		digits++
	}
	var b strings.Builder
	for i, r := range rs {
		var esc bool
		switch r {
		case '\n', '\r':
			b.WriteByte(' ')
			continue
		case '\\', '`', '*', '~', '|', '#', '<', '>':
			esc = true
		case '_':
			esc = !word(at(i-1)) || !word(at(i+1))
		case '&':
			esc = word(at(i+1)) || at(i+1) == '#'
		case ']':
			esc = at(i+1) == '(' || at(i+1) == '[' || at(i+1) == ':'
		case '-', '+', '=':
			esc = i == lead && !word(at(i+1)) // "- x", "---"; not "-1"
		case '.', ')':
			esc = i == digits && digits > lead && (at(i+1) == ' ' || at(i+1) == '\t' || at(i+1) == 0) // "1. x"; not "0.38"
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
