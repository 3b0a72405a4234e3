//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ownRunFolder times a small spec of one's own (lev's myers, in process)
// into the folder sub of a new folder, as levlab run --spec --out DIR
// does, and returns the new folder and the run's.
func ownRunFolder(t *testing.T, sub string) (dir, run string) {
	t.Helper()
	dir = t.TempDir()
	spec := writeSpec(t, dir, "tiny.toml", `name = "tiny"
title = "A tiny experiment"
reps = 2
[inputs]
n = [10, 20]
[[impl]]
name = "lev"
algo = "myers"
`)
	run = filepath.Join(dir, sub)
	if stdout, stderr, code := levlab(t, "run", "--spec", spec, "--out", run); code != exitOK {
		t.Fatalf("run --spec: exit %d\n%s%s", code, stdout, stderr)
	}
	return dir, run
}

// TestReportRunFolder: the folder levlab run --spec --out DIR wrote is
// read as a run when given as --results: its records and kept spec, not
// "there are: none".
func TestReportRunFolder(t *testing.T) {
	_, out := ownRunFolder(t, "out")
	md := filepath.Join(t.TempDir(), "tiny.md")
	stdout, stderr, code := levlab(t, "report", "--results", out, "--only", "tiny", "--format", "md", "--figures", "none", "--out", md)
	if code != exitOK {
		t.Fatalf("report --results %s --only tiny: exit %d\n%s%s", out, code, stdout, stderr)
	}
	text, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "A tiny experiment") || !strings.Contains(string(text), "n = 20") {
		t.Errorf("the report of the run folder lacks its title or its points:\n%s", text)
	}
	// levlab info beside the records, and the machine table made of it.
	var info struct {
		Machine   string `json:"machine"`
		CPUModel  string `json:"cpu_model"`
		GoVersion string `json:"go_version"`
	}
	if b, err := os.ReadFile(filepath.Join(out, "machine.json")); err != nil || json.Unmarshal(b, &info) != nil || info.Machine == "" || info.GoVersion == "" {
		t.Errorf("machine.json beside the records: %v, %+v", err, info)
	}
	if !strings.Contains(string(text), "beside its records") || strings.Contains(string(text), "keeps none") {
		t.Errorf("the machine table does not read the run's machine.json:\n%s", text)
	}
	checkFailure(t, []string{"report", "--results", out, "--only", "other", "--format", "md", "--figures", "none", "--out", md},
		exitFailure, "--only other", out, "tiny")
}

// TestReportPathProblems: a --figures that is a file or a link to
// nowhere, and an --out under a file, are bad usage, each named with what
// is wrong with it, before any result is read; no "mkdir" of the system's.
func TestReportPathProblems(t *testing.T) {
	tree, _ := ownRunFolder(t, filepath.Join("results", "box", "quick"))
	results := filepath.Join(tree, "results")
	dir := t.TempDir()
	file := writeFile(t, "plain", "x")
	dangling := filepath.Join(dir, "figs")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--format", "md", "--figures", file, "--out", filepath.Join(dir, "r.md")}, []string{"--figures", file, "is a file, not a folder"}},
		{[]string{"--format", "md", "--figures", dangling, "--out", filepath.Join(dir, "r.md")}, []string{"--figures", dangling, "link", filepath.Join(dir, "nowhere"), "does not exist"}},
		{[]string{"--format", "md", "--out", filepath.Join(file, "r.md")}, []string{"--out", filepath.Join(file, "r.md"), file, "is a file, not a folder"}},
		{[]string{"--format", "html", "--out", filepath.Join(file, "sub", "r.html")}, []string{"--out", file, "is a file, not a folder"}},
		{[]string{"--format", "md", "--figures", filepath.Join(file, "figs"), "--out", filepath.Join(dir, "r.md")}, []string{"--figures", file, "is a file, not a folder"}},
	} {
		args := append([]string{"report", "--results", results, "--only", "tiny"}, c.args...)
		checkFailure(t, args, exitUsage, c.want...)
		if _, stderr, _ := levlab(t, args...); strings.Contains(stderr, "mkdir") {
			t.Errorf("levlab %q: the system's words: %s", args, stderr)
		}
	}
}
