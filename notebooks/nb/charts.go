package nb

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// A Plot is an x–y chart of named series, each drawn as a line through its
// points.
type Plot struct {
	Title, XName, YName string
	XLog, YLog          bool
	Series              []Series
}

// A Series is one line of a Plot: X[i] and Y[i] make a point.
type Series struct {
	Name string
	X, Y []float64
}

// chartOpts lay a notebook's chart out as the report lays out its own: as
// wide as the cell, labels inside the grid, the legend above the plot
// (report.ChartSnippet's script moves the grid below it as drawn), the
// value axes' numbers without e-notation. The title stays in the drawing:
// a cell has no caption.
func chartOpts(id, title string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: "420px"}),
		charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "32px", Left: "center"}),
		charts.WithGridOpts(opts.Grid{Top: "96px", Left: "16px", Right: "32px", Bottom: "32px", ContainLabel: opts.Bool(true)}),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Title: "save as PNG"},
		}}),
	}
}

// unitOf is the unit an axis named name is written in, as the report
// writes its own (report.ChartSnippet's script turns the name into the
// formatter): "seconds" (µs, ms, s) for a time, "bytes" (KiB, MiB, GiB),
// else "number" (thousands separated, never e-notation).
func unitOf(name string) string {
	switch {
	case strings.Contains(name, "second"), strings.Contains(name, "time (s)"):
		return "seconds"
	case strings.Contains(name, "bytes"):
		return "bytes"
	}
	return "number"
}

func axisType(log bool) string {
	if log {
		return "log"
	}
	return "value"
}

// Chart returns p as a go-echarts line chart with a new id. A point with a
// NaN or infinite coordinate is left out: the chart has no place for it
// (and its option, JSON, no way to write it).
func (p Plot) Chart() *charts.Line {
	l := charts.NewLine()
	l.SetGlobalOptions(append(chartOpts(ChartID("nbplot"), p.Title),
		charts.WithXAxisOpts(opts.XAxis{Type: axisType(p.XLog), Name: p.XName, NameLocation: "middle", NameGap: 30, Scale: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Formatter: types.FuncStr(unitOf(p.XName))}}),
		charts.WithYAxisOpts(opts.YAxis{Type: axisType(p.YLog), Name: p.YName, Scale: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Formatter: types.FuncStr(unitOf(p.YName))}}),
	)...)
	for _, s := range p.Series {
		data := make([]opts.LineData, 0, len(s.X))
		for i := range min(len(s.X), len(s.Y)) {
			if finite(s.X[i]) && finite(s.Y[i]) {
				data = append(data, opts.LineData{Value: []float64{s.X[i], s.Y[i]}})
			}
		}
		l.AddSeries(s.Name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true)}))
	}
	l.Validate()
	return l
}

// HTML returns p as ChartHTML writes it, for a page or an output area of
// one's own (Explore's, say): LoadECharts first.
func (p Plot) HTML() string {
	l := p.Chart()
	return ChartHTML(l.Initialization, l.JSON())
}

// ShowPlot displays p (LoadECharts first).
func ShowPlot(p Plot) { display(p.HTML()) }

// Bars is a bar chart, one bar per label, each drawn across from zero on
// a linear axis, so that a bar's length is its value (on a log axis bars
// would start at an arbitrary minimum, and the shortest time would get the
// longest bar). Give it a measure where longer is better, such as GCUPS,
// and say which in ValueName.
type Bars struct {
	Title, ValueName string
	Labels           []string
	Values           []float64
}

// Chart returns b as a go-echarts bar chart with a new id, the first label
// at the top, as tall as its bars need. A NaN or infinite value is drawn as
// no bar ("-", ECharts' missing value).
func (b Bars) Chart() *charts.Bar {
	c := charts.NewBar()
	height := fmt.Sprintf("%dpx", 110+28*len(b.Labels))
	c.SetGlobalOptions(append(chartOpts(ChartID("nbbars"), b.Title),
		charts.WithInitializationOpts(opts.Initialization{ChartID: ChartID("nbbars"), Width: "100%", Height: height}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: b.ValueName, NameLocation: "middle", NameGap: 30, Min: 0}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true), AxisLabel: &opts.AxisLabel{Interval: "0"}}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Top: "48px", Left: "16px", Right: "48px", Bottom: "48px", ContainLabel: opts.Bool(true)}), // no legend to hold
	)...)
	data := make([]opts.BarData, len(b.Values))
	for i, v := range b.Values {
		data[i] = opts.BarData{Value: v}
		if !finite(v) {
			data[i].Value = "-"
		}
	}
	c.SetXAxis(b.Labels).AddSeries(b.ValueName, data)
	c.XYReversal()
	c.Validate()
	return c
}

// ShowBars displays b (LoadECharts first).
func ShowBars(b Bars) {
	c := b.Chart()
	Show(c.Initialization, c.JSON())
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
