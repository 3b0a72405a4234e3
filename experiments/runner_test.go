package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/levlab/levlab/records"
)

// fakeExperiment has three small points; the third asks for a GPU.
func fakeExperiment(name string) Experiment {
	return Experiment{
		Name:   name,
		Source: "000_test.txt Table 9",
		Title:  "a fake for the runner's tests",
		Points: func(sc Scale) []Point {
			n := 50
			if sc == Paper {
				n = 80
			}
			return []Point{
				{Algorithm: "tworow", Case: "random", LenA: n, LenB: n},
				{Algorithm: "tiled", Workers: 2, Tile: 16, GPURatio: 0.1, Case: "identical", LenA: n, LenB: n + 1},
				{Algorithm: "cuda-fast", Block: 256, Case: "random", LenA: n, LenB: n},
			}
		},
	}
}

// fakeSeconds is what the fake Measure returns for call i: numbers with
// every digit of a float64 in use, to see them read back unchanged.
func fakeSeconds(i int64) float64 { return (float64(i) + 1) / 3 * 1e-5 }

// fakes puts a fake Inputs and Measure in place for the test. measure
// gets the number of the call, counting from 1.
func fakes(t *testing.T, measure func(ctx context.Context, n int64, p Point) (Measurement, error)) {
	t.Helper()
	oldM, oldI := measureFn, inputsFn
	t.Cleanup(func() { measureFn, inputsFn = oldM, oldI })
	var calls atomic.Int64
	inputsFn = func(e Experiment, p Point) ([]byte, []byte, error) {
		return bytes.Repeat([]byte("a"), p.LenA), bytes.Repeat([]byte("b"), p.LenB), nil
	}
	measureFn = func(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
		if len(a) != p.LenA || len(b) != p.LenB {
			t.Errorf("Measure got inputs of %d and %d, want %d and %d", len(a), len(b), p.LenA, p.LenB)
		}
		return measure(ctx, calls.Add(1), p)
	}
}

// okMeasure measures every point, the GPU one included.
func okMeasure(_ context.Context, n int64, p Point) (Measurement, error) {
	return Measurement{Seconds: fakeSeconds(n), Distance: p.LenB, AllocBytes: 1 << 20, Ran: p.Algorithm, RanWorkers: 2, Computed: int64(p.LenA)}, nil
}

// noGPU skips the GPU point and measures the others.
func noGPU(ctx context.Context, n int64, p Point) (Measurement, error) {
	if strings.HasPrefix(p.Algorithm, "cuda") {
		return Measurement{}, fmt.Errorf("%w: cudaext: no device", ErrSkipped)
	}
	return okMeasure(ctx, n, p)
}

// okReps counts the ok rows per point key and checks that each point's
// repetitions are 1..n once each.
func okReps(t *testing.T, recs []Record) map[string]int {
	t.Helper()
	count := map[string]int{}
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Status != StatusOK {
			continue
		}
		k := fmt.Sprintf("%s#%d", pointOf(r).Key(), r.Rep)
		if seen[k] {
			t.Errorf("repetition %s recorded twice", k)
		}
		seen[k] = true
		count[pointOf(r).Key()]++
	}
	for k, n := range count {
		for rep := 1; rep <= n; rep++ {
			if !seen[fmt.Sprintf("%s#%d", k, rep)] {
				t.Errorf("point %s: %d rows but repetition %d is missing", k, n, rep)
			}
		}
	}
	return count
}

func TestRunWritesRecords(t *testing.T) {
	fakes(t, okMeasure)
	dir := filepath.Join(t.TempDir(), "results", "m", "quick")
	e := fakeExperiment("fake")
	r := Runner{Dir: dir, Reps: 3}
	sum, err := r.Run(context.Background(), []Experiment{e})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "fake.csv")
	want := Summary{Files: []string{path}, Records: 9}
	if fmt.Sprint(sum) != fmt.Sprint(want) {
		t.Errorf("summary %+v, want %+v", sum, want)
	}
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 9 {
		t.Fatalf("%d records, want 9", len(recs))
	}
	m := CurrentMachine()
	call := int64(0)
	for i, rec := range recs {
		p := e.Points(Quick)[i/3]
		call++
		if i%3 == 0 {
			call++ // the warm-up
		}
		want := Record{
			Experiment: "fake", Source: e.Source, Scale: "quick",
			Algorithm: p.Algorithm, Ran: p.Algorithm, Workers: p.Workers, Tile: p.Tile, Block: p.Block,
			GPURatio: p.GPURatio, Ranks: p.Ranks, Case: p.Case, LenA: p.LenA, LenB: p.LenB,
			Rep: i%3 + 1, Status: StatusOK, Seconds: fakeSeconds(call),
			Cells: int64(p.LenA * p.LenB), GCUPS: float64(p.LenA*p.LenB) / fakeSeconds(call) / 1e9,
			Computed: int64(p.LenA), Distance: p.LenB, AllocBytes: 1 << 20, RanWorkers: 2,
			CPU: m.CPU, Cores: m.Cores, GPU: m.GPU, GoVersion: m.GoVersion, Commit: m.Commit,
			Timestamp: rec.Timestamp,
		}
		if rec != want {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, rec, want)
		}
		if len(rec.Timestamp) != len("2006-01-02T15:04:05Z") || !strings.HasSuffix(rec.Timestamp, "Z") {
			t.Errorf("record %d: timestamp %q is not RFC 3339 UTC", i, rec.Timestamp)
		}
	}
	// The file starts with the header and every line is whole.
	data := readFile(t, path)
	if !bytes.HasPrefix(data, []byte(strings.Join(records.RecordColumns(), ",")+"\n")) {
		t.Errorf("file does not start with the header:\n%s", data)
	}
	// A second run has nothing to do and changes nothing.
	sum, err = r.Run(context.Background(), []Experiment{e})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 0 || sum.Resumed != 3 {
		t.Errorf("second run: %+v, want no records and 3 points resumed", sum)
	}
	if !bytes.Equal(readFile(t, path), data) {
		t.Error("second run changed the file")
	}
}

func TestRunResume(t *testing.T) {
	const reps = 4
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel inside the 9th call: the 2nd point's 3rd timed repetition
	// (calls: warm-up, 4 reps, warm-up, rep 1, rep 2, rep 3).
	fakes(t, func(_ context.Context, n int64, p Point) (Measurement, error) {
		if n == 9 {
			cancel()
			return Measurement{}, context.Canceled
		}
		return okMeasure(ctx, n, p)
	})
	dir := t.TempDir()
	exps := []Experiment{fakeExperiment("a"), fakeExperiment("b")}
	r := Runner{Dir: dir, Reps: reps}
	sum, err := r.Run(ctx, exps)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run stopped with %v, want context.Canceled", err)
	}
	if !strings.Contains(err.Error(), "a, point tiled") {
		t.Errorf("error %q does not say where the run stopped", err)
	}
	if sum.Records != 6 {
		t.Errorf("first run wrote %d records, want 6", sum.Records)
	}
	recs, err := records.ReadRecords(filepath.Join(dir, "a.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("after the interruption the file holds %d records, want 6", len(recs))
	}

	fakes(t, okMeasure)
	sum, err = r.Run(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 3*2*reps-6 || sum.Resumed != 2 {
		t.Errorf("second run: %+v, want %d records, 2 points resumed", sum, 3*2*reps-6)
	}
	for _, name := range []string{"a", "b"} {
		recs, err := records.ReadRecords(filepath.Join(dir, name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		count := okReps(t, recs)
		for _, p := range fakeExperiment(name).Points(Quick) {
			if count[p.Key()] != reps {
				t.Errorf("%s: point %s has %d repetitions, want %d", name, p.Key(), count[p.Key()], reps)
			}
		}
	}

	// More repetitions asked later add to what is there.
	r.Reps = reps + 2
	if sum, err = r.Run(context.Background(), exps); err != nil {
		t.Fatal(err)
	}
	if sum.Records != 3*2*2 {
		t.Errorf("raising Reps wrote %d records, want %d", sum.Records, 3*2*2)
	}
	recs, _ = records.ReadRecords(filepath.Join(dir, "b.csv"))
	for k, n := range okReps(t, recs) {
		if n != reps+2 {
			t.Errorf("point %s has %d repetitions, want %d", k, n, reps+2)
		}
	}
}

// TestRunCancelledBetweenPoints cancels from the progress callback, as a
// notebook's stop button would, and checks nothing more is timed.
func TestRunCancelledBetweenPoints(t *testing.T) {
	fakes(t, okMeasure)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := Runner{Dir: t.TempDir(), Reps: 2, Progress: func(pr Progress) {
		if pr.DonePoints == 1 {
			cancel()
		}
	}}
	sum, err := r.Run(ctx, []Experiment{fakeExperiment("x")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if sum.Records != 2 {
		t.Errorf("%d records, want 2", sum.Records)
	}
}

func TestRunFresh(t *testing.T) {
	fakes(t, okMeasure)
	dir := t.TempDir()
	exps := []Experiment{fakeExperiment("f")}
	r := Runner{Dir: dir, Reps: 2}
	if _, err := r.Run(context.Background(), exps); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "f.csv")
	old := readFile(t, path)
	r.Fresh = true
	for range 2 { // twice within a second: the second .bak must not overwrite the first
		sum, err := r.Run(context.Background(), exps)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Records != 6 || sum.Resumed != 0 {
			t.Errorf("fresh run: %+v, want 6 records and none resumed", sum)
		}
	}
	baks, _ := filepath.Glob(path + ".*.bak")
	if len(baks) != 2 {
		t.Fatalf("backups %v, want 2", baks)
	}
	found := false
	for _, b := range baks {
		if bytes.Equal(readFile(t, b), old) {
			found = true
		}
	}
	if !found {
		t.Error("the first run's file is not among the backups unchanged")
	}
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Errorf("fresh file holds %d records, want 6", len(recs))
	}
}

func TestRunSkipped(t *testing.T) {
	fakes(t, noGPU)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.csv")
	exps := []Experiment{fakeExperiment("s")}
	r := Runner{Dir: dir, Reps: 2}
	for run := 1; run <= 2; run++ {
		sum, err := r.Run(context.Background(), exps)
		if err != nil {
			t.Fatal(err)
		}
		wantRecords := 5
		if run == 2 {
			wantRecords = 0 // the same reason again is not written twice
		}
		if sum.Skipped != 1 || sum.Records != wantRecords {
			t.Errorf("run %d: %+v, want 1 skipped, %d records", run, sum, wantRecords)
		}
		recs, err := records.ReadRecords(path)
		if err != nil {
			t.Fatal(err)
		}
		var skipped []Record
		for _, rec := range recs {
			if rec.Status == StatusSkipped {
				skipped = append(skipped, rec)
			}
		}
		if len(skipped) != 1 {
			t.Fatalf("run %d: %d skipped rows, want 1", run, len(skipped))
		}
		s := skipped[0]
		if s.Algorithm != "cuda-fast" || s.Rep != 0 || s.Note != "skipped: cudaext: no device" || s.Seconds != 0 {
			t.Errorf("skipped row %+v", s)
		}
	}
	// A GPU appears: the point runs; the old row stays as history.
	fakes(t, okMeasure)
	sum, err := r.Run(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 0 || sum.Records != 2 {
		t.Errorf("with a GPU: %+v, want 2 records, none skipped", sum)
	}
	recs, _ := records.ReadRecords(path)
	if len(recs) != 7 {
		t.Errorf("%d rows, want 7", len(recs))
	}
}

func TestRunMeasureError(t *testing.T) {
	boom := errors.New("boom")
	fakes(t, func(ctx context.Context, n int64, p Point) (Measurement, error) {
		if p.Algorithm == "tiled" {
			return Measurement{}, boom
		}
		return okMeasure(ctx, n, p)
	})
	dir := t.TempDir()
	_, err := (&Runner{Dir: dir, Reps: 2}).Run(context.Background(), []Experiment{fakeExperiment("e")})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "e, point tiled|w2|t16") {
		t.Errorf("got %v, want boom naming experiment e and the tiled point", err)
	}
	recs, err := records.ReadRecords(filepath.Join(dir, "e.csv"))
	if err != nil || len(recs) != 2 {
		t.Errorf("the first point's %d records (err %v), want 2", len(recs), err)
	}
}

func TestRunProgress(t *testing.T) {
	fakes(t, noGPU)
	var got []Progress
	var lines bytes.Buffer
	r := Runner{Dir: t.TempDir(), Reps: 3, Out: &lines, Progress: func(pr Progress) { got = append(got, pr) }}
	exps := []Experiment{fakeExperiment("p1"), fakeExperiment("p2")}
	if _, err := r.Run(context.Background(), exps); err != nil {
		t.Fatal(err)
	}
	// Per experiment: 3 + 3 repetitions and one skipped point.
	if len(got) != 2*(3+3+1) {
		t.Fatalf("%d progress reports, want 14", len(got))
	}
	prevDone := 0
	for i, pr := range got {
		if pr.TotalPoints != 6 || pr.Reps != 3 || pr.DonePoints < prevDone || pr.DonePoints > 6 {
			t.Errorf("report %d: %+v", i, pr)
		}
		prevDone = pr.DonePoints
		switch {
		case pr.Skipped:
			if pr.Rep != 0 || !strings.Contains(pr.Note, "no device") || pr.Point.Algorithm != "cuda-fast" {
				t.Errorf("report %d: %+v", i, pr)
			}
		case pr.Rep < 1 || pr.Rep > 3:
			t.Errorf("report %d: rep %d", i, pr.Rep)
		}
	}
	if last := got[len(got)-1]; last.DonePoints != 6 || last.Experiment != "p2" {
		t.Errorf("last report %+v, want 6 of 6 points done in p2", last)
	}
	// Out is not a terminal: one line per point.
	if n := strings.Count(lines.String(), "\n"); n != 6 {
		t.Errorf("%d lines on Out, want 6:\n%s", n, lines.String())
	}
	// The skip reason in full the first time, pointed at the second.
	if !strings.Contains(lines.String(), "p1 cuda-fast block=256 random 50x50: skipped: cudaext: no device") ||
		!strings.Contains(lines.String(), "[6/6] p2 cuda-fast block=256 random 50x50: skipped, for the reason above") {
		t.Errorf("lines on Out:\n%s", lines.String())
	}

	// Resumed points are reported once each, as recorded earlier.
	got = nil
	lines.Reset()
	if _, err := r.Run(context.Background(), exps); err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 || got[0].Note != noteRecorded || got[0].Rep != 3 || got[5].DonePoints != 6 {
		t.Errorf("resumed run reports %+v", got)
	}
}

func TestRunBadSettings(t *testing.T) {
	fakes(t, okMeasure)
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	exps := []Experiment{fakeExperiment("x")}
	for _, tc := range []struct {
		name string
		r    Runner
		want string
	}{
		{"unknown scale", Runner{Scale: "huge", Dir: t.TempDir()}, `scale "huge" is unknown`},
		{"negative reps", Runner{Reps: -1, Dir: t.TempDir()}, "Reps is -1"},
		{"no dir", Runner{}, "Dir is empty"},
		// Under a regular file: fails for root too, where a read-only
		// folder would not.
		{"unwritable dir", Runner{Dir: filepath.Join(file, "sub")}, filepath.Join(file, "sub")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.r.Run(context.Background(), exps)
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	dup := fakeExperiment("d")
	pts := dup.Points(Quick)
	dup.Points = func(Scale) []Point { return append(pts, pts[0]) }
	if _, err := (&Runner{Dir: t.TempDir()}).Run(context.Background(), []Experiment{dup}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate point: got %v", err)
	}
	bad := fakeExperiment("../up")
	if _, err := (&Runner{Dir: t.TempDir()}).Run(context.Background(), []Experiment{bad}); err == nil || !strings.Contains(err.Error(), "cannot name a file") {
		t.Errorf("bad name: got %v", err)
	}
}

// TestRunBadFile checks that a file the runner cannot trust stops the run
// before anything is timed, names the file and line, and is left as it
// was.
func TestRunBadFile(t *testing.T) {
	fakes(t, okMeasure)
	src := t.TempDir()
	if _, err := (&Runner{Dir: src, Reps: 2}).Run(context.Background(), []Experiment{fakeExperiment("g")}); err != nil {
		t.Fatal(err)
	}
	good := readFile(t, filepath.Join(src, "g.csv"))
	lines := strings.SplitAfter(string(good), "\n") // header, 6 rows, ""
	header := records.RecordColumns()

	replaceField := func(line, col, val string) string {
		f := strings.Split(strings.TrimSuffix(line, "\n"), ",")
		for i, h := range header {
			if h == col {
				f[i] = val
			}
		}
		return strings.Join(f, ",") + "\n"
	}
	for _, tc := range []struct {
		name    string
		content string
		want    []string // in the error, after the path
	}{
		{"letters in a float", lines[0] + lines[1] + lines[2] + replaceField(lines[3], "seconds", "abc") + lines[4],
			[]string{":4:", `column "seconds"`, "abc"}},
		{"letters in an int", lines[0] + replaceField(lines[1], "rep", "x1"),
			[]string{":2:", `column "rep"`}},
		{"torn last line", lines[0] + lines[1] + lines[2][:len(lines[2])/2],
			[]string{":3:", "incomplete"}},
		{"too few fields", lines[0] + lines[1] + "fake,1,2\n" + lines[2],
			[]string{":3:", "3 fields, the header has"}},
		{"missing and extra columns", strings.Replace(strings.Replace(good2(lines), "gpu,", "gpu_name,", 1), ",commit", ",sha", 1),
			[]string{":1:", "missing columns: gpu, commit", "extra columns: gpu_name, sha"}},
		{"columns in another order", swapFirstColumns(lines),
			[]string{":1:", "another order"}},
		{"bad quoting", lines[0] + `"unterminated,` + lines[1],
			[]string{":2:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "g.csv")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var calls atomic.Int64
			fakes(t, func(ctx context.Context, n int64, p Point) (Measurement, error) {
				calls.Add(1)
				return okMeasure(ctx, n, p)
			})
			_, err := (&Runner{Dir: dir, Reps: 2}).Run(context.Background(), []Experiment{fakeExperiment("g")})
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			for _, w := range append([]string{path}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if calls.Load() != 0 {
				t.Errorf("Measure was called %d times before the error", calls.Load())
			}
			if !bytes.Equal(readFile(t, path), []byte(tc.content)) {
				t.Error("the file was changed")
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("the folder holds %d entries, want only the file", len(ents))
			}
		})
	}
}

// good2 is a header and two rows.
func good2(lines []string) string { return lines[0] + lines[1] + lines[2] }

// swapFirstColumns returns a header and two rows with the first two
// columns swapped: readable, but not appendable.
func swapFirstColumns(lines []string) string {
	var b strings.Builder
	for _, l := range lines[:3] {
		f := strings.Split(l, ",")
		f[0], f[1] = f[1], f[0]
		b.WriteString(strings.Join(f, ","))
	}
	return b.String()
}

func TestRunNoPoints(t *testing.T) {
	fakes(t, okMeasure)
	e := fakeExperiment("empty")
	e.Points = func(Scale) []Point { return nil }
	dir := t.TempDir()
	sum, err := (&Runner{Dir: dir}).Run(context.Background(), []Experiment{e})
	if err != nil || len(sum.Files) != 0 {
		t.Errorf("got %+v, %v; want nothing done", sum, err)
	}
}

// BenchmarkRunnerPerRep times what the runner does around Measure per
// repetition (a fake Measure that returns at once): building the record,
// appending its line, reporting progress, and the point's share of the
// warm-up, inputs and one fsync.
func BenchmarkRunnerPerRep(b *testing.B) {
	for _, reps := range []int{10, 1000} {
		b.Run(fmt.Sprintf("reps=%d", reps), func(b *testing.B) {
			oldM, oldI := measureFn, inputsFn
			defer func() { measureFn, inputsFn = oldM, oldI }()
			in := make([]byte, 50)
			inputsFn = func(Experiment, Point) ([]byte, []byte, error) { return in, in, nil }
			measureFn = func(context.Context, Point, []byte, []byte) (Measurement, error) {
				return Measurement{Seconds: 1.2345678901234e-5, Distance: 42}, nil
			}
			e := fakeExperiment("bench")
			pts := e.Points(Quick)[:1]
			e.Points = func(Scale) []Point { return pts }
			r := Runner{Dir: b.TempDir(), Reps: reps, Fresh: true, Progress: func(Progress) {}}
			exps := []Experiment{e}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Run(context.Background(), exps); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				os.RemoveAll(r.Dir)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*reps), "ns/rep")
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRunShards: three shards, run at once into one folder (each with its
// own files and lock), time every point of the run exactly once between
// them, every third point of the experiments in order each; a shard run
// again resumes its own files; a shard out of range is refused.
func TestRunShards(t *testing.T) {
	fakes(t, okMeasure)
	dir := t.TempDir()
	exps := []Experiment{fakeExperiment("a"), fakeExperiment("b")}
	const n, reps = 3, 2
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := (&Runner{Dir: dir, Reps: reps, Shard: i, Shards: n}).Run(context.Background(), exps)
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]int{} // point: its shard
	for i := range n {
		for _, e := range exps {
			path := filepath.Join(dir, fmt.Sprintf("%s.shard-%d-of-%d.csv", e.Name, i, n))
			if _, err := os.Stat(path); os.IsNotExist(err) {
				continue // a shard with none of its points
			}
			recs, err := records.ReadRecords(path)
			if err != nil {
				t.Fatal(err)
			}
			for k, c := range okReps(t, recs) {
				if c != reps {
					t.Errorf("%s: %s has %d repetitions, want %d", path, k, c, reps)
				}
				k = e.Name + " " + k
				if s, twice := got[k]; twice && s != i {
					t.Errorf("%s timed by shards %d and %d", k, s, i)
				}
				got[k] = i
			}
		}
	}
	idx := 0
	for _, e := range exps {
		for _, p := range e.Points(Quick) {
			if s, ok := got[e.Name+" "+p.Key()]; !ok || s != idx%n {
				t.Errorf("%s %s: timed by shard %d (found %v), want %d", e.Name, p.Key(), s, ok, idx%n)
			}
			idx++
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.csv")); !os.IsNotExist(err) {
		t.Errorf("a shard wrote the unsharded file a.csv: %v", err)
	}
	sum, err := (&Runner{Dir: dir, Reps: reps, Shard: 1, Shards: n}).Run(context.Background(), exps)
	if err != nil || sum.Records != 0 || sum.Resumed == 0 {
		t.Errorf("shard 1 again: %+v, %v; want nothing timed, its points resumed", sum, err)
	}
	for _, bad := range [][2]int{{3, 3}, {-1, 2}, {0, -1}} {
		if _, err := (&Runner{Dir: dir, Shard: bad[0], Shards: bad[1]}).Run(context.Background(), exps); err == nil || !strings.Contains(err.Error(), "shard") {
			t.Errorf("shard %d of %d: %v; want an error", bad[0], bad[1], err)
		}
	}
}
