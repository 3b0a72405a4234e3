package nb

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/chromium"
	"github.com/levlab/levlab/report"
)

// Hostile names, as a results folder from elsewhere may hold them (the
// algorithm or case of a record becomes a series name). Each one that runs
// sets window.__pwned. The quoted forms reach the page with their quotes
// as \" (JSON's escape, which the HTML parser does not undo), so that
// each is there unquoted as well.
var payloads = []string{
	`</script><img src=x onerror="window.__pwned=1">`, // ends the inline <script>
	`__f__(function(){window.__pwned=2})()__f__`,      // go-echarts' function marker
	`<img src=x onerror="window.__pwned=3">`,          // a tooltip renders names as HTML
	`</script><img src=x onerror=window.__pwned=4>`,
	`<img src=x onerror=window.__pwned=5>`,
}

// hostileCharts returns the HTML of a Figure per payload, its title, axes
// and one series named with it, and of a bar Figure labelled with all of
// them.
func hostileCharts() string {
	var h strings.Builder
	for i, p := range payloads {
		h.WriteString(FigureHTML(report.Figure{Title: p, XName: p, YName: p, Series: []report.FigureSeries{
			Line(p, []float64{1, 2, 3}, []float64{float64(i + 1), float64(i + 2), float64(i + 4)}),
			Line("plain", []float64{1, 2, 3}, []float64{1, 1, 1}),
		}}))
	}
	bars := report.Figure{Title: "labels", YName: "GCUPS", Labels: payloads, Series: []report.FigureSeries{{Name: "GCUPS"}}}
	for i := range payloads {
		bars.Series[0].Points = append(bars.Series[0].Points, report.FigurePoint{Y: float64(i + 1)})
	}
	h.WriteString(FigureHTML(bars))
	return h.String()
}

// TestFigureHTMLHostileNamesBytes checks the HTML's bytes where no browser
// is needed: every <script> is one of ours and closed by its own
// </script>, no tag comes from a name, and no function marker is left.
func TestFigureHTMLHostileNamesBytes(t *testing.T) {
	h := hostileCharts()
	if opened, closed := strings.Count(h, "<script"), strings.Count(strings.ToLower(h), "</script"); opened != len(payloads)+1 || closed != opened {
		t.Errorf("%d <script> tags, %d </script>; want %d of each (one per chart)", opened, closed, len(payloads)+1)
	}
	if strings.Contains(h, "<img") {
		t.Error("the charts' HTML holds <img")
	}
	// go-echarts' function marker would make code of a string in a
	// script; in a caption it is text.
	for _, sc := range regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`).FindAllStringSubmatch(h, -1) {
		if strings.Contains(sc[1], "__f__") {
			t.Error("a chart's script holds __f__")
		}
	}
}

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

// TestFigureHTMLHostileNamesStayText opens hostileCharts in headless
// Chromium, after the library as a notebook loads it: no payload may run
// (window.__pwned stays unset, no <img> appears, the console stays clean),
// both charts draw, their series, labels and titles hold the names as they
// are, and every tooltip shows its series' name as text. Without chromium
// it skips, unless LEVLAB_REQUIRE_BROWSER=1, where it fails.
func TestFigureHTMLHostileNamesStayText(t *testing.T) {
	needBrowser(t)
	page := "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>charts</title></head>\n<body>\n" +
		EChartsHTML() + hostileCharts() + "</body>\n</html>\n"
	path := filepath.Join(t.TempDir(), "charts.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	// The names each chart holds, and the tooltip of every point of every
	// series, as a mouse over it would show it; then time for any image a
	// tooltip made to fail and fire its onerror.
	const probe = `(async () => {
  const names = [...document.querySelectorAll('figcaption')].map(e => e.innerText), tips = [];
  for (const el of document.querySelectorAll('[_echarts_instance_]')) {
    const c = echarts.getInstanceByDom(el), o = c.getOption();
    names.push(...(o.title || []).map(x => x.text), ...o.xAxis.map(x => x.name), ...o.yAxis.map(x => x.name));
    o.xAxis.forEach(x => names.push(...(x.data || [])));
    o.yAxis.forEach(y => names.push(...(y.data || []))); // the bars' labels
    o.series.forEach((s, i) => {
      names.push(s.name);
      (s.data || []).forEach((_, j) => {
        c.dispatchAction({type: 'showTip', seriesIndex: i, dataIndex: j});
        const tip = [...el.querySelectorAll('div')].find(d => d.style.zIndex === '9999999');
        tips.push(tip ? tip.innerText : '');
        c.dispatchAction({type: 'hideTip'});
      });
    });
  }
  await new Promise(r => setTimeout(r, 500));
  return {pwned: String(window.__pwned), images: document.images.length, names: names, tips: tips};
})()`
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, raw, err := chromium.Inspect(ctx, path, probe)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Pwned  string
		Images int
		Names  []string
		Tips   []string
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("probe: %v (%s)", err, raw)
	}
	if got.Pwned != "undefined" {
		t.Errorf("window.__pwned = %s: a payload ran", got.Pwned)
	}
	if got.Images != 0 {
		t.Errorf("%d <img> elements in the page; the charts have none of their own", got.Images)
	}
	for _, e := range res.ConsoleErrors {
		t.Errorf("console: %s", e)
	}
	if want := len(payloads) + 1; res.Containers != want || res.Charts != res.Containers {
		t.Errorf("%d of %d chart containers hold a drawn chart; want all of %d", res.Charts, res.Containers, want)
	}
	t.Logf("%d charts drawn, %d tooltips shown", res.Charts, len(got.Tips))
	for _, p := range payloads {
		if n := count(got.Names, p); n != 5 { // a caption, two axes, a series, a label
			t.Errorf("%q is %d of the charts' names; want it as it is 5 times (%q)", p, n, got.Names)
		}
		shown := false
		for _, tip := range got.Tips {
			shown = shown || strings.Contains(tip, p)
		}
		if !shown {
			t.Errorf("no tooltip shows %q as text (%d tooltips shown: %q)", p, len(got.Tips), got.Tips)
		}
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, s := range xs {
		if s == x {
			n++
		}
	}
	return n
}

// TestExportHostileNames: a figure's names reach its SVG as text: the file
// is XML whose only elements are the drawing's, the names in its text as
// they are (the title excepted: the figure draws none).
func TestExportHostileNames(t *testing.T) {
	dir := t.TempDir()
	needBrowser(t)
	f := report.Figure{ID: "hostile", Title: payloads[0], XName: payloads[1], YName: payloads[2], MarkY: 5, MarkName: payloads[2]}
	for i, p := range payloads {
		f.Series = append(f.Series, report.FigureSeries{Name: p, Points: []report.FigurePoint{
			{X: 1, Y: float64(i + 1), Lo: float64(i), Hi: float64(i + 2)}, {X: 2, Y: float64(i + 2), Lo: float64(i + 2), Hi: float64(i + 2)},
		}})
	}
	paths, err := ExportFigure(dir, f)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(paths[0])
	if err != nil || !strings.HasSuffix(paths[0], ".svg") {
		t.Fatalf("%s: %v", paths[0], err)
	}
	elements := map[string]bool{}
	var text strings.Builder
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", paths[0], err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elements[tok.Name.Local] = true
		case xml.CharData:
			text.Write(tok)
		}
	}
	for _, bad := range []string{"img", "script", "foreignObject", "a"} {
		if elements[bad] {
			t.Errorf("%s holds a <%s> element", paths[0], bad)
		}
	}
	for _, p := range payloads {
		if !strings.Contains(text.String(), p) {
			t.Errorf("%s's text lacks %q", paths[0], p)
		}
	}
}
