package progrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunDeathSignalHelper is the levlab of TestRunDeathSignal: it runs a
// program that writes its pid and sleeps, until it is killed.
func TestRunDeathSignalHelper(t *testing.T) {
	pidFile := os.Getenv("PROGRUN_DEATHSIG_PIDFILE")
	if pidFile == "" {
		t.Skip("run by TestRunDeathSignal")
	}
	run(context.Background(), []string{"sh", "-c", "echo $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; exec sleep 300"}, Options{Reading: Reading{Timeout: time.Minute}})
}

// A levlab killed with SIGKILL, which can end nothing itself, leaves no
// program running: the kernel ends it (Pdeathsig).
func TestRunDeathSignal(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	helper := exec.Command(os.Args[0], "-test.run=^TestRunDeathSignalHelper$")
	helper.Env = append(os.Environ(), "PROGRUN_DEATHSIG_PIDFILE="+pidFile)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	for range 500 {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid <= 0 {
		helper.Process.Kill()
		helper.Wait()
		t.Fatal("the helper's program wrote no pid")
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	helper.Process.Kill()
	helper.Wait()
	waitGone(t, pid, "the levlab that ran it was killed with SIGKILL")
}
