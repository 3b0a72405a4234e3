package report

import (
	"fmt"
	"regexp"
	"strconv"
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
	bare := regexp.MustCompile(`[0-9] GCUPS|GCUPS \(10⁹|, GCUPS`)
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
	// Everywhere else: a ratio over a one-thread peer whose sentence (or
	// cell) puts two workers against it gives one worker's too.
	ratio := regexp.MustCompile(`\d× (as fast as |the time of )?(edlib|the two-row DP)`)
	many := regexp.MustCompile(`\b(2|two) workers\b|\bon two\b`)
	one := regexp.MustCompile(`\b(1|one) worker\b|per worker`)
	found := 0
	for _, m := range ratio.FindAllStringIndex(md, -1) {
		from, to := m[0], m[1]
		for from > 0 && !strings.HasPrefix(md[from-1:], "|") && !strings.HasPrefix(md[from-1:], "\n") && !strings.HasPrefix(md[from-2:], ". ") {
			from--
		}
		for to < len(md) && md[to] != '|' && md[to] != '\n' && !strings.HasPrefix(md[to:], ". ") {
			to++
		}
		sentence := md[from:to]
		found++
		if many.MatchString(sentence) && !one.MatchString(sentence) {
			t.Errorf("two workers set against a one-thread peer, one worker's ratio not given: %q", sentence)
		}
	}
	if found < 5 {
		t.Errorf("only %d ratios over edlib or the two-row DP found; the report gives more", found)
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
		vm := ""
		if h := ix.Host; h != nil && h.Virtual != nil && *h.Virtual {
			vm = " (a VM's virtual CPUs)"
		}
		if !strings.Contains(md, ix.Name+", paper scale, "+fmt.Sprint(ix.Cores())+" logical cores"+vm+", "+want) {
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
	// Every interval the committed report prints, in tables and text:
	// one that holds 1× has n.s. or "not significant" beside it, in its
	// cell or its clause.
	_, _, md := committedDoc(t)
	ci := regexp.MustCompile(`95% CI (\d[\d.,]*)–(\d[\d.,]*)`)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	checked := 0
	for _, m := range ci.FindAllStringSubmatchIndex(md, -1) {
		lo, hi := num(md[m[2]:m[3]]), num(md[m[4]:m[5]])
		if lo > 1 || hi < 1 {
			continue
		}
		from, to := max(0, m[0]-80), min(len(md), m[1]+30)
		if i := strings.LastIndexAny(md[from:m[0]], "|\n;"); i >= 0 {
			from += i + 1
		}
		if i := strings.IndexAny(md[m[1]:to], "|\n;"); i >= 0 {
			to = m[1] + i
		}
		if w := md[from:to]; !strings.Contains(w, "n.s.") && !strings.Contains(w, "not significant") {
			t.Errorf("an interval over 1× not marked n.s.: %q", w)
		}
		checked++
	}
	// The tables of the U test: "yes" never beside an interval over 1×.
	for _, line := range strings.Split(md, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 6 || !strings.HasSuffix(line, "| yes |") {
			continue
		}
		if lo, hi, ok := strings.Cut(cells[len(cells)-3], "–"); ok && num(lo) <= 1 && num(hi) >= 1 {
			t.Errorf("significant with an interval over 1×: %s", line)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d intervals over 1× and significant rows checked; the report prints more", checked)
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
