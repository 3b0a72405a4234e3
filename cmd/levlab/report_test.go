package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
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
	if _, stderr, code := levlab(t, "report", "--format", "docx"); code != exitUsage || !strings.Contains(stderr, "docx") || !strings.Contains(stderr, "tex") {
		t.Errorf("--format docx: exit %d, stderr %q; want %d naming the formats", code, stderr, exitUsage)
	}
	// A machine or scale with no run: exit 1, naming it and the runs there
	// are, and no file written (an unknown scale is bad usage:
	// TestReportScaleUnknown).
	for _, args := range [][]string{{"--machine", "no-such-box"}, {"--scale", "quick"}} {
		out := filepath.Join(dir, "none.html")
		_, stderr, code := levlab(t, append([]string{"report", "--results", "../../results", "--out", out}, args...)...)
		if code != exitFailure || !strings.Contains(stderr, args[1]) || !strings.Contains(stderr, "intel-xeon-2.80ghz-2c/paper") {
			t.Errorf("%v: exit %d, stderr %q; want %d naming the value and the runs there are", args, code, stderr, exitFailure)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s written", args, out)
		}
	}
	if _, stderr, code := levlab(t, "report", "--machine", "../x"); code != exitUsage || !strings.Contains(stderr, "../x") {
		t.Errorf("--machine ../x: exit %d, stderr %q; want %d", code, stderr, exitUsage)
	}
	// Tables only: Markdown with --figures none needs no browser.
	md := filepath.Join(dir, "t.md")
	if _, stderr, code := levlab(t, "report", "--results", "../../results", "--format", "md", "--figures", "none", "--out", md); code != exitOK {
		t.Errorf("--format md --figures none: exit %d, stderr %q", code, stderr)
	} else if b, _ := os.ReadFile(md); strings.Contains(string(b), "![") {
		t.Errorf("--figures none: the Markdown links figures")
	}
	// --out's extension names the format where --format is not given, and
	// must agree with it where it is.
	mdOnly := filepath.Join(dir, "by-name.MD")
	if _, stderr, code := levlab(t, "report", "--results", "../../results", "--figures", "none", "--out", mdOnly); code != exitOK {
		t.Errorf("--out %s: exit %d, stderr %q", mdOnly, code, stderr)
	} else if b, _ := os.ReadFile(mdOnly); !strings.HasPrefix(string(b), "# ") {
		t.Errorf("--out %s wrote no Markdown: %.60q", mdOnly, b)
	}
	clash := filepath.Join(dir, "clash.md")
	want := "levlab: report: --out " + clash + " names a Markdown file, and --format html writes HTML: give one of them, or both alike\n"
	if _, stderr, code := levlab(t, "report", "--results", "../../results", "--format", "html", "--out", clash); code != exitUsage || !strings.HasPrefix(stderr, want) {
		t.Errorf("--format html --out x.md: exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, want)
	}
	if _, err := os.Stat(clash); err == nil {
		t.Errorf("--format html --out x.md wrote %s", clash)
	}
	for path, want := range map[string]string{"r.htm": "html", "a/r.tex": "tex", "r.PDF": "pdf", "r.markdown": "md", "r.txt": "", "r": ""} {
		if got := formatNamed(path); got != want {
			t.Errorf("formatNamed(%q) = %q, want %q", path, got, want)
		}
	}
	if _, _, code := levlab(t, "report", "extra"); code != exitUsage {
		t.Errorf("an argument: exit %d; want %d", code, exitUsage)
	}
	missing := filepath.Join(dir, "nope")
	if _, stderr, code := levlab(t, "report", "--results", missing, "--out", filepath.Join(dir, "x.html")); code != exitFailure || !strings.Contains(stderr, missing) {
		t.Errorf("missing results: exit %d, stderr %q; want %d naming the folder", code, stderr, exitFailure)
	}
	// Into a folder that does not exist: the folder named, the command
	// once, no temporary file's name.
	into := filepath.Join(dir, "nofolder", "r.html")
	want = "levlab: report: writing " + into + ": the folder " + filepath.Dir(into) + " does not exist: no such file or directory\n"
	if _, stderr, code := levlab(t, "report", "--results", "../../results", "--out", into); code != exitFailure || stderr != want {
		t.Errorf("--out into a missing folder: exit %d, stderr %q; want %d and %q", code, stderr, exitFailure, want)
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

// TestReportBadRecords: times that are not numbers, negative or zero, a
// rep measured twice and a file that cannot be read give a report (exit
// 0) that names each row left out by file:line; a results folder that is
// not one is a failure (exit 1).
func TestReportBadRecords(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "box", "paper")
	if err := os.MkdirAll(filepath.Join(dir, "published"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(m, 0o755); err != nil {
		t.Fatal(err)
	}
	row := func(alg string, workers, n, rep int, seconds string) string {
		return fmt.Sprintf("peers,x,paper,%s,%s,%d,%d,0,0,0,0,random,%d,%d,%d,ok,,%s,0,1,0,1,0,0,8,cpu,2,none,go,c,t,,",
			alg, alg, workers, workers, n, n, rep, seconds)
	}
	lines := []string{
		strings.Join(records.RecordColumns(), ","),
		row("tworow", 1, 100, 1, "0.5"),  // 2
		row("tworow", 1, 100, 2, "NaN"),  // 3
		row("tworow", 1, 100, 3, "+Inf"), // 4
		row("tworow", 1, 100, 4, "-Inf"), // 5
		row("tworow", 1, 100, 5, "-1"),   // 6
		row("tworow", 1, 100, 1, "7"),    // 7: rep 1 again
		row("myers", 1, 100, 1, "0"),     // a zero time: kept, its speedups infinite
		row("myers", 1, 1e9, 1, "1e300"),
	}
	if err := os.WriteFile(filepath.Join(m, "peers.csv"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(m, "gone.csv")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"html", "md"} {
		out := filepath.Join(t.TempDir(), "r."+f)
		stdout, stderr, code := levlab(t, "report", "--results", dir, "--out", out, "--format", f)
		if code != exitOK || strings.TrimSpace(stdout) != out {
			t.Fatalf("--format %s: exit %d, stdout %q, stderr %q; want %d and the file's path", f, code, stdout, stderr, exitOK)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range []int{3, 4, 5, 6, 7} {
			if want := fmt.Sprintf("peers.csv:%d", line); !strings.Contains(string(b), want) {
				t.Errorf("--format %s: the report does not name %s", f, want)
			}
		}
		if !strings.Contains(string(b), "gone.csv") {
			t.Errorf("--format %s: the unreadable gone.csv is not named", f)
		}
	}
	notDir := filepath.Join(m, "peers.csv")
	checkFailure(t, []string{"report", "--results", notDir, "--out", filepath.Join(dir, "x.html")}, exitFailure, notDir)
}
