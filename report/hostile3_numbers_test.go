//go:build unix

package report

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// digitRun is the longest run of digits (with the separators a number
// holds) in a report.
var digitRun = regexp.MustCompile(`[0-9][0-9.,]{24,}`)

// TestNumbersBounded: every number the report writes has a bounded
// number of digits, however small or large: scientific notation past
// what three significant digits can write plainly.
func TestNumbersBounded(t *testing.T) {
	for _, v := range []float64{1e-300, -1e-300, 4.9e-324, 1.5e-9, 2.5e-5, 1e300, -1e300, 1.7976931348623157e308, 3e12, 123456789} {
		st := runs.Stat{N: 3, Med: v, Min: v / 2, Max: v * 2}
		for _, f := range []struct {
			name string
			s    string
		}{
			{"num", document.Num(v)}, {"dur", document.Dur(v)}, {"secs", secs(st)}, {"bytesStr", document.BytesStr(v)}, {"times", document.Times(v)},
			{"pubNum", document.PubNum(v)}, {"xnum", document.Xnum(v)},
		} {
			// secs: the median, then its spread, min–max.
			for _, one := range strings.FieldsFunc(f.s, func(r rune) bool { return r == '\n' || r == '–' }) {
				if n := utf8.RuneCountInString(one); n > 24 {
					t.Errorf("%s(%g) = %d runes: %.60q…", f.name, v, n, one)
				}
			}
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{0.0345, "0.0345"}, {12.34, "12.3"}, {1234, "1,230"}, {0.000123, "0.000123"}, {1e-300, "1.00×10⁻³⁰⁰"}, {-2.5e12, "-2.50×10¹²"}} {
		if got := document.Num(c.v); got != c.want {
			t.Errorf("num(%g) = %q, want %q", c.v, got, c.want)
		}
	}

	// A run of such times, as a report.
	root := t.TempDir()
	ownRun(t, filepath.Join(root, "box", "quick"), "mine", ownRecords("mine", ownPoint{"a", "random", 100, 1e-300}, ownPoint{"b", "random", 100, 1e300}),
		map[string]string{"mine.toml": specText("mine", "Tiny and huge", "random", "a", "b")})
	md, err := mdOf(Options{Results: root, Only: []string{"mine"}})
	if err != nil {
		t.Fatal(err)
	}
	if m := digitRun.FindString(md); m != "" {
		t.Errorf("the report writes a number of %d digits: %.60s…", len(m), m)
	}
}
