package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
)

// levlab runs the command line in-process and returns its output and exit
// status.
func levlab(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// checkFailure checks the shape every failing run must have: the wanted
// status, nothing on stdout, a "levlab: " message naming each of want, and
// no panic trace.
func checkFailure(t *testing.T, args []string, wantCode int, want ...string) {
	t.Helper()
	stdout, stderr, code := levlab(t, args...)
	if code != wantCode {
		t.Errorf("levlab %q: exit status %d, want %d; stderr:\n%s", args, code, wantCode, stderr)
	}
	if stdout != "" {
		t.Errorf("levlab %q: failed but printed %q on stdout", args, stdout)
	}
	if !strings.HasPrefix(stderr, "levlab: ") {
		t.Errorf("levlab %q: stderr %q does not begin with \"levlab: \"", args, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("levlab %q: stderr %q does not mention %q", args, stderr, w)
		}
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("levlab %q: stderr holds a panic trace:\n%s", args, stderr)
	}
}

func TestTopLevelUsageErrors(t *testing.T) {
	checkFailure(t, nil, exitUsage, "no command")
	checkFailure(t, []string{"frobnicate"}, exitUsage, `"frobnicate"`, "distance", "info")
	checkFailure(t, []string{"--json"}, exitUsage, `"--json"`)
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"distance", "-h"}, {"help", "distance"}, {"distance", "a", "--help"}} {
		stdout, stderr, code := levlab(t, args...)
		if code != exitOK || stderr != "" {
			t.Errorf("levlab %q: exit status %d, stderr %q; want 0 and nothing", args, code, stderr)
		}
		// Both the top-level and the distance usage list every algorithm
		// with its line.
		for _, a := range lev.Algorithms() {
			if !strings.Contains(stdout, a.String()+" ") || !strings.Contains(stdout, algorithmSummary(a)) {
				t.Errorf("levlab %q: usage does not list %s with its summary:\n%s", args, a, stdout)
			}
		}
	}
	stdout, _, code := levlab(t, "info", "-h")
	if code != exitOK || !strings.Contains(stdout, "levlab info") {
		t.Errorf("levlab info -h: exit status %d, stdout %q", code, stdout)
	}
}

func TestEveryAlgorithmHasASummary(t *testing.T) {
	for _, a := range lev.Algorithms() {
		if sum := algorithmSummary(a); sum == "" || strings.Contains(sum, "With") {
			t.Errorf("algorithm %s: summary %q; want a line, its options named as flags", a, sum)
		}
	}
}

// decodeJSON decodes the output of a --json command, which must be one
// object on one line with no field that T lacks (any for a map).
func decodeJSON[T any](t *testing.T, what, stdout string) T {
	t.Helper()
	if strings.Count(stdout, "\n") != 1 || !strings.HasSuffix(stdout, "\n") {
		t.Errorf("%s output %q is not one line", what, stdout)
	}
	var v T
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s output %q: %v", what, stdout, err)
	}
	return v
}
