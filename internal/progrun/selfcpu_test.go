//go:build unix

package progrun

import (
	"context"
	"sync"
	"testing"
	"time"
)

// spin keeps a core busy for d.
func spin(d time.Duration) int {
	n := 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		n++
	}
	return n
}

// TestSelfCPU: two goroutines spinning for 200 ms at once take about
// 400 ms of processor time where two cores are free, and never less than
// one spinning alone, nor more than the wall time on every core.
func TestSelfCPU(t *testing.T) {
	before, ok := SelfCPU()
	if !ok {
		t.Fatal("SelfCPU: not known on a Unix system")
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); spin(200 * time.Millisecond) }()
	}
	wg.Wait()
	wall := time.Since(start).Seconds()
	after, _ := SelfCPU()
	cpu := after - before
	if cpu < 0.19 || cpu > 2*wall+0.05 {
		t.Errorf("two goroutines spinning 200 ms: %.3f s of CPU in %.3f s; want at least 0.19 s and at most twice the wall time", cpu, wall)
	}
}

// TestRunCPUWaitedChildren: a command's CPU counts the processes it waited
// for (a shell's background jobs, as mpirun's ranks), so two busy children
// take about twice the CPU of one.
func TestRunCPUWaitedChildren(t *testing.T) {
	loop := "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"
	run := func(children int) Result {
		script := ""
		for range children {
			script += "(" + loop + ") & "
		}
		r := run(context.Background(), []string{"sh", "-c", script + "wait; echo 1"}, Options{Reading: Reading{Timeout: 30 * time.Second}})
		if r.Failure != "" || r.CPU <= 0 {
			t.Fatalf("%d children: %+v", children, r)
		}
		return r.Result
	}
	one, two := run(1), run(2)
	if two.CPU < 1.5*one.CPU {
		t.Errorf("two waited children took %.3f s of CPU, one %.3f s: want about twice", two.CPU, one.CPU)
	}
}
