//go:build unix

package progrun

import (
	"context"
	"runtime"
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

// TestSelfCPU: SelfCPU counts every thread of the process: two goroutines
// spinning while the test waits reach 0.4 s of processor time (on a
// machine busy with other work too, in more wall time: they spin until
// SelfCPU says so, for at most 20 s), and never more than the wall time
// on every core.
func TestSelfCPU(t *testing.T) {
	before, ok := SelfCPU()
	if !ok {
		t.Fatal("SelfCPU: not known on a Unix system")
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < 20*time.Second {
				spin(10 * time.Millisecond)
				if now, _ := SelfCPU(); now-before >= 0.4 {
					return
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start).Seconds()
	after, _ := SelfCPU()
	cpu := after - before
	if cpu < 0.4 || cpu > float64(runtime.NumCPU())*wall+0.05 {
		t.Errorf("two goroutines spinning: %.3f s of CPU in %.3f s; want at least 0.4 s and at most the wall time on every core", cpu, wall)
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
