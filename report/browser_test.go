package report_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/internal/browser"
	"github.com/levlab/levlab/report"
)

// The committed results' report, opened offline in headless Chromium:
// every chart container draws, nothing is fetched, nothing throws.
func TestBrowserDrawsEveryChart(t *testing.T) {
	if _, err := browser.Available(); err != nil {
		if errors.Is(err, browser.ErrUnavailable) && os.Getenv("LEVLAB_REQUIRE_BROWSER") != "1" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := report.WriteFile(path, report.Options{Results: "../results"}); err != nil {
		t.Fatal(err)
	}
	res, err := browser.Check(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(path)
	want := strings.Count(string(html), `<div class="item" id=`)
	if res.Containers != want || res.Charts != want {
		t.Errorf("%d charts in the file, %d containers seen, %d drawn", want, res.Containers, res.Charts)
	}
	if len(res.ConsoleErrors) > 0 {
		t.Errorf("console errors: %q", res.ConsoleErrors)
	}
	if len(res.Requests) > 0 {
		t.Errorf("the page tried to fetch: %q", res.Requests)
	}
}
