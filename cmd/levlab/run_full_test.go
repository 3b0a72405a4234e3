package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
)

// TestRunFullDisk runs levlab run with a file-size limit (prlimit), as a
// disk that fills up mid-row: the run fails, exit 1, the file ends with a
// whole line and reads cleanly; the same command without the limit then
// completes, every (point, repetition) once.
func TestRunFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and times an experiment; not in -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("prlimit is Linux's")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skipf("no prlimit (util-linux): %v", err)
	}
	const name, reps = "s000-table1", 3
	bin := buildLevlab(t)
	dir := t.TempDir()
	path := filepath.Join(dir, name+".csv")
	args := []string{"run", "--only", name, "--reps", strconv.Itoa(reps), "--out", dir}

	// 2000 bytes: the header and a few rows; the next row crosses it.
	stdout, stderr, code := runBinary(t, prlimit, append([]string{"--fsize=2000", bin}, args...)...)
	if code != exitFailure {
		t.Fatalf("levlab run on a full disk: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
	}
	if !strings.Contains(stderr, "file too large") || !strings.Contains(stderr, path) {
		t.Errorf("levlab run on a full disk does not name the file and the error:\n%s", stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("after a full disk %s ends with a torn line: ...%q", path, data[max(len(data)-80, 0):])
	}
	before, err := records.ReadRecords(path)
	if err != nil {
		t.Fatalf("after a full disk: %v", err)
	}
	if len(before) == 0 {
		t.Fatalf("no row reached %s before the limit: the test limit is too small", path)
	}

	if _, stderr, code := runBinary(t, bin, args...); code != 0 {
		t.Fatalf("levlab run with space again: exit %d\n%s", code, stderr)
	}
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(mustRead(t, path), []byte("experiment,")); n != 1 {
		t.Errorf("the header is written %d times", n)
	}
	seen := make(map[string]bool)
	for _, r := range recs {
		k := pointKey(r) + "/rep=" + strconv.Itoa(r.Rep)
		if seen[k] {
			t.Errorf("%s is recorded twice", k)
		}
		seen[k] = true
	}
	if len(recs) <= len(before) {
		t.Errorf("the resumed run added nothing: %d records before, %d after", len(before), len(recs))
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
