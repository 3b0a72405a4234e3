package document

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// The ECharts library (npm package echarts 5.6.0, dist/echarts.min.js),
// inlined in every HTML report; its LICENSE and NOTICE sit beside it in
// assets/ and the notice is repeated in the page.
//
//go:embed assets/echarts.min.js
var EChartsJS string

//go:embed assets/NOTICE
var EChartsNotice string

// ChartID is what a chart id may be: it is written into an HTML attribute
// and JavaScript names as it is.
var ChartID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`) })

// A chart in the page is as wide as the column and chartHeight high; an
// exported figure is figureWidth × figureHeight CSS pixels.
const (
	chartHeight               = "440px"
	figureWidth, figureHeight = 800, 480
)

// smallChart is the most lines a chart may have to be drawn half the page
// wide on paper: its legend then takes two or three rows there.
const smallChart = 6

// HTML returns f as the report draws its charts: a <figure> with f.Title
// as its caption and the chart's element, then the <script> that draws it
// with the global echarts (EChartsJS, which the page loads first). A chart
// of the report and the Figure Sections gives for it are the same bytes.
// The ID must be a plain name (a letter, then letters, digits or _), or
// the error says so.
func (f Figure) HTML() (string, error) {
	if !ChartID().MatchString(f.ID) {
		return "", fmt.Errorf("report: figure id %q: want a letter, then letters, digits or _", f.ID)
	}
	el, sc, err := f.Render()
	if err != nil {
		return "", err
	}
	return el + "\n" + sc, nil
}

// Render returns the chart's element — its title as a caption above the
// drawing, which holds none — and its script: go-echarts builds the
// option, chartSnippet writes them.
func (c *Figure) Render() (element, script string, err error) {
	if !ChartID().MatchString(c.ID) {
		panic(fmt.Sprintf("report: chart id %q is not a plain name", c.ID)) // ids are constants of this package
	}
	height := chartHeight
	if len(c.Labels) > 0 {
		height = fmt.Sprintf("%dpx", barsHeight(len(c.Labels)))
	}
	el, sc, err := ChartSnippet(c.Option("100%", height))
	if err != nil {
		return "", "", err
	}
	// A chart of a few lines is drawn half the page wide on paper, beside
	// the next or with the text flowing around it (the print style).
	class := "chart"
	if len(c.Series) <= smallChart {
		class += " small"
	}
	element = "<figure class=\"" + class + "\" style=\"margin:1em 0\">\n<figcaption style=\"font-weight:bold;padding:4px 0\">" +
		htmlText(c.Title) + "</figcaption>\n" + el + "\n"
	for _, n := range c.Notes {
		element += "<p class=\"note\">" + htmlText(n) + "</p>\n"
	}
	element += "</figure>"
	return element, sc, nil
}

// shown returns a copy of c whose every name — of the chart, its axes,
// series, bars and marks — is visible: ECharts draws them as text, where
// a bidirectional control would turn them around.
func (c *Figure) shown() *Figure {
	v := *c
	v.Title, v.XName, v.YName, v.MarkName = visible(c.Title), visible(c.XName), visible(c.YName), visible(c.MarkName)
	v.Labels = make([]string, len(c.Labels))
	for i, l := range c.Labels {
		v.Labels[i] = visible(l)
	}
	v.Series = slices.Clone(c.Series)
	for i := range v.Series {
		v.Series[i].Name, v.Series[i].Group = visible(v.Series[i].Name), visible(v.Series[i].Group)
	}
	v.Failed = slices.Clone(c.Failed)
	for i := range v.Failed {
		v.Failed[i].Name = visible(v.Failed[i].Name)
	}
	return &v
}

// markOpts is the first series' options that draw MarkY's line, named,
// from MarkFromX where it is given; none without a mark.
func (c *Figure) markOpts() []charts.SeriesOpts {
	if !(c.MarkY > 0 && finite(c.MarkY)) {
		return nil
	}
	var so []charts.SeriesOpts
	// The mark's name sits above the line's right end, inside
	// the grid: outside it the right margin would have to hold it.
	if c.MarkFromX > 0 && finite(c.MarkFromX) {
		// From markFrom to the last x drawn: where the bound
		// was stated, not across the whole axis.
		end := c.MarkFromX
		for _, s := range c.Series {
			for _, p := range s.Points {
				end = max(end, p.X)
			}
		}
		so = append(so, charts.WithMarkLineNameCoordItemOpts(opts.MarkLineNameCoordItem{Name: c.MarkName, Coordinate0: []any{c.MarkFromX, c.MarkY}, Coordinate1: []any{end, c.MarkY}}))
	} else {
		so = append(so, charts.WithMarkLineNameYAxisItemOpts(opts.MarkLineNameYAxisItem{Name: c.MarkName, YAxis: c.MarkY}))
	}
	// No symbol at either end (ECharts draws a circle and an arrow by
	// default), and dashed, so that the line reads as a reference, not as
	// a series with a point of its own. A short label ("1×") goes past
	// the line's end, in the grid's right margin, off the lines drawn
	// near it; a longer one above its end, inside the grid; none where a
	// note under the chart names the line (MarkInNote).
	label := markLabel(c.MarkName)
	pos := "insideEndTop"
	if utf8.RuneCountInString(label) <= 4 {
		pos = "end"
	}
	so = append(so, charts.WithMarkLineStyleOpts(opts.MarkLineStyle{Symbol: []string{"none", "none"},
		LineStyle: &opts.LineStyle{Type: "dashed", Color: "#777", Width: 1},
		Label:     &opts.Label{Show: opts.Bool(!c.MarkInNote), Formatter: label, Position: pos}}))
	return so
}

// failedOpts is the last series' options that draw a vertical line
// where each point failed; first says it is also the first series, whose
// 1× line then shares the style. None without failures.
func (c *Figure) failedOpts(first bool) []charts.SeriesOpts {
	if len(c.Failed) == 0 {
		return nil
	}
	var so []charts.SeriesOpts
	// The failures' lines hang on the last series, so that their
	// style is not the 1× line's, which the first one carries
	// (where they share one series, each line's label is its
	// name).
	for _, m := range c.Failed {
		if finite(m.X) {
			so = append(so, charts.WithMarkLineNameXAxisItemOpts(opts.MarkLineNameXAxisItem{Name: m.Name, XAxis: m.X}))
		}
	}
	label := "failed"
	if first && c.MarkY > 0 {
		label = "{b}"
	}
	so = append(so, charts.WithMarkLineStyleOpts(opts.MarkLineStyle{
		Symbol:    []string{"none", "none"},
		LineStyle: &opts.LineStyle{Color: "#c0392b", Type: "dashed"},
		Label:     &opts.Label{Show: opts.Bool(true), Formatter: label, Position: "end", Color: "#c0392b"}}))
	return so
}

// setAxes sets in o, the chart's options as JSON, what go-echarts'
// structs cannot: the log axes' bases and a linear axis' top above its
// mark.
func (c *Figure) setAxes(o map[string]any) {
	// A log axis of bytes ticks at powers of 2 its unit names (1 KiB,
	// 1 MiB); one of doubling counts at powers of two.
	if c.YLog && AxisUnit(c.YName) == "bytes" {
		// Ticked at powers of 32 (1 KiB, 32 KiB, 1 MiB …): the axis ends
		// at most 32 times above the data, where a power of 1024 would
		// run 4.66 GiB up to 1 TiB.
		setAxis(o, "yAxis", "logBase", 32)
	}
	if c.XLog && AxisUnit(c.XName) == "bytes" {
		setAxis(o, "xAxis", "logBase", 1024)
	}
	if c.XLog && c.XBase2 {
		setAxis(o, "xAxis", "logBase", 2)
	}
	// A log x axis is labelled at the lengths measured, as many as fit:
	// its powers alone may be one or two, and an end label crowds the
	// power beside it.
	if c.XLog {
		if ticks := logTicks(c.xs()); len(ticks) > 0 {
			setAxisPart(o, "xAxis", "axisLabel", "customValues", ticks)
			setAxisPart(o, "xAxis", "axisTick", "customValues", ticks)
		}
	}
	// A linear axis ends a step above its mark where the mark would
	// otherwise lie on the frame, its label over the axis' name.
	if !c.YLog && c.MarkY > 0 && finite(c.MarkY) {
		top := c.MarkY
		for _, s := range c.Series {
			for _, p := range s.Points {
				if finite(p.Hi) {
					top = max(top, p.Hi, p.Y)
				}
			}
		}
		if top <= c.MarkY*1.1 {
			setAxis(o, "yAxis", "max", niceAbove(c.MarkY*1.2))
		}
	}
}

// Option returns the chart's initialisation, at the given CSS width and
// height, and its ECharts option: no title (the page and the figure's
// file name say it), the legend above the plot with every entry visible,
// labels inside the grid (containLabel), the y axis's name above the axis
// (the script runs it right, so that no edge cuts it), the axes' numbers
// formatted by their unit (axisUnit; chartSnippet's script turns the
// unit's name into the formatter), and a save-as-PNG button that the
// script hides in print.
func (c *Figure) Option(width, height string) (opts.Initialization, map[string]any) {
	c = c.shown()
	if len(c.Labels) > 0 {
		return c.barOption(width, height)
	}
	l := charts.NewLine()
	// About six legend entries fit on a row; the grid starts below the
	// last. The script measures the drawn legend and moves the grid to it;
	// this is where it starts.
	legendRows := (len(c.Series) + 5) / 6
	xType, yType := "value", "value"
	if c.XLog {
		xType = "log"
	}
	if c.YLog {
		yType = "log"
	}
	l.SetGlobalOptions(append(c.commonOpts(width, height),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "8px", Left: "center"}),
		charts.WithGridOpts(opts.Grid{Top: fmt.Sprintf("%dpx", legendTop+24*legendRows+nameRoom), Left: "16px", Right: "32px", Bottom: "32px", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(c.xAxis(xType)),
		charts.WithYAxisOpts(opts.YAxis{Type: yType, Name: logNamed(c.YName, c.YLog), NameLocation: "end", NameGap: 12, Scale: opts.Bool(c.YLog), // a linear axis starts at 0: no truncation unsaid
			AxisLabel: &opts.AxisLabel{Formatter: types.FuncStr(AxisUnit(c.YName))}}),
	)...)
	colours := map[string]int{} // a group's colour, in the order first drawn
	// One measurement on several machines (every series of one group)
	// would be one colour throughout: there each machine takes its own.
	groups, machines := map[string]bool{}, map[int]bool{}
	for _, s := range c.Series {
		if s.Group != "" {
			groups[s.Group], machines[max(s.Machine, 0)] = true, true
		}
	}
	byMachine := len(groups) == 1 && len(machines) > 1
	for i, s := range c.Series {
		g := s.Group
		switch {
		case byMachine && g != "":
			g = fmt.Sprintf("machine %d", max(s.Machine, 0))
		case g == "":
			g = s.Name
		}
		if _, ok := colours[g]; !ok {
			colours[g] = len(colours)
		}
		col := palette[colours[g]%len(palette)]
		if !byMachine && s.Group != "" {
			// One measurement keeps its hue on every machine; each
			// machine after the first a darker or lighter shade of it,
			// besides its own line and symbol.
			col = Shade(col, max(s.Machine, 0))
		}
		st := machineStyles[max(s.Machine, 0)%len(machineStyles)]
		data := make([]opts.LineData, 0, len(s.Points))
		spread := false
		for _, p := range s.Points {
			if !finite(p.X, p.Y, p.Lo, p.Hi) {
				continue // JSON has no NaN or infinity; the tables show "—"
			}
			data = append(data, opts.LineData{Value: []float64{p.X, p.Y, p.Lo, p.Hi}})
			spread = spread || p.Lo != p.Hi
		}
		if s.Published {
			st = publishedStyle
		}
		ls := opts.LineStyle{Color: col, Type: st.line}
		so := []charts.SeriesOpts{
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: st.symbol}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: col}),
			charts.WithLineStyleOpts(ls),
		}
		if i == 0 {
			so = append(so, c.markOpts()...)
		}
		if i == len(c.Series)-1 {
			so = append(so, c.failedOpts(i == 0)...)
		}
		l.AddSeries(s.Name, data, so...)
		if spread {
			// The min–max whiskers: a custom series of the same name (the
			// legend toggles both) drawing a capped bar per point; its y
			// takes min and max so that the axis holds them. The script
			// gives it its renderItem.
			l.MultiSeries = append(l.MultiSeries, charts.SingleSeries{
				Name: s.Name, Type: "custom", Data: data,
				ItemStyle: &opts.ItemStyle{Color: col}, Encode: &opts.Encode{X: 0, Y: []int{1, 2, 3}},
			})
		}
	}
	l.Validate()
	o := l.JSON()
	c.setAxes(o)
	return l.Initialization, o
}

// niceAbove is the least of 1, 2, 3, 4, 6 and 8 times a power of ten that
// is at least x (> 0): an end that even ticks reach.
func niceAbove(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 3, 4, 6, 8, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// commonOpts are what every chart of the report has: its id and size, no
// animation, a save-as-PNG button (the script hides it in print) and a
// tooltip per point.
func (c *Figure) commonOpts(width, height string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: c.ID, Width: width, Height: height}),
		charts.WithAnimation(false),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Name: c.ID, Title: "save as PNG"},
		}}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
	}
}

// barsHeight is the height of a bar chart of n bars, in CSS pixels: room
// for the axes and 28 px a bar.
func barsHeight(n int) int { return 110 + 28*n }

// barOption is option for a bar chart (labels): a bar per label, the first
// at the top, each across from zero on a linear axis, so that a bar's
// length is its value (on a log axis bars would start at an arbitrary
// minimum, and the shortest time would get the longest bar); no legend, a
// value that is not finite no bar ("-", ECharts' missing value).
func (c *Figure) barOption(width, height string) (opts.Initialization, map[string]any) {
	b := charts.NewBar()
	b.SetGlobalOptions(append(c.commonOpts(width, height),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Top: "24px", Left: "16px", Right: "48px", Bottom: "48px", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: c.YName, NameLocation: "middle", NameGap: 30, Min: 0,
			AxisLabel: &opts.AxisLabel{Formatter: types.FuncStr(AxisUnit(c.YName))}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true), AxisLabel: &opts.AxisLabel{Interval: "0"}}),
	)...)
	data := make([]opts.BarData, len(c.Labels))
	for i := range c.Labels {
		data[i] = opts.BarData{Value: "-"}
		if len(c.Series) > 0 && i < len(c.Series[0].Points) && finite(c.Series[0].Points[i].Y) {
			data[i].Value = c.Series[0].Points[i].Y
		}
	}
	name := c.YName
	if len(c.Series) > 0 {
		name = c.Series[0].Name
	}
	b.SetXAxis(c.Labels).AddSeries(name, data, charts.WithItemStyleOpts(opts.ItemStyle{Color: palette[0]}))
	b.XYReversal()
	b.Validate()
	return b.Initialization, b.JSON()
}

// xs returns the distinct x values of c's points, ascending.
func (c *Figure) xs() []float64 {
	var xs []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			if finite(p.X) && p.X > 0 && !slices.Contains(xs, p.X) {
				xs = append(xs, p.X)
			}
		}
	}
	slices.Sort(xs)
	return xs
}

// minTickGap is the least distance between two labels of a log axis, as a
// share of its width: a label's width and a space on a half-page chart.
const minTickGap = 0.2

// logTicks picks from xs, ascending, the values to label on a log axis
// from the first to the last: both ends, then the powers of ten, then
// the rest in order, each where it lies at least minTickGap of the axis
// from every value picked before; returned ascending. Nil for fewer
// than two values.
func logTicks(xs []float64) []float64 {
	if len(xs) < 2 {
		return nil
	}
	lo, hi := math.Log(xs[0]), math.Log(xs[len(xs)-1])
	span := hi - lo
	if span <= 0 {
		return nil
	}
	round := func(x float64) bool { l := math.Log10(x); return l == math.Trunc(l) }
	var order []float64
	order = append(order, xs[0], xs[len(xs)-1])
	for _, x := range xs[1 : len(xs)-1] {
		if round(x) {
			order = append(order, x)
		}
	}
	for _, x := range xs[1 : len(xs)-1] {
		if !round(x) {
			order = append(order, x)
		}
	}
	var ticks []float64
	for _, x := range order {
		near := slices.ContainsFunc(ticks, func(t float64) bool { return math.Abs(math.Log(x)-math.Log(t))/span < minTickGap })
		if len(ticks) < 2 || !near {
			ticks = append(ticks, x)
		}
	}
	slices.Sort(ticks)
	return ticks
}

// setAxisPart sets field of the part (axisLabel, axisTick) of each axis of
// the option's axes, keeping what the part holds already.
func setAxisPart(o map[string]any, axes, part, field string, v any) {
	eachAxis(o, axes, func(a map[string]any) {
		p, _ := a[part].(map[string]any)
		if p == nil {
			p = map[string]any{}
		}
		p[field] = v
		a[part] = p
	})
}

// setAxis sets a field of each axis of the option's axes ("xAxis",
// "yAxis"), which go-echarts' structs lack.
func setAxis(o map[string]any, axes, field string, v any) {
	eachAxis(o, axes, func(a map[string]any) { a[field] = v })
}

// eachAxis calls set on each of the option's axes as a map, go-echarts'
// structs turned into JSON's, and keeps the maps in their place.
func eachAxis(o map[string]any, axes string, set func(map[string]any)) {
	b, err := json.Marshal(o[axes])
	if err != nil {
		return
	}
	var list []map[string]any
	if json.Unmarshal(b, &list) != nil {
		return
	}
	for _, a := range list {
		set(a)
	}
	o[axes] = list
}

// xAxis is the chart's x axis, of type typ.
func (c *Figure) xAxis(typ string) opts.XAxis {
	x := opts.XAxis{Type: typ, Name: logNamed(c.XName, c.XLog), NameLocation: "middle", NameGap: 30, Scale: opts.Bool(true),
		AxisLabel: &opts.AxisLabel{Formatter: types.FuncStr(AxisUnit(c.XName))}}
	if c.XFit || c.XLog {
		// A log axis would otherwise run on to the next power past the
		// data: a decade of nothing.
		x.Min, x.Max = "dataMin", "dataMax"
	}
	if c.XLog {
		// Its ticks are the powers between: the data's ends labelled too,
		// so that an axis of 1,000 to 16,000 does not read as two ticks.
		x.AxisLabel.ShowMinLabel, x.AxisLabel.ShowMaxLabel = opts.Bool(true), opts.Bool(true)
	}
	if c.XWhole {
		x.MinInterval = 1
	}
	return x
}

// logNamed is an axis's name as drawn: a log axis says so.
func logNamed(name string, log bool) string {
	if log && name != "" {
		return name + ", log scale"
	}
	return name
}

// markLabel is what a mark's line shows of its name: the value alone where
// the name starts with it ("1×: as fast as on one worker" shows "1×"), so
// that the label does not lie across the lines drawn near it; the whole
// name is the line's tooltip.
func markLabel(name string) string {
	v, _, ok := strings.Cut(name, ": ")
	if !ok || v == "" || strings.TrimLeft(v, "0123456789.,×") != "" {
		return name
	}
	return v
}

// TimeAxis names a time axis: its ticks say µs, ms or s each, so the name
// states no unit of its own that a tick could contradict.
const TimeAxis = "time"

// legendTop is where the legend starts, and nameRoom the room between its
// last row and the grid for the y axis's name (px); the script's fit
// keeps the same room.
const legendTop, nameRoom = 8, 36

// AxisUnit is the unit an axis's numbers are written in, by the axis's
// name: "seconds" (µs, ms or s, three significant digits) for a time in
// seconds, "bytes" (B, KiB, MiB, GiB) for bytes, and "number" (thousands
// separated, never e-notation) for anything else. chartSnippet's script
// knows these names (unitsJS).
func AxisUnit(name string) string {
	switch {
	case name == TimeAxis || strings.Contains(name, "time (s)"):
		return "seconds"
	case strings.Contains(name, "bytes"):
		return "bytes"
	}
	return "number"
}

// cssLength is what a chart's width or height may be: it is written into
// a style attribute as it is.
var cssLength = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(px|%|em|rem|vw|vh)?$`) })

// ChartSnippet returns a go-echarts chart as the report writes its own:
// its element, and a <script> that draws it there with the global echarts
// (EChartsJS, which the page loads first). Pass the chart's Initialization
// and, after its Validate, its option:
//
//	element, script, err := chartSnippet(line.Initialization, line.JSON())
//
// Use it rather than go-echarts' RenderSnippet, which writes every string
// into the <script> unescaped (a series named "</script>…" ends the tag)
// and turns any string between "__f__" markers, data too, into code. Here
// the option is JSON as encoding/json writes it — <, >, & and U+2028/2029
// as \u escapes, so no string can end the tag or the line — with every
// "__f__" escaped as well (scriptJSON), so that a function option of
// go-echarts (opts.FuncOpts) stays a string. The script sets the only
// functions itself (chartJS) and one layout rule, a left-side y axis's
// name that starts at the axis and runs right: the axis label formatter of each value or
// log axis, chosen by the unit name its axisLabel.formatter holds —
// "seconds", "bytes" or "number", the last where it holds none (a string
// of another kind stays ECharts' template) — a tooltip formatter that
// shows names and values as text, the same units, and the renderItem of
// each custom series, the report's min–max whiskers. It then moves the
// grid below the legend as drawn, and follows the page: on a resize of
// the window, and on printing (where it hides the toolbox), the chart
// takes its container's new size. The script declares goecharts_<id> and
// option_<id> with let, as go-echarts' does. The id must be a plain name
// (a letter, then letters, digits or _) and the width and height CSS
// lengths ("900px", "100%"), or the error says which is not.
func ChartSnippet(init opts.Initialization, option map[string]any) (element, script string, err error) {
	id := init.ChartID
	if !ChartID().MatchString(id) {
		return "", "", fmt.Errorf("report: chart id %q: want a letter, then letters, digits or _", id)
	}
	for _, l := range []string{init.Width, init.Height} {
		if !cssLength().MatchString(l) {
			return "", "", fmt.Errorf("report: chart %s: size %q: want a CSS length such as 900px or 100%%", id, l)
		}
	}
	opt, err := ScriptJSON(option)
	if err != nil {
		return "", "", fmt.Errorf("report: chart %s: %w", id, err)
	}
	initOpts, err := ScriptJSON(map[string]string{"renderer": init.Renderer})
	if err != nil {
		return "", "", fmt.Errorf("report: chart %s: %w", id, err)
	}
	theme, err := ScriptJSON(init.Theme)
	if err != nil {
		return "", "", fmt.Errorf("report: chart %s: %w", id, err)
	}
	// The container's own width and padding are set here: a page with
	// Bootstrap's .container (a live Jupyter notebook) would give it a
	// fixed width wider than the output it sits in.
	element = fmt.Sprintf("<div class=\"container\" style=\"width:auto;padding:0\">\n    <div class=\"item\" id=\"%s\" style=\"width:%s;height:%s;\"></div>\n</div>", id, init.Width, init.Height)
	// The same shape as go-echarts' script (goecharts_ID, option_ID), so
	// that pages which show the report's sections find what they expect.
	inst, o := "goecharts_"+id, "option_"+id
	script = "<script type=\"text/javascript\">\n    \"use strict\";\n" +
		"    let " + inst + " = echarts.init(document.getElementById('" + id + "'), " + theme + ", " + initOpts + ");\n" +
		"    let " + o + " = " + opt + ";\n" +
		"    (function (levlab) {\n" +
		"      levlab.prepare(" + o + ");\n" +
		"      " + inst + ".setOption(" + o + ");\n" +
		"      levlab.follow(" + inst + ", document.getElementById('" + id + "'), !!" + o + ".toolbox);\n" +
		"    })(" + ChartJS + ");\n</script>"
	return element, script, nil
}

// ScriptJSON returns v as JSON that may stand inside a <script> element
// and never becomes code: encoding/json writes <, >, & and U+2028/2029 as
// \u escapes, so that no string ends the tag or the line, and each "__f__"
// — go-echarts' function marker — gets its first "_" as \u005f, so that
// no tool that looks for the marker finds it in data. (JSON holds "_" only
// inside strings, where \u005f reads back as "_". One pass can leave a
// marker where two overlapped, "__f__f__"; each pass removes a "_", so
// the loop ends.)
func ScriptJSON(v any) (string, error) {
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

//go:embed chart.js
var chartJSFile string

// ChartJS is an expression whose value holds what a chart's script needs:
// prepare(option) gives an option its functions (formatters by unit,
// tooltip, whiskers), fit(chart) moves the grid's top below the legend as
// drawn (plus the room for the y axis's name, nameRoom), and
// follow(chart, element, hasToolbox) fits the chart now and again on every
// resize of the window or of its element, and on print. The figures' page
// uses the same prepare and fit.
//
// The tooltip's formatter writes its result into the tooltip as HTML, so
// every name and value goes through echarts.format.encodeHTML: a series
// named "<img …>" shows as that text. A point's value is [x, median, min,
// max]; a mark line's is its y alone. The units use Intl's en-US numbers
// as num does (format.go): a whole number under 10¹⁵ with every digit,
// another to three significant digits, and past 10⁻⁴ and 10⁶ three
// significant digits times a power of ten (sci), so that no label or
// tooltip is a number of hundreds of digits.
//
// It is chart.js without the file's last newline.
var ChartJS = strings.TrimSuffix(chartJSFile, "\n")

// Shade returns colour hex ("#5470c6") for machine m: itself for the
// first, then darker, a little darker, darker still, so that one hue
// holds one measurement and the machines are told apart by its shade too
// (and by their lines and symbols). Never lighter: a pale line is lost
// on paper.
func Shade(hex string, m int) string {
	if len(hex) != 7 || hex[0] != '#' {
		return hex
	}
	f := []float64{1, 0.6, 0.8, 0.4}[m%4]
	var rgb [3]int64
	for i := range rgb {
		v, err := strconv.ParseInt(hex[1+2*i:3+2*i], 16, 64)
		if err != nil {
			return hex
		}
		x := float64(v) * f
		rgb[i] = int64(min(255, max(0, math.Round(x))))
	}
	return fmt.Sprintf("#%02x%02x%02x", rgb[0], rgb[1], rgb[2])
}

// palette colours the series in order, a line and its whiskers alike:
// twelve hues, each at least 3:1 against white paper (WCAG's contrast for
// graphics), so that none fades in print.
var palette = []string{"#5470c6", "#4e8a2e", "#b58900", "#d9534f", "#2b8cbe", "#3ba272", "#e8590c", "#9a60b4", "#c2185b", "#2f4554", "#8c564b", "#008b8b"}

// A style is how a series' line and points are drawn: the report's
// numbers dashed with diamonds; ours solid with circles, and with several
// machines each machine in its own line and symbol, its series coloured by
// what they measure (FigureSeries.Group), so that one algorithm is one colour.
type style struct{ line, symbol string }

var (
	publishedStyle = style{"dashed", "diamond"}
	machineStyles  = []style{{"solid", "circle"}, {"dotted", "triangle"}, {"solid", "rect"}, {"dotted", "roundRect"}}
)
