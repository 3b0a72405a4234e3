package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/records"
)

// TestRunInterruptAndResume interrupts levlab run as Ctrl-C would, and as
// SIGTERM does (Slurm, systemd, timeout), then runs the command it prints
// to resume, and checks that the two runs together record every
// repetition exactly once.
func TestRunInterruptAndResume(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) { testRunInterruptAndResume(t, sig) })
	}
}

func testRunInterruptAndResume(t *testing.T, sig os.Signal) {
	if testing.Short() {
		t.Skip("builds the binary and times an experiment; not in -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	const name, reps = "s000-table1", 3
	exps, err := experiments.Lookup([]string{name})
	if err != nil {
		t.Skipf("the catalog has no %s: %v", name, err)
	}
	points := exps[0].Points(experiments.Quick)
	bin := buildLevlab(t)
	dir := t.TempDir()
	path := filepath.Join(dir, name+".csv")

	cmd := exec.Command(bin, "run", "--only", name, "--reps", strconv.Itoa(reps), "--out", dir)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the first point is done (a line per point: stderr is
	// no terminal).
	var stderr strings.Builder
	sc := bufio.NewScanner(pipe)
	signalled := false
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
		if !signalled && strings.HasPrefix(sc.Text(), "[1/") {
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			signalled = true
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		t.Skipf("the run finished before the interrupt reached it:\n%s", stderr.String())
	case !errors.As(err, &exit) || exit.ExitCode() != exitFailure:
		t.Fatalf("interrupted levlab run: %v, want exit status 1; stderr:\n%s", err, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("interrupted levlab run printed %q on stdout", stdout.String())
	}
	_, resume, ok := strings.Cut(stderr.String(), "To resume: ")
	resume, _, _ = strings.Cut(resume, "\n")
	if !ok || !strings.HasPrefix(resume, "levlab run ") || !strings.Contains(resume, dir) {
		t.Fatalf("interrupted levlab run does not say how to resume:\n%s", stderr.String())
	}
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatalf("after the interrupt: %v", err)
	}
	if len(recs) == 0 || len(recs) >= len(points)*reps {
		t.Errorf("after the interrupt %s holds %d records of %d", path, len(recs), len(points)*reps)
	}

	// The paths here hold no character a shell would treat specially.
	args := strings.Fields(resume)[1:]
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("levlab %q: %v", args, err)
	}
	if !strings.Contains(string(out), "resumed") {
		t.Errorf("the resumed run printed:\n%s", out)
	}
	recs, err = records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	// Every point has repetitions 1..reps once each, or is skipped.
	okReps := make(map[string][]int)
	skipped := make(map[string]bool)
	for _, r := range recs {
		if r.Status == records.StatusOK {
			okReps[pointKey(r)] = append(okReps[pointKey(r)], r.Rep)
		} else {
			skipped[pointKey(r)] = true
		}
	}
	wantReps := make([]int, reps)
	for i := range wantReps {
		wantReps[i] = i + 1
	}
	for _, p := range points {
		got := okReps[p.Key()]
		slices.Sort(got)
		if !slices.Equal(got, wantReps) && !(len(got) == 0 && skipped[p.Key()]) {
			t.Errorf("after resuming, point %s has repetitions %v, want 1..%d once each", p.Key(), got, reps)
		}
	}
}

func pointKey(r records.Record) string {
	return experiments.Point{
		Algorithm: r.Algorithm, Workers: r.Workers, Tile: r.Tile, Block: r.Block,
		GPURatio: r.GPURatio, Ranks: r.Ranks, Case: r.Case, LenA: r.LenA, LenB: r.LenB,
	}.Key()
}
