package main

import (
	"path/filepath"
	"strings"
	"testing"
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
