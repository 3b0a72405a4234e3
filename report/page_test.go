package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/chromium"
	"github.com/levlab/levlab/records"
)

// pageView is what the test reads of a laid-out report.
type pageView struct {
	ScrollWidth, ClientWidth int
	Text                     string
	Wide                     []string // elements wider than the page
	// Boxed: the tables of Key results and Machines and method that
	// scroll sideways in their box (the wide data tables may).
	Boxed []string
}

const pageViewJS = `(() => {
  const w = document.documentElement.clientWidth, wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 1 && !el.closest('div.table')) { wide.push(el.tagName + (el.id ? '#' + el.id : '') + ' ' + Math.round(r.right)); }
  }
  const boxed = Array.from(document.querySelectorAll('#summary div.table, #method div.table'))
    .filter(d => d.scrollWidth > d.clientWidth + 1)
    .map(d => (d.querySelector('caption') || d).innerText.slice(0, 60) + ': ' + d.scrollWidth + ' px in ' + d.clientWidth);
  return {ScrollWidth: document.documentElement.scrollWidth, ClientWidth: w, Text: document.body.innerText, Wide: wide.slice(0, 5), Boxed: boxed};
})()`

// eNotation is a number written with an exponent: 3.4e-05, 1E+06.
var eNotation = regexp.MustCompile(`\b\d+(\.\d+)?[eE][+-]?\d+\b`)

// commitID is a commit as the report names it, twelve hex digits, which
// may read as a number with an exponent (0607e3644754).
var commitID = regexp.MustCompile(`^[0-9a-f]{12}$`)

// exponents returns up to n numbers with an exponent in text, commit ids
// left out.
func exponents(text string, n int) []string {
	var out []string
	for _, m := range eNotation.FindAllString(text, -1) {
		if !commitID.MatchString(m) && len(out) < n {
			out = append(out, m)
		}
	}
	return out
}

// A commit id of digits around an e is no number with an exponent.
func TestExponentsLeaveCommitsOut(t *testing.T) {
	got := exponents("by levlab 0607e3644754, 3.4e-05 s and 1E+06", 5)
	if len(got) != 2 || got[0] != "3.4e-05" || got[1] != "1E+06" {
		t.Errorf("exponents = %q, want [3.4e-05 1E+06]", got)
	}
}

// TestReportsInChromium opens the committed report and the quick one in
// headless Chromium at 1300 and 800 CSS pixels: the page never scrolls
// sideways, nor do the tables of Key results and Machines in their boxes,
// every chart draws, nothing errs or is fetched, no number
// shows an exponent, the GPU's reason is said at most once, and the quick
// report says "missing" nowhere.
func TestReportsInChromium(t *testing.T) {
	needBrowser(t)
	reports := []struct {
		name  string
		o     Options
		quick bool
	}{
		{"committed", Options{Results: "../results"}, false},
		{"quick", Options{Results: quickResults(t)}, true},
	}
	for _, rp := range reports {
		t.Run(rp.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.html")
			if err := WriteFile(path, rp.o); err != nil {
				t.Fatal(err)
			}
			for _, width := range []int{1300, 800} {
				t.Run(fmt.Sprint(width), func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
					defer cancel()
					p, err := chromium.Open(ctx, path, chromium.Viewport{Width: width, Height: 1000})
					if err != nil {
						t.Fatal(err)
					}
					defer p.Close()
					var v pageView
					if err := p.Evaluate(ctx, pageViewJS, &v); err != nil {
						t.Fatal(err)
					}
					res, err := p.Result(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if v.ScrollWidth > v.ClientWidth {
						t.Errorf("the page scrolls sideways: %d px of content in %d (wider: %v)", v.ScrollWidth, v.ClientWidth, v.Wide)
					}
					for _, b := range v.Boxed {
						t.Errorf("a table of Key results or Machines scrolls sideways: %s", b)
					}
					if res.Containers == 0 || res.Charts != res.Containers {
						t.Errorf("%d of %d chart containers hold a drawn chart; want all, and at least one", res.Charts, res.Containers)
					}
					for _, e := range res.ConsoleErrors {
						t.Errorf("console: %s", e)
					}
					for _, r := range res.Requests {
						t.Errorf("the report requested %s; it must fetch nothing", r)
					}
					if m := exponents(v.Text, 5); len(m) > 0 {
						t.Errorf("numbers with an exponent in the visible text: %q", m)
					}
					if n := strings.Count(v.Text, "CUDA unavailable"); n > 1 {
						t.Errorf("the GPU's reason is shown %d times; want at most once", n)
					}
					if rp.quick {
						if i := strings.Index(strings.ToLower(v.Text), "missing"); i >= 0 {
							t.Errorf("the quick report says missing: …%s…", v.Text[max(0, i-80):min(len(v.Text), i+40)])
						}
					}
				})
			}
		})
	}
}

// quickResults returns a results tree as levlab reproduce leaves it on a
// fresh clone: the published numbers beside one quick run (testdata/quick,
// a real run of levlab run --reps 3 on a 2-core AMD EPYC).
func quickResults(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []struct{ from, to string }{
		{"../results/published", records.PublishedDir},
		{"testdata/quick/amd-epyc-2c/quick", "amd-epyc-2c/quick"},
	} {
		if err := os.CopyFS(filepath.Join(root, d.to), os.DirFS(d.from)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
