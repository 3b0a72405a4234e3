package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/levlab/levlab/records"
)

// TestRunRefusesAHeldFolder holds a results folder as another levlab run
// would, and checks that levlab run on it refuses at once, exit 1,
// naming the holder, and writes nothing.
func TestRunRefusesAHeldFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	dir := t.TempDir()
	lock, err := records.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()

	stdout, stderr, code := runBinary(t, bin, "run", "--only", "s000-table1", "--reps", "1", "--out", dir)
	if code != exitFailure {
		t.Fatalf("levlab run on a held folder: exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
	}
	if !strings.Contains(stderr, "process "+strconv.Itoa(os.Getpid())) || !strings.Contains(stderr, dir) {
		t.Errorf("levlab run on a held folder does not name the folder and its holder (pid %d):\n%s", os.Getpid(), stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "s000-table1.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("levlab run on a held folder wrote s000-table1.csv (stat: %v)", err)
	}

	// Once the folder is free, the same command runs.
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runBinary(t, bin, "run", "--only", "s000-table1", "--reps", "1", "--out", dir); code != 0 {
		t.Fatalf("levlab run after the holder let go: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, records.LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("levlab run left its lock file behind (stat: %v)", err)
	}
}

// TestRunTwiceOnOneFolder starts two levlab run on one folder at once:
// one of them refuses (or, if the first was done before the second began,
// resumes), and the file holds every (point, repetition) once, under one
// header.
func TestRunTwiceOnOneFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and times an experiment; not in -short")
	}
	const name, reps = "s000-table1", 5
	bin := buildLevlab(t)
	dir := t.TempDir()
	var wg sync.WaitGroup
	codes := make([]int, 2)
	errs := make([]string, 2)
	start := make(chan struct{})
	for i := range 2 {
		wg.Go(func() {
			<-start
			var stderr bytes.Buffer
			cmd := exec.Command(bin, "run", "--only", name, "--reps", strconv.Itoa(reps), "--out", dir)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				codes[i] = exit.ExitCode()
			} else if err != nil {
				codes[i] = -1
			}
			errs[i] = stderr.String()
		})
	}
	close(start)
	wg.Wait()
	for i, code := range codes {
		switch {
		case code == 0:
		case code == exitFailure && strings.Contains(errs[i], "is being written by process"):
		default:
			t.Errorf("run %d: exit %d\n%s", i, code, errs[i])
		}
	}
	if codes[0] != 0 && codes[1] != 0 {
		t.Errorf("both runs refused the folder:\n%s\n%s", errs[0], errs[1])
	}
	data, err := os.ReadFile(filepath.Join(dir, name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("experiment,")); n != 1 {
		t.Errorf("the header is written %d times", n)
	}
	recs, err := records.ReadRecords(filepath.Join(dir, name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for _, r := range recs {
		k := pointKey(r) + "/rep=" + strconv.Itoa(r.Rep)
		if seen[k] {
			t.Errorf("%s is recorded twice", k)
		}
		seen[k] = true
	}
}
