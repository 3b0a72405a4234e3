package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/levlab/levlab/internal/chromium"
)

// needBrowser skips the test when no Chromium is installed, unless
// LEVLAB_REQUIRE_BROWSER=1, where that is a failure.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := chromium.Available(); err != nil {
		if os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
			t.Fatalf("%v; LEVLAB_REQUIRE_BROWSER=1 forbids skipping (make deps installs it as root)", err)
		}
		t.Skipf("%v; skipping (set LEVLAB_REQUIRE_BROWSER=1 to make this a failure)", err)
	}
}

// smallDoc is a report of one section: a paragraph, a table, and a chart
// of times on log axes with n series (whiskers where the repetitions
// spread, one published line) named by name(i).
func smallDoc(n int, name func(int) string) *document.Doc {
	c := &document.Figure{ID: "smalltime", Title: "Time vs length", XName: "string length (characters)", YName: "time (s)", XLog: true, YLog: true}
	for i := range n {
		k := float64(i + 1)
		c.Series = append(c.Series, document.FigureSeries{Name: name(i), Published: i == 1, Points: []document.FigurePoint{
			{X: 1000, Y: 1.2e-5 * k, Lo: 1e-5 * k, Hi: 1.5e-5 * k},
			{X: 10000, Y: 1.1e-3 * k, Lo: 1.1e-3 * k, Hi: 1.1e-3 * k},
			{X: 100000, Y: 0.12 * k, Lo: 0.1 * k, Hi: 0.13 * k},
		}})
	}
	s := document.Section{ID: "small", Title: "A small report"}
	s.P("Times of %d algorithms.", n)
	s.Add(&document.Table{Caption: "Times", Head: []string{"length", "seconds"}, Rows: [][]string{{"1000", "0.000012"}, {"10000", "0.0011"}}}, c)
	return &document.Doc{Title: "small", Sections: []document.Section{s}}
}

// docFile writes d as HTML into a temporary folder and returns its path.
func docFile(t *testing.T, d *document.Doc) string {
	t.Helper()
	var buf bytes.Buffer
	if err := document.WriteHTML(&buf, d); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func plainNames(i int) string { return fmt.Sprintf("algorithm-%d", i) }

func timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestAxisUnit(t *testing.T) {
	for name, want := range map[string]string{
		"time (s)": "seconds", "median time (s)": "seconds", document.TimeAxis: "seconds", "bytes allocated": "bytes",
		"speedup (×)": "number", "string length (characters)": "number", "": "number",
	} {
		if got := document.AxisUnit(name); got != want {
			t.Errorf("axisUnit(%q) = %q; want %q", name, got, want)
		}
	}
}

// TestUnits runs chartJS's formatters in Chromium: units chosen per
// value, three significant digits, thousands separated, no e-notation.
func TestUnits(t *testing.T) {
	needBrowser(t)
	page := filepath.Join(t.TempDir(), "units.html")
	if err := os.WriteFile(page, []byte("<!DOCTYPE html>\n<html><body><script>\nconst levlab = "+document.ChartJS+";\n</script></body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		unit string
		v    float64
		want string
	}{
		{"seconds", 1.5e-5, "15 µs"}, {"seconds", 0.00123456, "1.23 ms"}, {"seconds", 2.5, "2.5 s"},
		{"seconds", 1234, "1,230 s"}, {"seconds", 4e-9, "4 ns"}, {"seconds", 0, "0"},
		{"bytes", 512, "512 B"}, {"bytes", 1536, "1.5 KiB"}, {"bytes", 3 << 30, "3 GiB"}, {"bytes", 5 << 20, "5 MiB"},
		{"number", 1e-5, "1.00×10⁻⁵"} /* as num writes it: under plainMin, a power of ten */, {"number", 1234567, "1,234,567"}, {"number", 0.25, "0.25"}, {"number", 3.14159, "3.14"},
	}
	var expr strings.Builder
	expr.WriteString("[")
	for _, c := range cases {
		fmt.Fprintf(&expr, "levlab.units[%q](%g),", c.unit, c.v)
	}
	expr.WriteString("levlab.units.number('x')]")
	_, raw, err := chromium.Inspect(timeout(t), page, expr.String())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != len(cases)+1 {
		t.Fatalf("%s: %v", raw, err)
	}
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("%s(%g) = %q; want %q", c.unit, c.v, got[i], c.want)
		}
	}
	if got[len(cases)] != "x" {
		t.Errorf("number('x') = %q; want it as it is", got[len(cases)])
	}
}

// TestChartLayout opens a report whose chart has many long legend
// entries: the chart is as wide as its container, its grid starts below
// the legend's last row and the legend fits the chart's width; after the
// column narrows (and the window says so), all of that again; before
// printing the toolbox hides, and after it comes back.
func TestChartLayout(t *testing.T) {
	needBrowser(t)
	d := smallDoc(14, func(i int) string { return fmt.Sprintf("a rather long series name number %d", i) })
	path := docFile(t, d)
	const probe = `(() => {
  const el = document.getElementById('smalltime'), c = echarts.getInstanceByDom(el);
  const look = () => {
    const lg = c.getModel().getComponent('legend'), g = c.getViewOfComponentModel(lg).group, r = g.getBoundingRect();
    return {container: el.parentElement.clientWidth, chart: c.getWidth(), legendBottom: g.y + r.y + r.height,
      legendRight: g.x + r.x + r.width, gridTop: c.getOption().grid[0].top, toolbox: c.getOption().toolbox[0].show};
  };
  const wide = look();
  document.body.style.maxWidth = '520px';
  window.dispatchEvent(new Event('resize'));
  const narrow = look();
  window.dispatchEvent(new Event('beforeprint'));
  const printing = look();
  window.dispatchEvent(new Event('afterprint'));
  return [wide, narrow, printing, look()];
})()`
	_, raw, err := chromium.Inspect(timeout(t), path, probe)
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Container, Chart                   int
		LegendBottom, LegendRight, GridTop float64
		Toolbox                            bool
	}
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != 4 {
		t.Fatalf("%s: %v", raw, err)
	}
	t.Logf("%+v", got)
	for i, g := range got {
		if g.Chart != g.Container || g.Chart == 0 {
			t.Errorf("%d: chart %d px wide in a container of %d", i, g.Chart, g.Container)
		}
		if g.GridTop < g.LegendBottom+20 || g.LegendRight > float64(g.Chart) {
			t.Errorf("%d: legend to y=%g, x=%g; grid from y=%g in a chart %d wide", i, g.LegendBottom, g.LegendRight, g.GridTop, g.Chart)
		}
	}
	if got[1].Chart > 520 || got[1].LegendBottom <= got[0].LegendBottom {
		t.Errorf("narrowed: chart %d px wide, legend to y=%g (was %g); want at most 520, and more rows", got[1].Chart, got[1].LegendBottom, got[0].LegendBottom)
	}
	if !got[0].Toolbox || got[2].Toolbox || !got[3].Toolbox {
		t.Errorf("toolbox shown %v, %v while printing, %v after; want true, false, true", got[0].Toolbox, got[2].Toolbox, got[3].Toolbox)
	}
}

// TestMachinesStyled: with two machines, a chart draws one measurement in
// one colour on both, each machine in its own line and symbol, and the
// report's numbers dashed.
func TestMachinesStyled(t *testing.T) {
	d, err := load(Options{Results: "../results", Machines: []string{"amd-epyc-2c", "intel-xeon-2.80ghz-2c"}, Scale: "paper"})
	if err != nil {
		t.Fatal(err)
	}
	doc := build(d, nil)
	type drawn struct{ colour, line, symbol string }
	got := map[string]drawn{}
	for _, s := range doc.Sections {
		for _, b := range s.Blocks {
			c, ok := b.(*document.Figure)
			if !ok || !slices.Contains([]string{"beyondgcups_m1", "r004time", "r000fig3"}, c.ID) {
				continue
			}
			_, option := c.Option("100%", "400px")
			js, err := json.Marshal(option["series"])
			if err != nil {
				t.Fatal(err)
			}
			var series []struct {
				Name      string `json:"name"`
				Type      string `json:"type"`
				Symbol    string `json:"symbol"`
				ItemStyle struct {
					Color string `json:"color"`
				} `json:"itemStyle"`
				LineStyle struct {
					Type string `json:"type"`
				} `json:"lineStyle"`
			}
			if err := json.Unmarshal(js, &series); err != nil {
				t.Fatal(err)
			}
			for _, sr := range series {
				if sr.Type == "line" {
					// A line of earlier code is named with a †.
					got[c.ID+"/"+strings.TrimSuffix(sr.Name, " †")] = drawn{sr.ItemStyle.Color, sr.LineStyle.Type, sr.Symbol}
				}
			}
		}
	}
	amd, intel := got["r004time/AMD EPYC: Myers (bit-parallel)"], got["r004time/Intel Xeon @ 2.80GHz: Myers (bit-parallel)"]
	if amd.colour == "" || document.Shade(amd.colour, 1) != intel.colour || amd.line == intel.line || amd.symbol == intel.symbol {
		t.Errorf("Myers on two machines drawn %+v and %+v; want one hue in two shades, two lines and symbols", amd, intel)
	}
	if other := got["r004time/AMD EPYC: two rows"]; other.colour == amd.colour {
		t.Errorf("two rows and Myers share the colour %s", amd.colour)
	}
	// A chart of more lines is split by machine, each machine's lines
	// named without it: the title names it.
	if mine := got["beyondgcups_m1/myers"]; mine.colour == "" {
		t.Errorf("the bit-parallel chart is not split by machine, its lines named without it: %v", slices.Collect(maps.Keys(got)))
	}
	if pub := got["r000fig3/report, 8 threads"]; pub.line != "dashed" || pub.symbol != "diamond" {
		t.Errorf("the report's series drawn %+v; want dashed with diamonds", pub)
	}
}

// TestBarsFromZero: a bar figure's bars lie across, from zero on a linear
// axis (a log axis gave the shortest time the longest bar), the first
// label at the top.
func TestBarsFromZero(t *testing.T) {
	c := &document.Figure{ID: "bars", YName: "GCUPS", Labels: []string{"fast", "slow"},
		Series: []document.FigureSeries{{Name: "GCUPS", Points: []document.FigurePoint{{Y: 60}, {Y: 0.5}}}}}
	_, opt := c.Option("100%", "200px")
	js, err := json.Marshal(opt)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		XAxis []struct {
			Type string   `json:"type"`
			Min  *float64 `json:"min"`
			Name string   `json:"name"`
		} `json:"xAxis"`
		YAxis []struct {
			Type    string   `json:"type"`
			Inverse bool     `json:"inverse"`
			Data    []string `json:"data"`
		} `json:"yAxis"`
	}
	if err := json.Unmarshal(js, &o); err != nil {
		t.Fatal(err)
	}
	if len(o.XAxis) != 1 || o.XAxis[0].Type != "value" || o.XAxis[0].Min == nil || *o.XAxis[0].Min != 0 || o.XAxis[0].Name != "GCUPS" {
		t.Errorf("value axis %+v; want a linear one from 0 named GCUPS", o.XAxis)
	}
	if len(o.YAxis) != 1 || o.YAxis[0].Type != "category" || !o.YAxis[0].Inverse || strings.Join(o.YAxis[0].Data, ",") != "fast,slow" {
		t.Errorf("label axis %+v; want the labels in order from the top", o.YAxis)
	}
}

// TestChartsFewLines: no chart of the committed report draws more lines
// than a reader tells apart (about eight; splitCharts splits one drawn on
// several machines by machine), and a split chart names its machine.
func TestChartsFewLines(t *testing.T) {
	_, d, _ := committedDoc(t)
	for _, c := range blocksOf[*document.Figure](d) {
		if len(c.Series) > maxSeries {
			t.Errorf("%s (%s): %d lines, want at most %d", c.ID, c.Title, len(c.Series), maxSeries)
		}
		if regexp.MustCompile(`_m[0-9]+$`).MatchString(c.ID) && !strings.Contains(c.Title, " on ") {
			t.Errorf("%s: split by machine, its title names none: %s", c.ID, c.Title)
		}
	}
}

// TestDecadesLabelled: on paper, a log axis of few decades labels every
// one of them, and one of many decades in a short plot labels every
// second or third, the top one always.
func TestDecadesLabelled(t *testing.T) {
	needBrowser(t)
	for _, c := range []struct {
		name   string
		points int // series of smallDoc: its y spans 5 decades from 1e-5 to 1
		every  int
	}{{"few decades", 1, 1}, {"many decades, a short plot", 14, 2}} {
		d := smallDoc(c.points, plainNames)
		if c.points == 1 {
			// Two decades: 1 ms to 100 ms.
			d.Sections[0].Blocks[2].(*document.Figure).Series[0].Points = []document.FigurePoint{{X: 1000, Y: 1e-3}, {X: 10000, Y: 1e-2}, {X: 100000, Y: 0.1}}
		}
		path := docFile(t, d)
		// A half-width chart on paper: a short plot.
		const probe = `new Promise((done) => {
  const el = document.getElementById('smalltime'), c = echarts.getInstanceByDom(el);
  window.dispatchEvent(new Event('beforeprint'));
  el.style.setProperty('height', '230px', 'important');
  window.dispatchEvent(new Event('resize'));
  setTimeout(() => {
    const f = c.getOption().yAxis[0].axisLabel.formatter;
    const out = [];
    for (let e = -6; e <= 1; e++) { out.push(f(Math.pow(10, e), 0) !== ''); }
    done({every: f.every || 1, top: f.top === undefined ? 99 : f.top, labelled: out});
  }, 500);
})`
		_, raw, err := chromium.Inspect(timeout(t), path, probe)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Every, Top int
			Labelled   []bool
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if c.every == 1 && got.Every != 1 {
			t.Errorf("%s: every %d decade(s) labelled; want every one", c.name, got.Every)
		}
		if c.every > 1 && (got.Every < 2 || !got.Labelled[got.Top+6]) {
			t.Errorf("%s: every %d decade(s) labelled, the top (10^%d) %v; want every second or third, the top labelled (%s)", c.name, got.Every, got.Top, got.Top+6 >= 0 && got.Top+6 < len(got.Labelled) && got.Labelled[got.Top+6], raw)
		}
	}
}
