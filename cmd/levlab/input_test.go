package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEndlessInput reads inputs that never end: /dev/zero stops at the
// input limit with an error naming the file, what was read and the limit;
// the default limit holds under ulimit -v (no out-of-memory trace).
func TestEndlessInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	bin := buildLevlab(t)
	text := writeFile(t, "text", "ACGTACGT")
	for _, args := range [][]string{
		{"distance", "--files", "--max-input", "1MiB", "/dev/zero", text},
		{"distance", "--files", "--runes", "--max-input", "1MiB", text, "/dev/zero"},
		{"match", "--max-input", "1MiB", "-p", "ACGT", "/dev/zero"},
		{"match", "--max-input", "1MiB", "--patterns", "/dev/zero", text},
	} {
		_, stderr, code := runBinary(t, bin, args...)
		if code != exitFailure || !strings.Contains(stderr, "/dev/zero") || !strings.Contains(stderr, "1.0 MiB") ||
			!strings.Contains(stderr, "--max-input") || strings.Contains(stderr, "goroutine") {
			t.Errorf("levlab %s: exit %d, want %d and an error naming /dev/zero, the 1.0 MiB limit and --max-input:\n%s",
				strings.Join(args, " "), code, exitFailure, stderr)
		}
	}
	// A regular file over the limit is refused before it is read.
	big := writeFile(t, "big", strings.Repeat("x", 3000))
	_, stderr, code := runBinary(t, bin, "distance", "--files", "--max-input", "2KiB", big, text)
	if code != exitFailure || !strings.Contains(stderr, big) || !strings.Contains(stderr, "2.9 KiB") || !strings.Contains(stderr, "2.0 KiB") {
		t.Errorf("a 3000-byte file with --max-input 2KiB: exit %d\n%s", code, stderr)
	}
	checkBinaryFailure(t, bin, []string{"distance", "--files", "--max-input", "0", big, text}, exitUsage, "--max-input")

	// The default limit comes from the memory this process may use.
	prlimit, err := exec.LookPath("prlimit")
	if err != nil || runtime.GOOS != "linux" {
		t.Skipf("no prlimit for the default limit under ulimit -v: %v", err)
	}
	_, stderr, code = runBinary(t, prlimit, "--as=3000000000", bin, "distance", "--files", "/dev/zero", text)
	if code != exitFailure || !strings.Contains(stderr, "/dev/zero") || !strings.Contains(stderr, "--max-input") || strings.Contains(stderr, "goroutine") {
		t.Errorf("levlab distance --files /dev/zero under ulimit -v 3 GB: exit %d, want %d and a clear error:\n%s", code, exitFailure, stderr)
	}
}

// TestInterruptWhileReading sends Ctrl-C, then SIGTERM (what Slurm,
// systemd and timeout send), to levlab while it waits on a FIFO: with no
// writer (open blocks) and with a writer that sends nothing (read blocks).
// It must exit 1 within a second, saying it was interrupted.
func TestInterruptWhileReading(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("needs mkfifo and SIGINT")
	}
	bin := buildLevlab(t)
	text := writeFile(t, "text", "ACGT")
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		for _, writer := range []bool{false, true} {
			for _, args := range [][]string{
				{"distance", "--files", "FIFO", text},
				{"align", "--files", "FIFO", text},
				{"match", "-p", "AC", "FIFO"},
				{"match", "--patterns", "FIFO", text},
				{"matrix", "FIFO"},
			} {
				fifo := filepath.Join(t.TempDir(), "fifo")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
				if writer {
					// O_RDWR opens a FIFO without waiting for a reader, and
					// keeps a writer on it that never writes.
					w, err := os.OpenFile(fifo, os.O_RDWR, 0)
					if err != nil {
						t.Fatal(err)
					}
					defer w.Close()
				}
				args = append([]string(nil), args...)
				for i, a := range args {
					if a == "FIFO" {
						args[i] = fifo
					}
				}
				var stderr bytes.Buffer
				cmd := exec.Command(bin, args...)
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				waitForHandler(t, cmd.Process.Pid, sig.(syscall.Signal))
				sent := time.Now()
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case err := <-done:
					var exit *exec.ExitError
					if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
						t.Errorf("levlab %s (writer %v), %v: %v, want exit status 1\n%s", strings.Join(args, " "), writer, sig, err, stderr.String())
					} else if took := time.Since(sent); took > time.Second {
						t.Errorf("levlab %s (writer %v) exited %v after %v, want within 1s", strings.Join(args, " "), writer, took, sig)
					} else if !strings.Contains(stderr.String(), "interrupted") {
						t.Errorf("levlab %s (writer %v), %v: stderr does not say it was interrupted:\n%s", strings.Join(args, " "), writer, sig, stderr.String())
					}
				case <-time.After(5 * time.Second):
					cmd.Process.Kill()
					<-done
					t.Errorf("levlab %s (writer %v) still runs 5s after %v", strings.Join(args, " "), writer, sig)
				}
			}
		}
	}
}

// TestMatrixOverLimit: fullmatrix over its memory limit is a failure
// (exit 1), not bad usage, and a limit above what ulimit -v leaves is
// refused with an error naming ulimit -v, not an out-of-memory trace.
func TestMatrixOverLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	checkBinaryFailure(t, bin, []string{"distance", "--algo", "fullmatrix", "--max-memory", "1KiB", strings.Repeat("a", 100), strings.Repeat("b", 100)},
		exitFailure, "--max-memory", "tworow")

	prlimit, err := exec.LookPath("prlimit")
	if err != nil || runtime.GOOS != "linux" {
		t.Skipf("no prlimit for ulimit -v: %v", err)
	}
	// 40000² uint16 cells: 3.2 GB, over the 2 GB address space allowed.
	a := writeFile(t, "a", strings.Repeat("ab", 20000))
	b := writeFile(t, "b", strings.Repeat("ba", 20000))
	_, stderr, code := runBinary(t, prlimit, "--as=2000000000", bin, "distance", "--algo", "fullmatrix", "--max-memory", "100GiB", "--files", a, b)
	if code != exitFailure || !strings.Contains(stderr, "ulimit -v") || strings.Contains(stderr, "goroutine") {
		t.Errorf("fullmatrix of 3.2 GB under ulimit -v 2 GB: exit %d, want %d and an error naming ulimit -v:\n%s", code, exitFailure, stderr)
	}
}

// waitForHandler waits until process pid has a handler for sig (Linux:
// its SigCgt mask in /proc: the runtime's from its start, so the process
// is past loading), then 300 ms for main to ask for it and block, so that
// the signal tests levlab's handler, not the default action of a process
// still starting on a busy machine; where /proc cannot say, 300 ms alone.
func waitForHandler(t *testing.T, pid int, sig syscall.Signal) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			break
		}
		for line := range strings.SplitSeq(string(status), "\n") {
			if mask, ok := strings.CutPrefix(line, "SigCgt:"); ok {
				m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
				if err != nil {
					t.Fatalf("/proc/%d/status: SigCgt %q", pid, mask)
				}
				if m&(1<<(uint(sig)-1)) != 0 {
					// The runtime catches it from its start; main asks for it
					// soon after, then reaches its blocking read.
					time.Sleep(300 * time.Millisecond)
					return
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
}
