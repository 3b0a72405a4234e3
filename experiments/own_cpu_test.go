package experiments

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// TestOwnCPUSeconds: every timed row of an experiment of one's own holds
// its CPU time — a command's from its rusage, a Go function's and a lev
// algorithm's from the process's over the call — and a busy Go function
// of 30 ms holds about that, never more than its wall time on every core.
func TestOwnCPUSeconds(t *testing.T) {
	s, err := spec.Parse("cpu.toml", []byte(`name = "cpu"
reps = 2
[inputs]
case = "identical"
n = [1500]
[[impl]]
name = "shell"
command = ["sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo 0"]
[[impl]]
name = "lev"
algo = "fullmatrix"
`))
	if err != nil {
		t.Fatal(err)
	}
	// busy spins until this process has spent 30 ms of CPU, not of wall
	// time: on a loaded machine a wall-time spin gets less of a core.
	busy := func(_ context.Context, a, b []byte, workers, tile int) (int, error) {
		start, ok := progrun.SelfCPU()
		for end := time.Now().Add(5 * time.Second); ok && time.Now().Before(end); {
			if now, _ := progrun.SelfCPU(); now-start >= 0.03 {
				break
			}
		}
		return 0, nil
	}
	own, err := FromSpec(s, map[string]Func{"busy": busy})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	dir := t.TempDir()
	if _, err := (&Runner{Dir: dir, Reps: s.RepsOr()}).Run(context.Background(), []Experiment{own.Experiment}); err != nil {
		t.Fatal(err)
	}
	recs, err := records.ReadRecords(filepath.Join(dir, "cpu.csv"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range recs {
		if r.Status != records.StatusOK {
			t.Errorf("row not ok: %+v", r)
			continue
		}
		seen[r.Algorithm]++
		cores := float64(r.Cores)
		if r.CPUSeconds <= 0 || r.CPUSeconds > cores*r.Seconds+0.01 {
			t.Errorf("%s rep %d: cpu_seconds %g for %g s on %v cores; want in (0, cores·seconds]", r.Algorithm, r.Rep, r.CPUSeconds, r.Seconds, cores)
		}
		if r.Algorithm == "busy" && r.CPUSeconds < 0.02 {
			t.Errorf("busy rep %d: cpu_seconds %g; want about 0.03", r.Rep, r.CPUSeconds)
		}
	}
	for _, name := range []string{"shell", "lev", "busy"} {
		if seen[name] != 2 {
			t.Errorf("%s: %d ok rows, want 2", name, seen[name])
		}
	}
}
