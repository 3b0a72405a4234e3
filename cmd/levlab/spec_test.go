package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/records"
)

// writeSpec writes a spec into dir and returns its path.
func writeSpec(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunSpec times a spec of three implementations — levlab distance
// called as a program, a program wrong past 100 bytes, lev's myers — and
// checks what the CSV, the kept spec, the summary and the report say: the
// right ones timed, the wrong one's points recorded as failed with the
// answers, no time of theirs, exit 1; a second run times nothing again;
// the report shows the failures and escapes the program's words.
func TestRunSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	dir := t.TempDir()
	right := writeScript(t, "right", `exec "`+bin+`" distance --files "$1" "$2"`+"\n")
	wrong := writeScript(t, "wrong", `d=$("`+bin+`" distance --files "$1" "$2")
if [ "$(wc -c < "$1")" -gt 100 ]; then echo "<b>$((d+1))</b>"; else echo "$d"; fi
`)
	loud := writeScript(t, "loud", `echo '<script>alert(1)</script>' >&2; exit 3`+"\n")
	specPath := writeSpec(t, dir, "mine.toml", `name = "mine"
title = "Three programs <i>and</i> lev"
reps = 2
[inputs]
alphabet = "ACGT"
n = [50, 300]
[params]
workers = [1, 2]
[[impl]]
name = "right"
command = ["`+right+`", "{a}", "{b}"]
[[impl]]
name = "wrong"
command = ["`+wrong+`", "{a}", "{b}"]
[[impl]]
name = "loud"
command = ["`+loud+`", "{a}", "{b}", "{n}"]
[[impl]]
name = "lev"
algo = "myers-parallel"
[[figure]]
x = "workers"
y = "speedup"
baseline = "right"
`)
	out := filepath.Join(dir, "results", "box", "quick")
	// --keep-going: every point is timed, the failures' larger sizes too.
	stdout, stderr, code := levlab(t, "run", "--spec", specPath, "--out", out, "--keep-going")
	if code != exitFailure {
		t.Fatalf("run --spec with a wrong program: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, w := range []string{"6 points failed", "wrong w=1 random 300x300: failed: answered ", "loud w=2 random 50x50: failed: exited with status 3", "--fresh"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
	recs, err := records.ReadRecords(filepath.Join(out, "mine.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ok, failed := map[string]int{}, map[string]string{}
	for _, r := range recs {
		k := r.Algorithm + " " + r.Case + " " + strings.Repeat("w", r.Workers) + " " + strconv.Itoa(r.LenA)
		switch r.Status {
		case records.StatusOK:
			ok[k]++
			if r.Seconds <= 0 || r.Source != records.SourceOwn {
				t.Errorf("ok row %+v: no time, or source not %q", r, records.SourceOwn)
			}
		case records.StatusFailed:
			failed[k] = r.Note
			if r.Seconds != 0 {
				t.Errorf("a failed row has a time: %+v", r)
			}
		}
	}
	for _, alg := range []string{"right", "lev"} {
		for _, n := range []string{"50", "300"} {
			for _, w := range []string{"w", "ww"} {
				if k := alg + " random " + w + " " + n; ok[k] != 2 {
					t.Errorf("%s: %d ok rows, want 2", k, ok[k])
				}
			}
		}
	}
	if ok["wrong random w 50"] != 2 || ok["wrong random w 300"] != 0 || !strings.Contains(failed["wrong random w 300"], "answered ") || !strings.Contains(failed["wrong random w 300"], ", want ") {
		t.Errorf("wrong: ok %v failed %v", ok, failed)
	}
	if len(failed) != 6 {
		t.Errorf("%d failed points, want 6 (wrong at 300, loud everywhere): %v", len(failed), failed)
	}
	if _, err := os.Stat(filepath.Join(out, "mine.toml")); err != nil {
		t.Errorf("the spec is not kept beside the records: %v", err)
	}

	// Again: nothing is timed, the failures are named again.
	stdout, stderr, code = levlab(t, "run", "--spec", specPath, "--out", out, "--keep-going")
	if code != exitFailure || !strings.Contains(stdout, "0 records written") || !strings.Contains(stderr, "6 points failed") {
		t.Errorf("second run: exit %d\n%s%s", code, stdout, stderr)
	}

	html := filepath.Join(dir, "mine.html")
	if stdout, stderr, code := levlab(t, "report", "--results", filepath.Join(dir, "results"), "--only", "mine", "--out", html); code != exitOK {
		t.Fatalf("report --only mine: exit %d\n%s%s", code, stdout, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Own experiment mine", "FAILED", "6 points failed", "Speedup over right", "95% CI", "&lt;script&gt;alert(1)&lt;/script&gt;", "Three programs &lt;i&gt;and&lt;/i&gt; lev"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("the report does not say %q", w)
		}
	}
	if strings.Contains(string(page), "<script>alert(1)") || strings.Contains(string(page), "<i>and</i>") {
		t.Errorf("the report writes a program's words or a title as markup")
	}
	if strings.Contains(string(page), "Not recognised") {
		t.Errorf("the report does not recognise an experiment of one's own")
	}
	// Without --only the experiment follows the reports' sections.
	if stdout, stderr, code := levlab(t, "report", "--results", filepath.Join(dir, "results"), "--out", html); code != exitOK {
		t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
	}
	if page, _ := os.ReadFile(html); !strings.Contains(string(page), "Own experiment mine") || strings.Contains(string(page), "Not recognised") {
		t.Errorf("the full report does not draw the experiment, or calls it not recognised")
	}
	checkFailure(t, []string{"report", "--results", filepath.Join(dir, "results"), "--only", "theirs", "--out", html}, exitFailure, `--only theirs`, "there are: mine")
	checkFailure(t, []string{"report", "--results", filepath.Join(dir, "results"), "--only", ",", "--out", html}, exitUsage, "names no experiment")
}

// TestRunSpecFailures: a program that hangs, floods stdout, prints no
// number or crashes is a failed point with the reason, in time. The
// time-out leaves the flood room to pass 1 MiB on a loaded machine (under
// go test -race ./..., 300 ms once did not).
func TestRunSpecFailures(t *testing.T) {
	dir := t.TempDir()
	specPath := writeSpec(t, dir, "bad.toml", `name = "bad"
reps = 1
timeout = "2s"
[inputs]
n = [10]
[[impl]]
name = "hangs"
command = ["sleep", "30"]
[[impl]]
name = "floods"
command = ["yes", "7"]
[[impl]]
name = "silent"
command = ["true"]
[[impl]]
name = "crashes"
command = ["sh", "-c", "kill -SEGV $$"]
`)
	start := time.Now()
	_, stderr, code := levlab(t, "run", "--spec", specPath, "--out", filepath.Join(dir, "out"))
	if code != exitFailure {
		t.Errorf("exit %d, want 1\n%s", code, stderr)
	}
	for _, w := range []string{"ran past its time-out of 2s", "printed more than 1.0 MiB", "printed no distance", "killed by signal 11 (segmentation fault)"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestRunSpecBad: a spec that does not read, a program that cannot run,
// and flags that do not go with --spec are bad usage (exit 2), named, and
// nothing is written.
func TestRunSpecBad(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	base := "name = \"x\"\n[inputs]\nn = [10]\n[[impl]]\nname = \"a\"\n"
	notExec := filepath.Join(dir, "prog")
	os.WriteFile(notExec, []byte("#!/bin/sh\necho 1\n"), 0o644)
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"syntax", "name = \n", []string{"bad.toml:1"}},
		{"unknown key", base + "algo = \"myers\"\nthreads = 2\n", []string{"bad.toml:7", `unknown key "impl.threads"`, "allowed in [impl]"}},
		{"empty n", strings.Replace(base, "[10]", "[]", 1) + "algo = \"myers\"\n", []string{"bad.toml:3", "n is empty"}},
		{"no such program", base + "command = [\"./no-such-prog\", \"{a}\", \"{b}\"]\n", []string{"impl a", "no-such-prog"}},
		{"not executable", base + "command = [\"" + notExec + "\", \"{a}\", \"{b}\"]\n", []string{"not executable"}},
		{"not on PATH", base + "command = [\"no-such-prog-on-path\"]\n", []string{"not found on PATH"}},
		{"unknown algo", base + "algo = \"fastest\"\n", []string{"impl a", "fastest"}},
		{"workers a sequential algo refuses", base + "algo = \"tworow\"\n[params]\nworkers = [2]\n", []string{"impl a (algo tworow) at workers 2"}},
		{"name of the reports", strings.Replace(base, `"x"`, `"peers"`, 1) + "algo = \"myers\"\n", []string{"one of the reports' experiments"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeSpec(t, dir, "bad.toml", c.text)
			checkFailure(t, []string{"run", "--spec", p, "--out", out}, exitUsage, c.want...)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was made", out)
			}
		})
	}
	good := writeSpec(t, dir, "good.toml", base+"algo = \"myers\"\n")
	checkFailure(t, []string{"run", "--spec", good, "--only", "peers"}, exitUsage, "--only and --spec")
	checkFailure(t, []string{"run", "--spec", ""}, exitUsage, "--spec")
	checkFailure(t, []string{"run", "--spec", good, "--reps", "0"}, exitUsage, "--reps 0")
	checkFailure(t, []string{"run", "--spec", filepath.Join(dir, "none.toml")}, exitUsage, "none.toml")
}
