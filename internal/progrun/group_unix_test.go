//go:build unix

package progrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startsChild returns a program that starts a child (sleep 300) in the
// background, writes the child's pid to a file, and then does what rest
// says; and a function that waits for the pid and returns it. The child
// is killed when the test ends, whatever Run did.
func startsChild(t *testing.T, redirect, rest string) ([]string, func() int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	args := []string{"sh", "-c", fmt.Sprintf("sleep 300 %s & echo $! > '%s.tmp'; mv '%[2]s.tmp' '%[2]s'; %s", redirect, pidFile, rest)}
	pid := 0
	t.Cleanup(func() {
		if pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return args, func() int {
		t.Helper()
		for range 200 {
			if b, err := os.ReadFile(pidFile); err == nil {
				if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					return pid
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("the program wrote no pid to %s", pidFile)
		return 0
	}
}

// gone reports whether pid has ended: no such process, or a zombie that
// nobody has reaped yet (the child's new parent may be slow to, or may
// never).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	if runtime.GOOS == "linux" {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command's closing parenthesis.
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) {
			return b[i+2] == 'Z' || b[i+2] == 'X'
		}
	}
	return false
}

// waitGone fails the test unless pid ends within a second.
func waitGone(t *testing.T, pid int, after string) {
	t.Helper()
	for range 100 {
		if gone(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the child %d the program started is still running a second after Run returned (%s)", pid, after)
}

// A time-out ends the program's children too, not the program alone:
// left running they would slow the points timed after.
func TestRunEndsGroupOnTimeout(t *testing.T) {
	for _, redirect := range []string{"", ">/dev/null 2>&1"} {
		t.Run("redirect="+redirect, func(t *testing.T) {
			args, pid := startsChild(t, redirect, "wait")
			start := time.Now()
			r := run(context.Background(), args, Options{Reading: Reading{Timeout: 300 * time.Millisecond}})
			if !strings.Contains(r.Failure, "ran past its time-out of 300ms") {
				t.Errorf("failure %q, want the time-out", r.Failure)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("Run took %v", took)
			}
			waitGone(t, pid(), "a time-out")
		})
	}
}

// Cancelling the context (Ctrl-C) ends the program's children too.
func TestRunEndsGroupOnCancel(t *testing.T) {
	args, pid := startsChild(t, "", "wait")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		pid()
		cancel()
	}()
	r := run(ctx, args, Options{Reading: Reading{Timeout: time.Minute}})
	if r.Failure == "" {
		t.Errorf("a cancelled run counts: %+v", r)
	}
	waitGone(t, pid(), "cancelled")
	t.Logf("failure: %s", r.Failure)
}

// A program that answers and exits, leaving a child running, counts; the
// child is ended, and the note says so.
func TestRunEndsGroupOnExit(t *testing.T) {
	args, pid := startsChild(t, ">/dev/null 2>&1", "echo 7")
	r := run(context.Background(), args, Options{Reading: Reading{Timeout: 10 * time.Second}})
	if r.Failure != "" || r.Distance != 7 {
		t.Errorf("%+v, want distance 7 and no failure", r)
	}
	waitGone(t, pid(), "the program exited 0")
	if !strings.Contains(r.Note, "was still running after it exited, and was ended") {
		t.Errorf("note %q does not say a process it started was still running", r.Note)
	}
}

// A program that answers and exits while a child still holds its stdout
// counts, quickly; the note says what happened, in words.
func TestRunChildHoldsOutput(t *testing.T) {
	args, pid := startsChild(t, "", "echo 7")
	start := time.Now()
	r := run(context.Background(), args, Options{Reading: Reading{Timeout: 10 * time.Second}})
	if r.Failure != "" || r.Distance != 7 {
		t.Errorf("%+v, want distance 7 and no failure", r)
	}
	if !strings.Contains(r.Note, "still held its output open after it exited, and was ended") {
		t.Errorf("note %q does not say a process it started held its output open", r.Note)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Run took %v", took)
	}
	waitGone(t, pid(), "the program exited 0")
}
