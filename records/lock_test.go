package records

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLockDir(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock here")
	}
	dir := t.TempDir()
	first, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockDir(dir)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("a second LockDir of a held folder: %v, want an error wrapping ErrLocked", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "process "+strconv.Itoa(os.Getpid())) || !strings.Contains(msg, dir) {
		t.Errorf("the error does not name the folder and the holder's pid: %s", msg)
	}
	if err := first.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := first.Unlock(); err != nil {
		t.Errorf("a second Unlock: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is left after Unlock (stat: %v)", err)
	}
	again, err := LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir after Unlock: %v", err)
	}
	again.Unlock()
}

// A lock file left by a holder that died (its flock gone with it) does
// not stop the next writer.
func TestLockDirStaleFile(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock here")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, LockName), []byte("pid 1\ncommand levlab run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir over a stale lock file: %v", err)
	}
	l.Unlock()
}

func TestDescribeHolder(t *testing.T) {
	got := describeHolder([]byte("pid 42\nstarted 2026-01-02T03:04:05Z\ncommand levlab run --out x\n"))
	want := `process 42 ("levlab run --out x", since 2026-01-02T03:04:05Z)`
	if got != want {
		t.Errorf("describeHolder = %s, want %s", got, want)
	}
	if got := describeHolder(nil); got != "another process" {
		t.Errorf("describeHolder(nil) = %s", got)
	}
}

// A writer that finds the folder held in the instant between the
// holder's lock and its description still names the holder.
func TestLockDirHolderStillWriting(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock here")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if held, err := tryLock(f); err != nil || !held {
		t.Fatalf("tryLock: %v %v", held, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		f.WriteAt([]byte("pid 4242\ncommand levlab run\n"), 0)
	}()
	_, err = LockDir(dir)
	<-done
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "process 4242") {
		t.Errorf("LockDir while the holder writes its description: %v, want ErrLocked naming process 4242", err)
	}
}
