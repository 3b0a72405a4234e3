package experiments

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// ownSpec is a spec of lev's myers and whatever Go functions are added,
// over three lengths and two worker counts.
func ownSpec(t *testing.T) *spec.Spec {
	t.Helper()
	s, err := spec.Parse("own.toml", []byte(`name = "own"
reps = 3
[inputs]
case = "dna"
n = [20, 150, 400]
[params]
workers = [1, 2]
[[impl]]
name = "lev"
algo = "myers"
`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFromSpecFuncs runs a spec with two Go implementations beside lev's:
// one right, one wrong past 100 symbols. The right ones are timed, the
// wrong one's long points are failed rows with the answers, and the
// inputs are the same for every implementation at a length.
func TestFromSpecFuncs(t *testing.T) {
	s := ownSpec(t)
	s.Params.Workers = []int{1} // myers is sequential
	seen := map[int]string{}
	right := func(_ context.Context, a, b []byte, workers, tile int) (int, error) {
		if prev, ok := seen[len(a)]; ok && prev != string(a) {
			t.Errorf("n = %d: the inputs differ between calls", len(a))
		}
		seen[len(a)] = string(a)
		return lev.Distance(a, b)
	}
	wrong := func(ctx context.Context, a, b []byte, workers, tile int) (int, error) {
		d, err := right(ctx, a, b, workers, tile)
		if len(a) > 100 {
			d++
		}
		return d, err
	}
	own, err := FromSpec(s, map[string]Func{"right": right, "wrong": wrong})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	own.KeepGoing = true // every point timed: wrong fails at both sizes past 100
	dir := t.TempDir()
	sum, err := (&Runner{Dir: dir, Reps: s.RepsOr()}).Run(context.Background(), []Experiment{own.Experiment})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) != 2 || !strings.Contains(sum.Failed[0], "wrong") {
		t.Errorf("failed %q, want wrong at 150 and 400", sum.Failed)
	}
	recs, err := records.ReadRecords(filepath.Join(dir, "own.csv"))
	if err != nil {
		t.Fatal(err)
	}
	okRows, failedRows := 0, 0
	for _, r := range recs {
		switch {
		case r.Status == records.StatusOK:
			okRows++
			if r.Algorithm == "wrong" && r.LenA > 100 {
				t.Errorf("a time of a wrong answer was kept: %+v", r)
			}
		case r.Status == records.StatusFailed:
			failedRows++
			if r.Algorithm != "wrong" || r.LenA <= 100 || !strings.HasPrefix(r.Note, "failed: answered ") || r.Source != records.SourceOwn {
				t.Errorf("failed row %+v", r)
			}
		}
	}
	// lev and right at 3 lengths, wrong at 1, 3 reps each.
	if okRows != (3+3+1)*3 || failedRows != 2 {
		t.Errorf("%d ok rows and %d failed, want 21 and 2", okRows, failedRows)
	}
}

// A spec's algorithm that lev does not have, or that refuses the grid's
// workers, and a Go function with a spec's name, are refused up front.
func TestFromSpecRefuses(t *testing.T) {
	s := ownSpec(t)
	if _, err := FromSpec(s, nil); err == nil || !strings.Contains(err.Error(), "impl lev (algo myers) at workers 2") || !errors.Is(err, lev.ErrInvalidOption) ||
		!strings.Contains(err.Error(), "name one that takes them (auto, ") || !strings.Contains(err.Error(), "myers-parallel)") {
		t.Errorf("myers at 2 workers, with the algorithms that take them: %v", err)
	}
	s.Params.Workers = nil
	if _, err := FromSpec(s, map[string]Func{"lev": nil}); err == nil || !strings.Contains(err.Error(), `"lev"`) {
		t.Errorf("a Go function named as the spec's impl: %v", err)
	}
	s.Impl[0].Algo = "quickest"
	if _, err := FromSpec(s, nil); err == nil || !strings.Contains(err.Error(), "quickest") {
		t.Errorf("an unknown algorithm: %v", err)
	}
}

// BenchmarkCommandRun times one timed run of a command as the runner makes
// it — expanding the placeholders, fork and exec, reading the answer, the
// check — on a C program that only prints 0 (the inputs are one identical
// symbol each): what a run costs beyond the program's own work. ns/op is
// the whole call; ms-timed/op the part the record holds as the time.
func BenchmarkCommandRun(b *testing.B) {
	prog := zeroProgram(b)
	s, err := spec.Parse("b.toml", []byte(`name = "b"
[inputs]
case = "identical"
n = [1]
[[impl]]
name = "zero"
command = ["`+prog+`", "{a}", "{b}"]
`))
	if err != nil {
		b.Fatal(err)
	}
	own, err := FromSpec(s, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer own.Close()
	p := own.Points(Quick)[0]
	x, y, err := own.Inputs(p)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var timed float64
	for b.Loop() {
		m, err := own.Measure(ctx, p, x, y)
		if err != nil {
			b.Fatal(err)
		}
		timed += m.Seconds
	}
	b.ReportMetric(timed/float64(b.N)*1e3, "ms-timed/op")
}

// BenchmarkBareExec runs the same program with os/exec alone, its stdout
// read: the cost of making a process on this machine, which
// BenchmarkCommandRun's exceeds by the runner's own.
func BenchmarkBareExec(b *testing.B) {
	prog := zeroProgram(b)
	for b.Loop() {
		if out, err := exec.Command(prog, "a", "b").Output(); err != nil || string(out) != "0\n" {
			b.Fatalf("%q, %v", out, err)
		}
	}
}

// zeroProgram compiles a C program that prints 0 and returns its path.
func zeroProgram(b *testing.B) string {
	cc, err := exec.LookPath("cc")
	if err != nil {
		b.Skipf("no C compiler: %v", err)
	}
	dir := b.TempDir()
	src, prog := filepath.Join(dir, "zero.c"), filepath.Join(dir, "zero")
	if err := os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-o", prog, src).CombinedOutput(); err != nil {
		b.Fatalf("cc: %v\n%s", err, out)
	}
	return prog
}
