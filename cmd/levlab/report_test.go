package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"html", "md"} {
		out := filepath.Join(dir, "r."+f)
		stdout, stderr, code := levlab(t, "report", "--results", "../../results", "--out", out, "--format", f)
		if code != exitOK || strings.TrimSpace(stdout) != out {
			t.Fatalf("levlab report --format %s: exit %d, stdout %q, stderr %q", f, code, stdout, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(b), "Report 000") {
			t.Errorf("%s: %v, or no section of report 000", out, err)
		}
	}
	if _, stderr, code := levlab(t, "report", "--format", "pdf"); code != exitUsage || !strings.Contains(stderr, "pdf") {
		t.Errorf("--format pdf: exit %d, stderr %q; want %d", code, stderr, exitUsage)
	}
	if _, _, code := levlab(t, "report", "extra"); code != exitUsage {
		t.Errorf("an argument: exit %d; want %d", code, exitUsage)
	}
	missing := filepath.Join(dir, "nope")
	if _, stderr, code := levlab(t, "report", "--results", missing, "--out", filepath.Join(dir, "x.html")); code != exitFailure || !strings.Contains(stderr, missing) {
		t.Errorf("missing results: exit %d, stderr %q; want %d naming the folder", code, stderr, exitFailure)
	}
}

// reproduceReport writes the report of the folder reproduce filled into
// its parent.
func TestReproduceReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results", "box", "quick")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path, err := reproduceReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(dir), "levlab-report.html"); path != want {
		t.Errorf("path %s, want %s", path, want)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "no CSV files") {
		t.Errorf("%s: %v, or the empty folder is not named", path, err)
	}
}
