package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestIgnoredFlagsAreErrors: a flag that the chosen algorithm or mode
// would ignore is bad usage naming it, not a silent no-op.
func TestIgnoredFlagsAreErrors(t *testing.T) {
	checkFailure(t, []string{"distance", "--runes", "kitten", "sitting"}, exitUsage, "--runes", "--files")
	checkFailure(t, []string{"distance", "--algo", "tworow", "--tile", "64", "kitten", "sitting"}, exitUsage, "--tile 64", "tworow", "tiled")
	checkFailure(t, []string{"distance", "--algo", "myers", "--tile", "64", "kitten", "sitting"}, exitUsage, "--tile 64", "myers")
	checkFailure(t, []string{"distance", "--algo", "tiled", "--block", "128", "kitten", "sitting"}, exitUsage, "--block 128", "tiled", "cuda")
	checkFailure(t, []string{"distance", "--block", "128", "kitten", "sitting"}, exitUsage, "--block 128", "auto")
	checkFailure(t, []string{"distance", "--algo", "tworow", "--max-memory", "1GiB", "kitten", "sitting"}, exitUsage, "--max-memory", "tworow")
	// Where they apply, they are taken.
	for _, args := range [][]string{
		{"distance", "--algo", "tiled", "--tile", "2", "kitten", "sitting"},
		{"distance", "--algo", "myers-parallel", "--tile", "2", "kitten", "sitting"},
		{"distance", "--tile", "2", "kitten", "sitting"},
		{"distance", "--algo", "fullmatrix", "--max-memory", "1MiB", "kitten", "sitting"},
	} {
		if stdout, stderr, code := levlab(t, args...); code != exitOK || stdout != "3\n" {
			t.Errorf("levlab %q: exit %d, %q\n%s", args, code, stdout, stderr)
		}
	}
}

// TestPatternsFiles: --patterns may be given more than once, each file's
// patterns after the last's; a pattern with a newline needs --json.
func TestPatternsFiles(t *testing.T) {
	text := writeFile(t, "text", "ACGTACGT")
	one := writeFile(t, "one", "ACG\n")
	two := writeFile(t, "two", "GTA\nTTT\n")
	stdout, stderr, code := levlab(t, "match", "-p", "CG", "--patterns", one, "--patterns", two, text)
	if want := "2\tCG\n2\tACG\n2\tGTA\n1\tTTT\n"; code != exitOK || stdout != want {
		t.Errorf("two --patterns files: exit %d, %q, want %q\n%s", code, stdout, want, stderr)
	}
	checkFailure(t, []string{"match", "-p", "AC\nGT", text}, exitUsage, `"AC\nGT"`, "--json")
	checkFailure(t, []string{"match", "-p", "AC", "-p", "AC\rGT", text}, exitUsage, "pattern 2", "--json")
	stdout, stderr, code = levlab(t, "match", "--json", "-p", "GT\nAC", text)
	if code != exitOK || !strings.Contains(stdout, `"pattern":"GT\nAC"`) {
		t.Errorf("a pattern with a newline under --json: exit %d, %q\n%s", code, stdout, stderr)
	}
}

// failWriter fails every write, as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestStdoutFails: output that cannot be written is a failure, exit 1,
// whatever the command.
func TestStdoutFails(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"help", "run"}, {"distance", "-h"}, {"distance", "kitten", "sitting"},
		{"distance", "--json", "kitten", "sitting"}, {"run", "--list"}, {"run", "-h"}, {"info"}, {"match", "-h"},
	} {
		var stderr strings.Builder
		code := run(args, failWriter{}, &stderr)
		if code != exitFailure || !strings.Contains(stderr.String(), "no space left") {
			t.Errorf("levlab %q with a full stdout: exit %d, want %d and the error\n%s", args, code, exitFailure, stderr.String())
		}
	}
	if testing.Short() {
		return
	}
	// Through the binary: stdout on /dev/full, and a pipe with no reader.
	bin := buildLevlab(t)
	for _, args := range [][]string{{"distance", "kitten", "sitting"}, {"run", "--list"}, {"-h"}} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skipf("no /dev/full: %v", err)
		}
		cmd := exec.Command(bin, args...)
		cmd.Stdout = full
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		full.Close()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
			t.Errorf("levlab %q > /dev/full: %v, want exit 1\n%s", args, err, stderr.String())
		}
		// A pipe whose reader has gone: EPIPE, not a silent death by
		// SIGPIPE. (A stdout closed before levlab starts cannot be told
		// apart: Go's runtime opens /dev/null in its place.)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		cmd = exec.Command(bin, args...)
		cmd.Stdout = w
		stderr.Reset()
		cmd.Stderr = &stderr
		err = cmd.Run()
		w.Close()
		if !errors.As(err, &exit) || exit.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "broken pipe") {
			t.Errorf("levlab %q | (reader gone): %v, want exit 1 naming the broken pipe\n%s", args, err, stderr.String())
		}
	}
}
