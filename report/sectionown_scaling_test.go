package report

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// scalingSpec is a kept spec of experiment "mine" at n = 1,000 on the
// workers given: amd, a lev algorithm; lazy, a command given {workers}
// nowhere; kern, a command timed by the kernel time it prints.
func scalingSpec(workers string) string {
	return `name = "mine"
[inputs]
n = [1000]
[params]
workers = [` + workers + `]
[[impl]]
name = "amd"
algo = "myers-parallel"
[[impl]]
name = "lazy"
command = ["lazy", "{a}", "{b}"]
[[impl]]
name = "kern"
command = ["kern", "{a}", "{b}"]
env = { OMP_NUM_THREADS = "{workers}" }
time_regexp = 'kernel ([0-9.]+) s'
`
}

// sp is a point of "mine": its implementation, length and workers, and
// each repetition's time and CPU time (cpu nil: not recorded).
type sp struct {
	impl       string
	n, workers int
	sec, cpu   []float64
}

// around returns seven times about x, x their median exactly.
func around(x float64) []float64 {
	out := make([]float64, 7)
	for i := range out {
		out[i] = x * (1 + float64(i-3)/1000)
	}
	return out
}

func scaleRecords(pts ...sp) []records.Record {
	var recs []records.Record
	for _, p := range pts {
		for i, s := range p.sec {
			r := records.Record{
				Experiment: "mine", Source: records.SourceOwn, Scale: records.ScaleQuick, Algorithm: p.impl, Ran: p.impl,
				Workers: p.workers, RanWorkers: p.workers, Case: "random", LenA: p.n, LenB: p.n, Rep: i + 1, Status: records.StatusOK,
				Seconds: s, Cells: int64(p.n) * int64(p.n), CPU: "Test CPU", Cores: 4,
				GPU: "none", GoVersion: "go1.26", Commit: "abc", Timestamp: "2026-01-02T03:04:05Z",
			}
			if p.cpu != nil {
				r.CPUSeconds = p.cpu[i]
			}
			recs = append(recs, r)
		}
	}
	return recs
}

// failedRecord is a failed point's row.
func failedRecord(impl string, n, workers int, why string) records.Record {
	return records.Record{Experiment: "mine", Source: records.SourceOwn, Scale: records.ScaleQuick, Algorithm: impl, Ran: impl,
		Workers: workers, RanWorkers: workers, Case: "random", LenA: n, LenB: n, Status: records.StatusFailed, Note: "failed: " + why,
		Cells: int64(n) * int64(n), CPU: "Test CPU", Cores: 4, GPU: "none", GoVersion: "go1.26", Commit: "abc", Timestamp: "2026-01-02T03:04:05Z"}
}

// scalingRep writes the records and kept spec of "mine" as a run and
// reads it back as the report does.
func scalingRep(t *testing.T, specText string, recs []records.Record) (*runs.Set, *ownView) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "box", "quick")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(dir, "mine.csv"), recs)
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte(specText), 0o644); err != nil {
		t.Fatal(err)
	}
	return repOf(t, root)
}

func repOf(t *testing.T, root string) (*runs.Set, *ownView) {
	t.Helper()
	d, err := load(Options{Results: root})
	if err != nil {
		t.Fatal(err)
	}
	return d, ownViewOf(d, "mine")
}

// sectionText returns the section's paragraphs, and its tables keyed by
// caption.
func sectionText(s document.Section) (paras string, tables map[string]*document.Table, charts []*document.Figure) {
	tables = map[string]*document.Table{}
	var ps []string
	for _, b := range s.Blocks {
		switch b := b.(type) {
		case document.Para:
			ps = append(ps, string(b))
		case *document.Table:
			tables[b.Caption] = b
		case *document.Figure:
			charts = append(charts, b)
		}
	}
	return strings.Join(ps, "\n"), tables, charts
}

// amdahlTimes returns the points of impl whose times follow Amdahl's law
// with serial fraction f exactly: T1 = 1 s, Tp = f + (1−f)/p.
func amdahlTimes(impl string, f float64, ws ...int) []sp {
	var pts []sp
	for _, w := range ws {
		pts = append(pts, sp{impl: impl, n: 1000, workers: w, sec: around(f + (1-f)/float64(w))})
	}
	return pts
}

// TestOwnKarpFlattAmdahl: the serial fractions of speedups that follow
// Amdahl's law are its f, at every p; the fit of speedups that do not is
// the least-squares value worked out by hand.
func TestOwnKarpFlattAmdahl(t *testing.T) {
	for _, f := range []float64{0, 0.05, 0.2, 0.5, 1} {
		var ps []int
		var ss []float64
		for _, p := range []int{2, 4, 8, 16} {
			s := amdahl(f, p)
			if e := karpFlatt(s, p); math.Abs(e-f) > 1e-12 {
				t.Errorf("f = %g: karpFlatt(%g, %d) = %g, want %g", f, s, p, e, f)
			}
			ps, ss = append(ps, p), append(ss, s)
		}
		if got, ok := amdahlFit(ps, ss); !ok || math.Abs(got-f) > 1e-12 {
			t.Errorf("f = %g: amdahlFit = %g, %v", f, got, ok)
		}
	}
	// S(2) = 1.6, S(4) = 2.5: e(2) = (0.625 − 0.5)/0.5 = 0.25, e(4) =
	// (0.4 − 0.25)/0.75 = 0.2; the fit, (0.5·0.125 + 0.75·0.15)/(0.5² +
	// 0.75²) = 0.175/0.8125.
	if e := karpFlatt(1.6, 2); math.Abs(e-0.25) > 1e-12 {
		t.Errorf("karpFlatt(1.6, 2) = %g, want 0.25", e)
	}
	if e := karpFlatt(2.5, 4); math.Abs(e-0.2) > 1e-12 {
		t.Errorf("karpFlatt(2.5, 4) = %g, want 0.2", e)
	}
	if f, ok := amdahlFit([]int{1, 2, 4}, []float64{1, 1.6, 2.5}); !ok || math.Abs(f-0.175/0.8125) > 1e-12 {
		t.Errorf("amdahlFit = %g, %v; want %g (the point on one worker left out)", f, ok, 0.175/0.8125)
	}
	if _, ok := amdahlFit([]int{1}, []float64{1}); ok {
		t.Error("amdahlFit of one worker alone: ok, want no fit")
	}
	if !math.IsNaN(karpFlatt(1, 1)) {
		t.Error("karpFlatt on one worker is not NaN")
	}
	// Slower on two workers: e and f past 1; faster than p: below 0.
	if e := karpFlatt(0.5, 2); math.Abs(e-3) > 1e-12 {
		t.Errorf("karpFlatt(0.5, 2) = %g, want 3", e)
	}
	if e := karpFlatt(2.5, 2); e >= 0 {
		t.Errorf("karpFlatt(2.5, 2) = %g, want below 0", e)
	}
}

// TestOwnAmdahlFromRecords: records whose medians follow Amdahl's law
// with f = 0.2 on 1, 2 and 4 workers read as such: S, E and e in the
// table, and the fit in words.
func TestOwnAmdahlFromRecords(t *testing.T) {
	r, v := scalingRep(t, scalingSpec("1, 2, 4"), scaleRecords(amdahlTimes("amd", 0.2, 1, 2, 4)...))
	ix := r.Runs[0]
	rows := ownScaling(ix, v, v.keys(ix))
	if len(rows) != 1 || !rows[0].oneOK || len(rows[0].pts) != 2 {
		t.Fatalf("rows %+v; want amd at n = 1,000 on 2 and 4 workers over its one", rows)
	}
	for _, p := range rows[0].pts {
		want := amdahl(0.2, p.k.Workers)
		if !p.ok || math.Abs(p.s()-want) > 1e-9 || math.Abs(p.kf()-0.2) > 1e-9 || math.Abs(p.e()-want/float64(p.k.Workers)) > 1e-9 {
			t.Errorf("%d workers: S %g, e %g, E %g; want S %g, e 0.2", p.k.Workers, p.s(), p.kf(), p.e(), want)
		}
	}
	if f, lo, hi, ok := fitOf(rows[0], 0); !ok || math.Abs(f-0.2) > 1e-9 || lo != 2 || hi != 4 {
		t.Errorf("fit %g over %d–%d (%v); want 0.2 over 2–4", f, lo, hi, ok)
	}
	paras, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	for _, w := range []string{"For amd, serial fraction 0.20 by Amdahl's law over 2–4 workers at n = 1,000 (at most 5.00× on any number)"} {
		if !strings.Contains(paras, w) {
			t.Errorf("the section does not say %q:\n%s", w, paras)
		}
	}
	tab := tableOf(tables, "Median time of amd in mine, and its speedup over one worker")
	if tab == nil {
		t.Fatalf("no table of amd; tables: %v", keysOf(tables))
	}
	if want := []string{"lengths", "1 worker", "2 workers", "4 workers"}; !slices.Equal(tab.Head, want) {
		t.Errorf("head %q, want %q", tab.Head, want)
	}
	// S(2) = 1/0.6, E 0.83, e 0.20; S(4) = 2.5.
	want := []string{"n = 1,000", "1.00 s\n997 ms–1.00 s", "600 ms, 1.67×\n598 ms–602 ms, S's 95% CI 1.66–1.67, E 0.83, e 0.20", "400 ms, 2.50×\n399 ms–401 ms, S's 95% CI 2.49–2.51, E 0.63, e 0.20"}
	if len(tab.Rows) != 1 || !slices.Equal(tab.Rows[0], want) {
		t.Errorf("rows %q\nwant %q", tab.Rows, want)
	}
	if _, ok := tables["Every point: median time, and below it min–max, or why it failed"]; ok {
		t.Error("the table of every point is drawn too, though the implementation's table holds every point")
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestOwnCoresIgnoresWorkers: a command that runs on one core whatever
// {workers} says reads "used 1.00 cores at 4 workers", and its command is
// named as not using {workers}; one that keeps its workers busy reads
// their number; one timed by its own clock reads a bound, ≤.
func TestOwnCoresIgnoresWorkers(t *testing.T) {
	cpuOf := func(sec []float64, cores float64) []float64 {
		out := make([]float64, len(sec))
		for i, s := range sec {
			out[i] = s * cores
		}
		return out
	}
	var pts []sp
	for _, w := range []int{1, 2, 4} {
		lazy := around(1.0)
		pts = append(pts, sp{impl: "lazy", n: 1000, workers: w, sec: lazy, cpu: cpuOf(lazy, 1)})
		busy := around(1 / float64(w))
		pts = append(pts, sp{impl: "amd", n: 1000, workers: w, sec: busy, cpu: cpuOf(busy, float64(w))})
		kern := around(0.5 / float64(w))
		pts = append(pts, sp{impl: "kern", n: 1000, workers: w, sec: kern, cpu: cpuOf(kern, 1.2*float64(w))})
	}
	r, _ := scalingRep(t, scalingSpec("1, 2, 4"), scaleRecords(pts...))
	paras, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	for _, w := range []string{
		"it used 1.00 cores at 4 workers: about one core, whatever its workers were (its command never uses the workers placeholder)",
		"For amd, serial fraction 0.00", "it used 4.00 cores at 4 workers.",
		"it used ≤ 4 cores (the machine's) at 4 workers",
		"the time it prints itself, start-up and reading left out: kern (time_regexp \"kernel ([0-9.]+) s\", in seconds)",
		"the wall clock from start to exit, start-up included: lazy",
		"the wall clock around the call inside levlab: amd",
	} {
		if !strings.Contains(paras, w) {
			t.Errorf("the section does not say %q:\n%s", w, paras)
		}
	}
	if strings.Contains(paras, "No CPU time is recorded") {
		t.Errorf("the section says the records hold no CPU time:\n%s", paras)
	}
	lazy := tableOf(tables, "Median time of lazy in mine, and its speedup over one worker")
	if lazy == nil || !strings.HasSuffix(lazy.Rows[0][3], ", 1.00 cores") || !strings.HasSuffix(lazy.Rows[0][1], ", 1.00 cores") {
		t.Errorf("lazy's table does not give 1.00 cores on 1 and 4 workers: %+v", lazy)
	}
	if kern := tableOf(tables, "Median time of kern in mine, and its speedup over one worker"); kern == nil || !strings.HasSuffix(kern.Rows[0][3], ", ≤ 4 cores (the machine's)") {
		t.Errorf("kern's table does not bound its cores: %+v", kern)
	}
}

// TestOwnScalingCells: a failed point says why in its cell, and a point
// whose one-worker point failed has its time and no speedup; a table has
// a column for each worker count its implementation has a point at.
func TestOwnScalingCells(t *testing.T) {
	recs := scaleRecords(amdahlTimes("amd", 0.5, 1, 2)...)
	recs = append(recs, failedRecord("amd", 1000, 4, "answered 3, want 4"))
	recs = append(recs, failedRecord("lazy", 1000, 1, "exited with status 1"))
	recs = append(recs, scaleRecords(sp{impl: "lazy", n: 1000, workers: 2, sec: around(0.25)})...)
	r, _ := scalingRep(t, scalingSpec("1, 2, 4"), recs)
	_, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	amd := tableOf(tables, "Median time of amd in mine, and its speedup over one worker")
	if amd == nil {
		t.Fatalf("no table of amd: %v", keysOf(tables))
	}
	if want := []string{"n = 1,000", "1.00 s\n997 ms–1.00 s", "750 ms, 1.33×\n748 ms–752 ms, S's 95% CI 1.33–1.34, E 0.67, e 0.50", "FAILED\nanswered 3, want 4"}; !slices.Equal(amd.Rows[0], want) {
		t.Errorf("amd's cells %q\nwant %q", amd.Rows[0], want)
	}
	lazy := tableOf(tables, "Median time of lazy in mine, and its speedup over one worker")
	if lazy == nil {
		t.Fatalf("no table of lazy: %v", keysOf(tables))
	}
	if want := []string{"n = 1,000", "FAILED\nexited with status 1", "250 ms\n249 ms–251 ms"}; !slices.Equal(lazy.Rows[0], want) {
		t.Errorf("lazy's cells %q\nwant %q", lazy.Rows[0], want)
	}
}

// TestOwnScalingLogAxis: the chart of speedups over one worker draws the
// ideal S = p up to the machine's cores (4 in these records); its y axis
// is log past 10×, its x axis base 2 where the workers double (no tick at
// 3 where nothing ran); on two worker counts it is not drawn, the tables
// holding every point.
func TestOwnScalingLogAxis(t *testing.T) {
	for _, tc := range []struct {
		workers    []int
		xLog, yLog bool
	}{{[]int{1, 2, 4, 8}, true, false}, {[]int{1, 2, 3}, false, false}, {[]int{1, 2, 4, 8, 16}, true, false}, {[]int{1, 2}, false, false}} {
		var ws []string
		for _, w := range tc.workers {
			ws = append(ws, document.Count(w))
		}
		r, v := scalingRep(t, scalingSpec(strings.Join(ws, ", ")), scaleRecords(amdahlTimes("amd", 0.1, tc.workers...)...))
		c := ownScalingChart(r, v)
		if len(tc.workers) < 3 {
			if c != nil {
				t.Errorf("workers %v: a chart of two points a line", tc.workers)
			}
			continue
		}
		if c == nil {
			t.Fatalf("workers %v: no chart", tc.workers)
		}
		if c.YLog != tc.yLog || c.XLog != tc.xLog || c.XBase2 != tc.xLog {
			t.Errorf("workers %v: yLog %v, xLog %v, xBase2 %v; want %v, %v", tc.workers, c.YLog, c.XLog, c.XBase2, tc.yLog, tc.xLog)
		}
		ideal := c.Series[len(c.Series)-1]
		want := "ideal: S = p"
		if tc.workers[len(tc.workers)-1] > 4 {
			want += ", at most the 4 cores"
		}
		if ideal.Name != want || len(ideal.Points) != len(tc.workers) {
			t.Fatalf("workers %v: last series %+v, want %q on every count", tc.workers, ideal, want)
		}
		for _, p := range ideal.Points {
			if p.Y != min(p.X, 4) {
				t.Errorf("ideal at %g: %g, want %g", p.X, p.Y, min(p.X, 4))
			}
		}
		if c.Series[0].Name != "amd" || len(c.Series[0].Points) != len(tc.workers) || c.Title != "Speedup over its own one worker (n = 1,000)" {
			t.Errorf("workers %v: chart %q, series %+v", tc.workers, c.Title, c.Series[0])
		}
		if _, _, err := c.Render(); err != nil {
			t.Errorf("workers %v: the chart does not render: %v", tc.workers, err)
		}
	}
	if !spansTenfold([]document.FigureSeries{{Points: []document.FigurePoint{{Y: 0.5}, {Y: 5.1}}}}, func(p document.FigurePoint) float64 { return p.Y }) ||
		spansTenfold([]document.FigureSeries{{Points: []document.FigurePoint{{Y: 0.5}, {Y: 5}}}}, func(p document.FigurePoint) float64 { return p.Y }) {
		t.Error("spansTenfold: want more than 10× alone")
	}
}

// TestOwnOldRecordsNoCPU: records written before cpu_seconds, with the
// header of the time (every column but the last), still read; the section
// says they hold no CPU time and shows no cores.
func TestOwnOldRecordsNoCPU(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "box", "quick")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mine.csv")
	writeCSV(t, path, scaleRecords(amdahlTimes("amd", 0.2, 1, 2)...))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var old []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ',')
		old = append(old, line[:i]+"\n")
	}
	if !strings.HasSuffix(strings.TrimSpace(old[0]), ",made_by") {
		t.Fatalf("the header cut short ends %q; want made_by last", old[0])
	}
	if err := os.WriteFile(path, []byte(strings.Join(old, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte(scalingSpec("1, 2")), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := repOf(t, root)
	paras, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	if !strings.Contains(paras, "No CPU time is recorded (cpu_seconds), so no cores are shown.") {
		t.Errorf("the section does not say the records hold no CPU time:\n%s", paras)
	}
	amd := tableOf(tables, "Median time of amd in mine, and its speedup over one worker")
	if amd == nil || strings.Contains(strings.Join(amd.Rows[0], " "), "cores") || !strings.Contains(amd.Rows[0][2], "E 0.83, e 0.20") {
		t.Errorf("amd's table from the old records: %+v", amd)
	}
}

// TestOwnNeverSignificantSpanningOne: a speedup whose U test passes (p <
// 0.05) but whose 95% interval holds 1× is not called significant: its
// cell says n.s., and the words say none is significant. No cell of the
// section leaves out n.s. for a speedup whose interval holds 1×.
func TestOwnNeverSignificantSpanningOne(t *testing.T) {
	// Found by search: the U test gives p = 0.0476, the bootstrap
	// interval of the ratio of medians 0.16–1.13.
	ms := func(xs ...float64) []float64 {
		for i := range xs {
			xs[i] /= 1000
		}
		return xs
	}
	one, two := ms(3, 2, 11, 7, 5, 16), ms(8, 16, 17, 17, 20, 6)
	r, v := scalingRep(t, scalingSpec("1, 2"), scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: one}, sp{impl: "amd", n: 1000, workers: 2, sec: two}))
	ix := r.Runs[0]
	rows := ownScaling(ix, v, v.keys(ix))
	if len(rows) != 1 || len(rows[0].pts) != 1 {
		t.Fatalf("rows %+v", rows)
	}
	q := rows[0].pts[0].q
	if !(q.P < q.Alpha) || !q.CIKnown || q.Lo > 1 || q.Hi < 1 {
		t.Fatalf("the samples no longer give p < α with an interval over 1×: %+v", q)
	}
	if q.Significant {
		t.Errorf("significant with p = %g and an interval %g–%g", q.P, q.Lo, q.Hi)
	}
	paras, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	amd := tableOf(tables, "Median time of amd in mine, and its speedup over one worker")
	if amd == nil || !strings.Contains(amd.Rows[0][2], "n.s.") {
		t.Errorf("amd's cell on 2 workers does not say n.s.: %+v", amd)
	}
	if !strings.Contains(paras, "(0.364×, not significant), so no serial fraction is fitted") {
		t.Errorf("the words do not say no speedup is significant:\n%s", paras)
	}

	// Over many samples: a cell without n.s. has p < α and an interval
	// that leaves out 1×.
	for seed := range 40 {
		var pts []sp
		for _, w := range []int{1, 2, 4} {
			sec := make([]float64, 6)
			for i := range sec {
				sec[i] = 0.01 * (1 + float64((seed*7+i*13+w*5)%17)/10) / math.Sqrt(float64(w))
			}
			pts = append(pts, sp{impl: "amd", n: 1000, workers: w, sec: sec})
		}
		r, v := scalingRep(t, scalingSpec("1, 2, 4"), scaleRecords(pts...))
		ix := r.Runs[0]
		for _, row := range ownScaling(ix, v, v.keys(ix)) {
			for _, p := range row.pts {
				cell := scaleCell(v, ix, row, p.k.Workers, true)
				if p.ok && !strings.Contains(cell, "n.s.") && (p.q.P >= p.q.Alpha || !p.q.CIKnown || (p.q.Lo <= 1 && p.q.Hi >= 1)) {
					t.Errorf("seed %d, %d workers: %q not marked n.s. with p %g, interval %g–%g", seed, p.k.Workers, cell, p.q.P, p.q.Lo, p.q.Hi)
				}
			}
		}
	}
}

// Karp–Flatt's e is said to rise only over points where it is shown (S ≥
// 1): a slowdown on more workers than cores gives no e in the table, and
// none in the words. A row whose speedups no test tells from 1× is not
// fitted.
func TestOwnWordsFitOnlyWhatTheTableShows(t *testing.T) {
	recs := scaleRecords(
		sp{impl: "amd", n: 1000, workers: 1, sec: around(1.0)}, sp{impl: "amd", n: 1000, workers: 2, sec: around(0.6)}, sp{impl: "amd", n: 1000, workers: 4, sec: around(2.0)},
		sp{impl: "amd", n: 100, workers: 1, sec: []float64{0.003, 0.002, 0.011, 0.007, 0.005, 0.016}}, sp{impl: "amd", n: 100, workers: 2, sec: []float64{0.008, 0.016, 0.017, 0.017, 0.020, 0.006}})
	r, _ := scalingRep(t, strings.Replace(scalingSpec("1, 2, 4"), "n = [1000]", "n = [100, 1000]", 1), recs)
	paras, _, _ := sectionText(sectionOwn(r, "mine", said{}))
	if strings.Contains(paras, "e rises") {
		t.Errorf("the words have e rise to a point of S < 1, which the table leaves without e:\n%s", paras)
	}
	if !strings.Contains(paras, "no significant speedup at n = 100, so nothing is fitted there") || strings.Contains(paras, "at n = 100;") {
		t.Errorf("a row of speedups within 1× is fitted, or not said to be unfitted:\n%s", paras)
	}
}

// A figure holds a size fixed at the largest where its points were
// measured: where every implementation failed at the largest n, its
// speedups by workers are drawn at the next, and the title says which.
func TestOwnFigureSkipsASizeThatFailed(t *testing.T) {
	spc := strings.Replace(scalingSpec("1, 2"), "n = [1000]", "n = [1000, 2000]", 1) + `
[[figure]]
x = "workers"
y = "speedup"
baseline = "amd"
`
	recs := scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: around(1.0)}, sp{impl: "amd", n: 1000, workers: 2, sec: around(0.6)},
		sp{impl: "lazy", n: 1000, workers: 1, sec: around(2.0)}, sp{impl: "lazy", n: 1000, workers: 2, sec: around(2.0)})
	for _, impl := range []string{"amd", "lazy"} {
		for _, w := range []int{1, 2} {
			recs = append(recs, failedRecord(impl, 2000, w, "signal: segmentation fault"))
		}
	}
	r, v := scalingRep(t, spc, recs)
	c := ownChart(r, v, v.sp.Figures()[0], 0, "", nil)
	if c.Empty() || !strings.Contains(c.Title, "n = 1,000") {
		t.Errorf("figure %q (empty %v); want the speedups at n = 1,000, where they were measured", c.Title, c.Empty())
	}
}

// More than linear is said only where the interval of the speedup lies
// past the workers; a speedup a little above p whose interval reaches p
// is linear, and one well above p with such an interval is not called
// linear either.
func TestOwnSuperlinearOnlyPastItsInterval(t *testing.T) {
	for _, c := range []struct {
		two  []float64
		says string
	}{
		{around(0.4), "2.50× as fast on 2 workers as on one (95% CI 2."}, {around(0.4), "), more than 2×: no serial fraction fits"},
		{[]float64{0.40, 0.55, 0.47, 0.52, 0.45, 0.50, 0.44}, "linear (2×) within its spread"},
		{[]float64{0.15, 0.6, 0.18, 0.55, 0.2, 0.5, 0.22}, "above linear (2×), but its interval reaches below 2×, so more than linear is not shown"},
	} {
		r, _ := scalingRep(t, scalingSpec("1, 2"), scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: around(1.0)}, sp{impl: "amd", n: 1000, workers: 2, sec: c.two}))
		paras, _, _ := sectionText(sectionOwn(r, "mine", said{}))
		if !strings.Contains(paras, c.says) {
			t.Errorf("2 workers at %v: the words do not say %q:\n%s", c.two, c.says, paras)
		}
	}
}

// Karp–Flatt's e is printed only for a speedup of at least 1× that the
// test tells from 1×: where no cell of a table has one, the cells give no
// e and the caption says why, rather than a column of dashes.
func TestOwnTableNoEForNotSignificant(t *testing.T) {
	r, _ := scalingRep(t, scalingSpec("1, 2"), scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: []float64{0.003, 0.002, 0.011, 0.007, 0.005, 0.016}},
		sp{impl: "amd", n: 1000, workers: 2, sec: []float64{0.002, 0.0016, 0.009, 0.006, 0.004, 0.012}}))
	_, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	const caption = "Median time of amd in mine, and its speedup over one worker (Karp–Flatt's e left out: it is given for a significant speedup of at least 1×, a core for each worker, no outlier, and none here is one)"
	amd := tables[caption]
	if amd == nil {
		t.Fatalf("no table %q: %v", caption, keysOf(tables))
	}
	cell := amd.Rows[0][2]
	if !strings.Contains(cell, "n.s.") || strings.Contains(cell, "e ") {
		t.Errorf("a speedup marked n.s., alone in its table: %q, want n.s. and no e", cell)
	}
}

// Past the machine's cores (4 in these records) workers share them, so
// Karp–Flatt's e, read against Amdahl's law, is not given there, in the
// table or in the words, though the speedup is significant.
func TestOwnNoKarpFlattPastTheCores(t *testing.T) {
	recs := scaleRecords(
		sp{impl: "amd", n: 1000, workers: 1, sec: around(1.0)}, sp{impl: "amd", n: 1000, workers: 2, sec: around(0.6)},
		sp{impl: "amd", n: 1000, workers: 4, sec: around(0.4)}, sp{impl: "amd", n: 1000, workers: 8, sec: around(0.5)})
	r, _ := scalingRep(t, scalingSpec("1, 2, 4, 8"), recs)
	paras, tables, _ := sectionText(sectionOwn(r, "mine", said{}))
	tab := tableOf(tables, "Median time of amd in mine, and its speedup over one worker")
	if tab == nil || len(tab.Rows) != 1 || len(tab.Rows[0]) != 5 {
		t.Fatalf("no one-row table of amd on 1, 2, 4 and 8 workers: %+v", tab)
	}
	if cell := tab.Rows[0][2]; !strings.Contains(cell, "e 0.20") {
		t.Errorf("2 workers of 4 cores: %q, want e 0.20", cell)
	}
	if cell := tab.Rows[0][4]; !strings.Contains(cell, "2.00×") || !strings.Contains(cell, "e —") {
		t.Errorf("8 workers on 4 cores: %q, want 2.00× and e —", cell)
	}
	if strings.Contains(paras, "on 8 workers: an overhead") {
		t.Errorf("the words read e on 8 workers sharing 4 cores:\n%s", paras)
	}
}

// Karp–Flatt's e is not given where either time holds an outlier (‡):
// in the committed report's own tables, a row whose one-worker time is
// marked ‡ gives no e, nor does a cell marked ‡ itself.
func TestSerialShareNotFromOutliers(t *testing.T) {
	_, _, md := committedDoc(t)
	eValue := regexp.MustCompile(`\be [−-]?[0-9]`)
	checked := 0
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "| n = ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			continue
		}
		oneOut := strings.Contains(cells[1], "‡")
		for _, c := range cells[2:] {
			if (oneOut || strings.Contains(c, "‡")) && eValue.MatchString(c) {
				t.Errorf("e given beside an outlier: %s", line)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no own table's rows found")
	}
}

// tableOf returns the table of tables whose caption starts with prefix:
// a caption may go on to say what its cells leave out.
func tableOf(tables map[string]*document.Table, prefix string) *document.Table {
	for c, t := range tables {
		if strings.HasPrefix(c, prefix) {
			return t
		}
	}
	return nil
}

// A slowdown is said at the workers the fit uses, within the cores; a
// point past them is said apart, as oversubscribed.
func TestSlowdownWithinCores(t *testing.T) {
	_, _, md := committedDoc(t)
	slower := strings.Contains(md, "For levlab, at n = 16,000 no faster on 2 workers than on one (") ||
		strings.Contains(md, "For levlab, at n = 16,000 only 0.805× as fast on 2 workers as on one")
	if !slower || !strings.Contains(md, "; on 4 workers, past its 2 cores (oversubscribed), ") {
		t.Error("my-omp's levlab line is not said at 2 workers, with 4 apart as oversubscribed")
	}
}

// TestOwnSerialFractionIntervals: where runs spread, e and f carry the
// interval their speedups' intervals give (e falls as S rises, so S's
// upper bound gives e's lower), and the fit its range over them.
func TestOwnSerialFractionIntervals(t *testing.T) {
	one := []float64{0.90, 0.95, 1.00, 1.05, 1.10}
	two := []float64{0.60, 0.65, 0.70, 0.75, 0.80}
	r, v := scalingRep(t, scalingSpec("1, 2"), scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: one}, sp{impl: "amd", n: 1000, workers: 2, sec: two}))
	ix := r.Runs[0]
	rows := ownScaling(ix, v, v.keys(ix))
	if len(rows) != 1 || len(rows[0].pts) != 1 || !rows[0].pts[0].ok {
		t.Fatalf("rows %+v; want amd on 2 workers over its one", rows)
	}
	p := rows[0].pts[0]
	if !p.q.CIKnown || !(p.q.Lo < p.s() && p.s() < p.q.Hi) {
		t.Fatalf("S %g, interval %g–%g (known %v): want one around S", p.s(), p.q.Lo, p.q.Hi, p.q.CIKnown)
	}
	// e = 2/S − 1 on 2 workers.
	want := " (" + fixed2(2/p.q.Hi-1) + "–" + fixed2(2/p.q.Lo-1) + ")"
	if got := kfRange(p); got != want || got == "" {
		t.Errorf("kfRange = %q, want %q", got, want)
	}
	lo, hi, ok := fitRange(rows[0], 0)
	if !ok || math.Abs(lo-(2/p.q.Hi-1)) > 1e-12 || math.Abs(hi-(2/p.q.Lo-1)) > 1e-12 {
		t.Errorf("fitRange = %g–%g (%v), want %g–%g", lo, hi, ok, 2/p.q.Hi-1, 2/p.q.Lo-1)
	}
	paras, _, _ := sectionText(sectionOwn(r, "mine", said{}))
	if w := "serial fraction " + fixed2(p.kf()) + strings.TrimSuffix(want, ")") + " over the speedups' intervals)"; !strings.Contains(paras, w) {
		t.Errorf("the section does not say %q:\n%s", w, paras)
	}
}

// TestOwnTimeLogPastTenfold: a figure of time by workers whose lines
// span more than 10× (levlab's call in µs, a program's start in ms) is
// drawn on a log axis, so that the faster lines are not pinned to zero;
// within 10× it stays linear, and the spec's log_y wins either way.
func TestOwnTimeLogPastTenfold(t *testing.T) {
	fig := func(extra string) string {
		return scalingSpec("1, 2") + "[[figure]]\nx = \"workers\"\ny = \"time\"\nseries = [\"impl\"]\n" + extra
	}
	for _, tc := range []struct {
		name, spec string
		lazy       float64
		want       bool
	}{
		{"1000× apart", fig(""), 1, true},
		{"within 10×", fig(""), 0.005, false},
		{"log_y = false", fig("log_y = false\n"), 1, false},
	} {
		recs := scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: around(0.001)}, sp{impl: "amd", n: 1000, workers: 2, sec: around(0.0008)},
			sp{impl: "lazy", n: 1000, workers: 1, sec: around(tc.lazy)}, sp{impl: "lazy", n: 1000, workers: 2, sec: around(tc.lazy)})
		r, _ := scalingRep(t, tc.spec, recs)
		_, _, charts := sectionText(sectionOwn(r, "mine", said{}))
		var time *document.Figure
		for _, c := range charts {
			if c.YName == ownYNames["time"] && c.XName == ownXNames["workers"] {
				time = c
			}
		}
		if time == nil {
			t.Fatalf("%s: no chart of time by workers among %d", tc.name, len(charts))
		}
		if time.YLog != tc.want {
			t.Errorf("%s: y on a log axis %v, want %v", tc.name, time.YLog, tc.want)
		}
	}
}

// The findings name every failed point; a reason they all share is said
// once, and reasons that differ stay with their points.
func TestOwnFindingsFailedOnce(t *testing.T) {
	spc := strings.Replace(scalingSpec("1, 2"), "n = [1000]", "n = [1000, 2000]", 1)
	recs := scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: around(1.0)}, sp{impl: "amd", n: 1000, workers: 2, sec: around(0.6)})
	for _, w := range []int{1, 2} {
		recs = append(recs, failedRecord("lazy", 2000, w, "killed by signal 11 (segmentation fault)"))
	}
	r, v := scalingRep(t, spc, recs)
	ix := r.Runs[0]
	got := ownFindings(ix, v, "", v.keys(ix))
	want := "2 points failed, with no time, each killed by signal 11 (segmentation fault): lazy, 1 worker at n = 2,000; lazy, 2 workers at n = 2,000."
	if !strings.Contains(got, want) {
		t.Errorf("findings:\n%s\nwant in them:\n%s", got, want)
	}
	recs = append(recs, failedRecord("kern", 2000, 1, "exited with status 1"))
	r, v = scalingRep(t, spc, recs)
	ix = r.Runs[0]
	got = ownFindings(ix, v, "", v.keys(ix))
	for _, w := range []string{"3 points failed, with no time: ", "lazy, 2 workers at n = 2,000 (killed by signal 11 (segmentation fault))", "kern, 1 worker at n = 2,000 (exited with status 1)"} {
		if !strings.Contains(got, w) {
			t.Errorf("findings:\n%s\nwant in them: %s", got, w)
		}
	}
}

// TestOwnClocksSharedRuns: repetitions read from another implementation's
// runs, as their records' notes say, are said to be, with how many; a
// spec that would share them says nothing where the records do not
// (records made before runs were shared, or an impl that ran its own).
func TestOwnClocksSharedRuns(t *testing.T) {
	spec := scalingSpec("1, 2") + `[[impl]]
name = "kern2"
command = ["kern", "{a}", "{b}"]
env = { OMP_NUM_THREADS = "{workers}" }
time_regexp = 'second ([0-9.]+) s'
`
	var pts []sp
	for _, w := range []int{1, 2} {
		for _, impl := range []string{"amd", "lazy", "kern", "kern2"} {
			pts = append(pts, sp{impl: impl, n: 1000, workers: w, sec: around(1 / float64(w))})
		}
	}
	noted := func(except int) []records.Record {
		recs := scaleRecords(pts...)
		seen := 0
		for i := range recs {
			if recs[i].Algorithm == "kern2" {
				if seen++; seen != except {
					recs[i].Note = records.ReadFromNote("kern")
				}
			}
		}
		return recs
	}
	for _, c := range []struct {
		recs []records.Record
		want string
	}{
		{noted(0), "Shared runs: the repetitions of kern2 (14) were read from kern's runs of the same program, each taking its own numbers from the output."},
		{noted(3), "Shared runs: the repetitions of kern2 (13 of 14, the others from its own runs) were read from kern's runs of the same program, each taking"},
	} {
		r, _ := scalingRep(t, spec, c.recs)
		paras, _, _ := sectionText(sectionOwn(r, "mine", said{}))
		if !strings.Contains(paras, c.want) || strings.Count(paras, "Shared runs") != 1 {
			t.Errorf("the section does not say %q once:\n%s", c.want, paras)
		}
	}
	r, _ := scalingRep(t, spec, scaleRecords(pts...))
	if paras, _, _ := sectionText(sectionOwn(r, "mine", said{})); strings.Contains(paras, "Shared runs") {
		t.Errorf("records without the note are said to share runs:\n%s", paras)
	}
}

// TestMethodWithoutBenchmarks: records of one's own, with no benchmark
// file beside them, get no sentence on the benchmarks' runs.
func TestMethodWithoutBenchmarks(t *testing.T) {
	r, _ := scalingRep(t, scalingSpec("1"), scaleRecords(sp{impl: "lazy", n: 1000, workers: 1, sec: around(1)}))
	paras, _, _ := sectionText(sectionMethod(r))
	if !strings.Contains(paras, "Timing: each point's inputs") || strings.Contains(paras, "The benchmarks (make bench-results") {
		t.Errorf("Method says of benchmarks where none was read:\n%s", paras)
	}
}

// A figure of series by implementation and workers draws each
// implementation in one hue (one Group) and its worker counts as that
// hue's variants, in the order first drawn; by implementation alone, no
// series is grouped.
func TestOwnSeriesKeepTheirImplementationsHue(t *testing.T) {
	recs := scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: around(0.001)}, sp{impl: "amd", n: 1000, workers: 2, sec: around(0.0008)},
		sp{impl: "lazy", n: 1000, workers: 1, sec: around(0.002)}, sp{impl: "lazy", n: 1000, workers: 2, sec: around(0.002)})
	byWorkers := scalingSpec("1, 2") + "[[figure]]\nx = \"n\"\ny = \"time\"\nseries = [\"impl\", \"workers\"]\n"
	r, v := scalingRep(t, byWorkers, recs)
	c := ownChart(r, v, v.sp.Figures()[0], 0, "", nil)
	got := map[string][2]any{}
	for _, s := range c.Series {
		got[s.Name] = [2]any{s.Group, s.Machine}
	}
	want := map[string][2]any{
		"amd, 1 worker": {"amd", 0}, "amd, 2 workers": {"amd", 1},
		"lazy, 1 worker": {"lazy", 0}, "lazy, 2 workers": {"lazy", 1},
	}
	if !maps.Equal(got, want) {
		t.Errorf("series by implementation and workers: %v, want %v", got, want)
	}

	byImpl := scalingSpec("1") + "[[figure]]\nx = \"n\"\ny = \"time\"\nseries = [\"impl\"]\n"
	r, v = scalingRep(t, byImpl, scaleRecords(sp{impl: "amd", n: 1000, workers: 1, sec: around(0.001)}, sp{impl: "lazy", n: 1000, workers: 1, sec: around(0.002)}))
	for _, s := range ownChart(r, v, v.sp.Figures()[0], 0, "", nil).Series {
		if s.Group != "" || s.Machine != 0 {
			t.Errorf("series %q by implementation alone: group %q, variant %d; want none", s.Name, s.Group, s.Machine)
		}
	}
}
