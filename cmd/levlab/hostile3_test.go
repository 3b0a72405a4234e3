package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/experiments"
)

// TestSpecEditedBetweenRuns: a spec whose implementation now names
// another program (the names kept) does not answer with the first
// program's records: the run refuses the folder, naming the
// implementation and --fresh, and times nothing; with --fresh the new
// program runs.
func TestSpecEditedBetweenRuns(t *testing.T) {
	dir := t.TempDir()
	first := writeScript(t, "first", "echo 0\n")
	second := writeScript(t, "second", "echo distance 0\n")
	text := func(prog string) string {
		return `name = "edited"
reps = 2
[inputs]
case = "identical"
n = [20]
[[impl]]
name = "mine"
command = ["` + prog + `", "{a}", "{b}"]
[[impl]]
name = "lev"
algo = "myers"
`
	}
	out := filepath.Join(dir, "out")
	specPath := writeSpec(t, dir, "edited.toml", text(first))
	if stdout, stderr, code := levlab(t, "run", "--spec", specPath, "--out", out); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, stdout, stderr)
	}
	writeSpec(t, dir, "edited.toml", text(second))
	stdout, stderr, code := levlab(t, "run", "--spec", specPath, "--out", out)
	if code == exitOK {
		t.Fatalf("a spec naming another program reused the first one's records: exit 0\n%s%s", stdout, stderr)
	}
	for _, w := range []string{"mine (2 rows", "another definition", "--fresh"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
	if strings.Contains(stderr, "lev (") {
		t.Errorf("the unchanged implementation is named as changed:\n%s", stderr)
	}
	if stdout, stderr, code := levlab(t, "run", "--spec", specPath, "--out", out, "--fresh"); code != exitOK || !strings.Contains(stdout, "4 records written") {
		t.Errorf("with --fresh: exit %d\n%s%s", code, stdout, stderr)
	}
	// An edit that changes nothing a record depends on (the reps) resumes.
	writeSpec(t, dir, "edited.toml", strings.Replace(text(second), "reps = 2", "reps = 3", 1))
	if stdout, stderr, code := levlab(t, "run", "--spec", specPath, "--out", out); code != exitOK || !strings.Contains(stdout, "2 records written") {
		t.Errorf("more reps of the same spec: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestVerifyBounds: counts and lengths past what verify can prepare are
// refused before any case is made, naming the bound; within them, verify
// says on stderr what it prepares.
func TestVerifyBounds(t *testing.T) {
	start := time.Now()
	checkFailure(t, []string{"verify", "--cases", "1000000000", "--", "true"}, exitUsage, "--cases 1000000000", "want 1 to 100000")
	checkFailure(t, []string{"verify", "--max-len", "100000000", "--", "true"}, exitUsage, "--max-len 100000000", "want 2 to 1000000")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("refusing took %v", took)
	}
	prog := writeScript(t, "zero", "echo 0\n")
	_, stderr, _ := levlab(t, "verify", "--cases", "5", "--max-len", "100", "--", prog, "{a}", "{b}")
	if !strings.Contains(stderr, "preparing 5 cases") {
		t.Errorf("verify does not say what it prepares:\n%s", stderr)
	}
}

// TestRunRepsBound: a repetition count past MaxReps is refused, on the
// command line and in the runner, before anything is planned.
func TestRunRepsBound(t *testing.T) {
	dir := t.TempDir()
	checkFailure(t, []string{"run", "--only", "s000-table1", "--reps", "1000000000", "--out", dir}, exitUsage, "--reps 1000000000", "want 1 to 1000")
	specPath := writeSpec(t, dir, "r.toml", "name = \"r\"\n[inputs]\nn = [10]\n[[impl]]\nname = \"a\"\nalgo = \"myers\"\n")
	checkFailure(t, []string{"run", "--spec", specPath, "--reps", "1000000000", "--out", dir}, exitUsage, "--reps 1000000000")
	_, err := (&experiments.Runner{Reps: 1e9, Dir: dir}).Run(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "1000000000") {
		t.Errorf("Runner{Reps: 1e9}.Run: %v", err)
	}
}

// TestRunSpecHugeLengths: lengths whose exact distance (or strings) the
// machine cannot compute (or hold) are refused at once, naming them.
func TestRunSpecHugeLengths(t *testing.T) {
	dir := t.TempDir()
	specPath := writeSpec(t, dir, "huge.toml", "name = \"huge\"\n[inputs]\nn = [1073741824]\n[[impl]]\nname = \"a\"\nalgo = \"myers\"\n")
	start := time.Now()
	checkFailure(t, []string{"run", "--spec", specPath, "--out", filepath.Join(dir, "out")}, exitUsage, "n = 1073741824", "cells; at most 1e+14")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("refusing took %v", took)
	}
}
