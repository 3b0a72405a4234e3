package chromium

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needBrowser skips the test when no Chromium is installed, unless
// LEVLAB_REQUIRE_BROWSER=1 (as make test sets), where that is a failure.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := Available(); err != nil {
		if os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
			t.Fatalf("%v; LEVLAB_REQUIRE_BROWSER=1 forbids skipping (make deps installs it as root)", err)
		}
		t.Skipf("%v; skipping the browser test (set LEVLAB_REQUIRE_BROWSER=1 to make this a failure)", err)
	}
}

func check(t *testing.T, path string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	res, err := Check(ctx, path)
	if err != nil {
		t.Fatalf("Check(%s): %v", path, err)
	}
	t.Logf("Check(%s) in %v: %+v", filepath.Base(path), time.Since(start).Round(time.Millisecond), res)
	return res
}

func TestTwoCharts(t *testing.T) {
	needBrowser(t)
	res := check(t, "testdata/two_charts.html")
	if res.Containers != 2 || res.Charts != 2 {
		t.Errorf("Charts, Containers = %d, %d; want 2, 2", res.Charts, res.Containers)
	}
	if len(res.ConsoleErrors) != 0 {
		t.Errorf("ConsoleErrors = %q; want none", res.ConsoleErrors)
	}
	if len(res.Requests) != 0 {
		t.Errorf("Requests = %q; want none", res.Requests)
	}
}

func TestScriptErrors(t *testing.T) {
	needBrowser(t)
	res := check(t, "testdata/throws.html")
	var sawConsole, sawException bool
	for _, e := range res.ConsoleErrors {
		sawConsole = sawConsole || strings.Contains(e, "console.error called")
		sawException = sawException || strings.Contains(e, "TypeError")
	}
	if !sawConsole || !sawException {
		t.Errorf("ConsoleErrors = %q; want the console.error call and the uncaught TypeError", res.ConsoleErrors)
	}
}

func TestNetworkRequestsFailAndAreReported(t *testing.T) {
	needBrowser(t)
	res := check(t, "testdata/fetches.html")
	for _, want := range []string{"http://example.com/x.js", "https://example.org/a.png"} {
		found := false
		for _, r := range res.Requests {
			found = found || r == want
		}
		if !found {
			t.Errorf("Requests = %q; want %s among them", res.Requests, want)
		}
	}
	// The page went on loading past the failed script: its chart drew.
	if res.Containers != 1 || res.Charts != 1 {
		t.Errorf("Charts, Containers = %d, %d; want 1, 1", res.Charts, res.Containers)
	}
}

func TestUndrawnContainers(t *testing.T) {
	needBrowser(t)
	res := check(t, "testdata/undrawn.html")
	if res.Containers != 3 || res.Charts != 1 {
		t.Errorf("Charts, Containers = %d, %d; want 1, 3", res.Charts, res.Containers)
	}
}

// TestRealECharts draws two charts with the ECharts the report embeds, when
// it is there.
func TestRealECharts(t *testing.T) {
	needBrowser(t)
	js, err := os.ReadFile(filepath.Join("..", "..", "report", "internal", "document", "assets", "echarts.min.js"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("report/internal/document/assets/echarts.min.js is not there yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	var page strings.Builder
	page.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><script>")
	page.Write(js)
	page.WriteString("</script></head><body>\n")
	for _, id := range []string{"line", "bar"} {
		page.WriteString(`<div class="container"><div class="item" id="` + id + `" style="width:600px;height:400px;"></div></div>
<script>echarts.init(document.getElementById("` + id + `"), "white", {renderer: "canvas"}).setOption({
  xAxis: {type: "category", data: ["a", "b", "c"]}, yAxis: {type: "value"},
  series: [{type: "` + id + `", data: [3, 1, 2]}]});</script>
`)
	}
	page.WriteString("</body></html>\n")
	path := filepath.Join(t.TempDir(), "echarts.html")
	if err := os.WriteFile(path, []byte(page.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := check(t, path)
	if res.Containers != 2 || res.Charts != 2 {
		t.Errorf("Charts, Containers = %d, %d; want 2, 2", res.Charts, res.Containers)
	}
	if len(res.ConsoleErrors) != 0 || len(res.Requests) != 0 {
		t.Errorf("ConsoleErrors = %q, Requests = %q; want none", res.ConsoleErrors, res.Requests)
	}
}

func TestMissingFile(t *testing.T) {
	needBrowser(t)
	if _, err := Check(context.Background(), filepath.Join(t.TempDir(), "nothing.html")); err == nil {
		t.Error("Check of a missing file: no error")
	}
}

// Inspect evaluates an expression once the charts have drawn, awaits a
// promise, and reports what the page logged meanwhile.
func TestInspect(t *testing.T) {
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	expr := `(async () => {
  await new Promise(r => setTimeout(r, 20));
  console.error('logged by the probe');
  return {items: document.querySelectorAll('.item').length, title: document.title};
})()`
	res, val, err := Inspect(ctx, "testdata/two_charts.html", expr)
	if err != nil {
		t.Fatal(err)
	}
	if string(val) != `{"items":2,"title":"two charts"}` {
		t.Errorf("value %s; want {\"items\":2,\"title\":\"two charts\"}", val)
	}
	if res.Charts != 2 || len(res.ConsoleErrors) != 1 || !strings.Contains(res.ConsoleErrors[0], "logged by the probe") {
		t.Errorf("Result %+v; want 2 charts and the probe's console.error", res)
	}
	if _, val, err := Inspect(ctx, "testdata/two_charts.html", "undefined"); err != nil || string(val) != "null" {
		t.Errorf("undefined: %s, %v; want null", val, err)
	}
	if _, _, err := Inspect(ctx, "testdata/two_charts.html", "(async () => { throw new Error('no') })()"); err == nil {
		t.Error("an expression that throws: no error")
	}
}

// TestPrintPDF prints a page of two charts: a PDF comes back whole.
func TestPrintPDF(t *testing.T) {
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	pdf, err := PrintPDF(ctx, "testdata/two_charts.html", PDFOptions{Margin: 0.59, PrintBackground: true, PreferCSSPageSize: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("PrintPDF in %v: %d bytes", time.Since(start).Round(time.Millisecond), len(pdf))
	if !strings.HasPrefix(string(pdf), "%PDF-") || !strings.Contains(string(pdf[max(0, len(pdf)-1024):]), "%%EOF") {
		t.Errorf("PrintPDF: not a whole PDF (%d bytes, starts %q)", len(pdf), pdf[:min(len(pdf), 16)])
	}
	if _, err := PrintPDF(ctx, "testdata/two_charts.html", PDFOptions{Margin: 5}); err == nil || !strings.Contains(err.Error(), "margin") {
		t.Errorf("a margin wider than the paper: %v", err)
	}
}

// TestOpenViewport lays a page out at a given size and scale, and
// evaluates in it twice.
func TestOpenViewport(t *testing.T) {
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := Open(ctx, "testdata/two_charts.html", Viewport{Width: 640, Height: 480, Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var size [3]float64
	if err := p.Evaluate(ctx, "[innerWidth, innerHeight, devicePixelRatio]", &size); err != nil {
		t.Fatal(err)
	}
	if size != [3]float64{640, 480, 2} {
		t.Errorf("viewport %v; want [640 480 2]", size)
	}
	var n int
	if err := p.Evaluate(ctx, "document.querySelectorAll('.item').length", &n); err != nil || n != 2 {
		t.Errorf("second evaluation: %d, %v", n, err)
	}
	if res, err := p.Result(ctx); err != nil || res.Charts != 2 {
		t.Errorf("Result: %+v, %v", res, err)
	}
}
