package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// committedDoc builds the committed results' report as a document, and
// writes it as Markdown.
func committedDoc(t *testing.T) (*runs.Set, *document.Doc, string) {
	t.Helper()
	d, err := load(Options{Results: "../results"})
	if err != nil {
		t.Fatal(err)
	}
	return d, build(d, nil), render(t, Options{Results: "../results", Format: FormatMarkdown})
}

// A rate of the whole matrix is never called plain GCUPS: the committed
// records counted no computed cells, so "GCUPS" appears only as "computed
// GCUPS" (defined), and every matrix rate is named for what it counts.
func TestNoBareGCUPS(t *testing.T) {
	_, _, md := committedDoc(t)
	bare := regexp.MustCompile(`[0-9] GCUPS|GCUPS \(10|, GCUPS`)
	for _, line := range strings.Split(md, "\n") {
		if bare.MatchString(line) {
			t.Errorf("a rate called plain GCUPS: %.300s", line)
		}
	}
	if i := strings.Index(md, "| [Fastest exact distance at the report's largest n, "+matrixRate); i < 0 || !strings.Contains(strings.SplitN(md[i:], "\n", 2)[0], " "+matrixRate+" (") {
		t.Error("Key results: the fastest rate is not named " + matrixRate)
	}
	st := runs.Stat{GCUPS: 711, CCUPS: 40}
	if got := rateText(st); got != "40.0 computed GCUPS (711 matrix Gcells/s)" {
		t.Errorf("rateText with computed cells = %q", got)
	}
}

// A ratio of ours on several workers against a peer or a loop on one
// says so, and worker for worker.
func TestRatioWorkersDiffer(t *testing.T) {
	_, _, md := committedDoc(t)
	for _, row := range []string{"One pair of random DNA, beside edlib", "Every pair of a set of DNA strings", "Alignment (CIGAR), the whole command", "Spelling suggestions within 1 edit"} {
		i := strings.Index(md, "| ["+row)
		if i < 0 {
			t.Errorf("no key result %q", row)
			continue
		}
		line, _, _ := strings.Cut(md[i:], "\n")
		if !strings.Contains(line, "2 workers against") || !(strings.Contains(line, "per worker") || strings.Contains(line, "on 1 worker as well")) {
			t.Errorf("key result %q compares 2 workers with one without saying so:\n%s", row, line)
		}
	}
	if got := workersText(2, 1, "one thread", 24.2, 15.4); got != "2 workers against one thread; 15.4× on 1 worker as well" {
		t.Errorf("workersText = %q", got)
	}
	if got := workersText(2, 2, "one thread", 2, 0); got != "" {
		t.Errorf("workersText with equal workers = %q; want nothing", got)
	}
}

// The repetitions the report states are those its records hold.
func TestRepetitionsStated(t *testing.T) {
	r, _, md := committedDoc(t)
	for _, ix := range r.Runs {
		least, most, _ := ix.RepsRange()
		want := fmt.Sprintf("%d repetitions a point", most)
		if least != most {
			want = fmt.Sprintf("%d to %d repetitions a point", least, most)
		}
		if !strings.Contains(md, ix.Name+", paper scale, "+fmt.Sprint(ix.Cores())+" logical cores, "+want) {
			t.Errorf("%s: Key results do not say %q", ix.Name, want)
		}
	}
	if strings.Contains(md, "timed up to 10 times") {
		t.Error("the method still says every point was timed up to 10 times")
	}
}

// No speedup is called significant whose interval holds 1×.
func TestSignificantExcludesOne(t *testing.T) {
	base := []float64{1.0, 1.1, 0.9, 1.05, 0.95, 1.2, 0.8, 1.0}
	that := []float64{0.7, 1.3, 0.75, 1.25, 0.8, 1.2, 0.6, 0.9}
	lo, hi, ok := runs.BootRatio(base, that)
	if !ok || lo > 1 || hi < 1 {
		t.Fatalf("bootRatio = %v, %v, %v; want an interval over 1×", lo, hi, ok)
	}
	r, _, _ := committedDoc(t)
	for _, ix := range r.Runs {
		for k := range ix.Stats {
			if k.Algorithm == "" {
				continue
			}
			for b := range ix.Stats {
				if b.Experiment != k.Experiment || b.LenA != k.LenA || b.Case != k.Case || b == k {
					continue
				}
				q, ok := ix.SpeedupOf(b, k)
				if ok && q.Significant && q.CIKnown && q.Lo <= 1 && q.Hi >= 1 {
					t.Fatalf("%v over %v: significant with an interval %v–%v", k, b, q.Lo, q.Hi)
				}
			}
			break // one point a run keeps the test short
		}
	}
}

// No paragraph is printed twice word for word.
func TestNoParagraphTwice(t *testing.T) {
	_, d, _ := committedDoc(t)
	seen := map[document.Para]string{}
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			p, ok := b.(document.Para)
			if !ok || len(p) < 40 {
				continue
			}
			if where, ok := seen[p]; ok {
				t.Errorf("printed twice (%s and %s): %.200s", where, s.ID, p)
			}
			seen[p] = s.ID
		}
	}
}

// No axis name states a time unit its ticks contradict: the ticks of a
// time axis carry µs, ms or s themselves, so its name carries none.
func TestAxisUnits(t *testing.T) {
	_, d, _ := committedDoc(t)
	unit := regexp.MustCompile(`\((s|ms|µs|ns|seconds)\)`)
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			c, ok := b.(*document.Figure)
			if !ok {
				continue
			}
			for _, name := range []string{c.XName, c.YName} {
				if document.AxisUnit(name) == "seconds" && unit.MatchString(name) {
					t.Errorf("chart %s: axis %q names a unit its ticks (µs, ms or s) contradict", c.ID, name)
				}
				if strings.Contains(name, "GCUPS") && !strings.Contains(name, "computed") {
					t.Errorf("chart %s: axis %q calls a matrix rate GCUPS", c.ID, name)
				}
			}
		}
	}
}
