package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"

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
