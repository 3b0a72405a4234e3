package progrun

import (
	"context"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestRunOnCores holds a program to one core: nproc, which counts the
// cores a process may use, then prints 1; left free it prints them all.
func TestRunOnCores(t *testing.T) {
	cores := Cores()
	if len(cores) < 2 {
		t.Skipf("%d core(s) here: nothing to hold a program to", len(cores))
	}
	if _, err := exec.LookPath("nproc"); err != nil {
		t.Skip("no nproc")
	}
	ctx := context.Background()
	o := Options{Reading: Reading{Timeout: 10 * time.Second}}
	free, err := Run(ctx, []string{"nproc"}, o)
	if err != nil || free.Distance != len(cores) {
		t.Fatalf("nproc free: %+v, %v; want %d", free, err, len(cores))
	}
	for _, c := range cores[len(cores)-2:] {
		o.Cores = []int{c}
		held, err := Run(ctx, []string{"nproc"}, o)
		if err != nil || held.Distance != 1 {
			t.Errorf("nproc held to core %d: %+v, %v; want 1", c, held, err)
		}
	}
	// The thread that started them is free again.
	free, err = Run(ctx, []string{"nproc"}, Options{Reading: Reading{Timeout: 10 * time.Second}})
	if err != nil || free.Distance != len(cores) {
		t.Errorf("nproc free after: %+v, %v; want %d", free, err, len(cores))
	}
}

// TestRunSeesQuickExits starts programs that exit at once, many at a
// time: each exit must be seen (it may come before Run waits for it),
// where a missed one would hang its run until the time-out.
func TestRunSeesQuickExits(t *testing.T) {
	if !pidfdWorks() {
		t.Skip("no process file descriptors here: Wait waits alone")
	}
	prog, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true")
	}
	const runs = 200
	jobs := runtime.NumCPU() + 1
	errs := make(chan error, runs)
	next := make(chan int, runs)
	for i := range runs {
		next <- i
	}
	close(next)
	o := Options{Reading: Reading{Timeout: 5 * time.Second}}
	start := time.Now()
	for range jobs {
		go func() {
			for range next {
				// true prints no distance: the error says so, and that
				// is the point (it ended, and Run saw it end).
				_, err := Run(context.Background(), []string{prog}, o)
				errs <- err
			}
		}()
	}
	for range runs {
		if err := <-errs; KindOf(err) != NoDistance {
			t.Fatalf("a run of true: %v, want a run that exited printing nothing", err)
		}
	}
	t.Logf("%d runs of true, %d at a time, in %v", runs, jobs, time.Since(start))
}
