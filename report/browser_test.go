package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/browser"
)

// TestBrowserDrawsEveryChart opens the report of the committed results in
// headless Chromium with networking off: every chart container must hold a
// drawn ECharts chart, the console must show no error and the page must
// attempt no request. Without chromium it skips, unless
// LEVLAB_REQUIRE_BROWSER=1 (make test), where it fails.
func TestBrowserDrawsEveryChart(t *testing.T) {
	if _, err := browser.Available(); err != nil {
		if os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
			t.Fatalf("%v; LEVLAB_REQUIRE_BROWSER=1 forbids skipping (make deps installs it as root)", err)
		}
		t.Skipf("%v; skipping (set LEVLAB_REQUIRE_BROWSER=1 to make this a failure)", err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := WriteFile(path, Options{Results: "../results"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := browser.Check(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("checked in %v: %d charts drawn in %d containers", time.Since(start).Round(time.Millisecond), res.Charts, res.Containers)
	if res.Containers == 0 || res.Charts != res.Containers {
		t.Errorf("%d of %d chart containers hold a drawn chart; want all, and at least one", res.Charts, res.Containers)
	}
	for _, e := range res.ConsoleErrors {
		t.Errorf("console: %s", e)
	}
	for _, r := range res.Requests {
		t.Errorf("the report requested %s; it must fetch nothing", r)
	}
}
