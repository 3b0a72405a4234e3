package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCodeAge builds a repository of four commits — lev/fullmatrix.go,
// then lev/tworow.go, then a test file only, then comments only — and asks
// which code each commit has: a record made at the first lacks tworow's
// last change, one made at the second has it, and a change to a test file
// or to comments is no change.
func TestCodeAge(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	gitIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(file, text string) string {
		t.Helper()
		p := filepath.Join(dir, file)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn("add", file)
		gitIn("commit", "-q", "-m", file)
		return gitIn("rev-parse", "HEAD")
	}
	gitIn("init", "-q")
	first := commit("lev/fullmatrix.go", "package lev\n")
	second := commit("lev/tworow.go", "package lev\n")
	commit("lev/tworow_test.go", "package lev\n")
	commit("lev/tworow.go", "// Package lev: a doc.\n\npackage lev\n")
	os.MkdirAll(filepath.Join(dir, "results", "m", "paper"), 0o755)

	g := gitFor(filepath.Join(dir, "results", "m", "paper"))
	if g == nil {
		t.Fatal("gitFor found no repository")
	}
	chg, ok := g.lastChange(codePaths["tworow"])
	if !ok || chg.commit != second {
		t.Fatalf("tworow's last change: %v %v; want %s (the test file's commit is no change)", chg, ok, second)
	}
	if c, _ := g.lastChange([]string{"lev"}); c.commit != second {
		t.Errorf("lev's last change: %v; want %s", c, second)
	}
	if has, known := g.made(first[:12], chg); !known || has {
		t.Errorf("a record at the first commit: has = %v, known = %v; want false, true", has, known)
	}
	if has, known := g.made(second[:12]+"-dirty", chg); !known || !has {
		t.Errorf("a record at the second commit (dirty): has = %v, known = %v; want true, true", has, known)
	}
	if _, known := g.made("0123456789ab", chg); known {
		t.Error("a commit the repository lacks is known")
	}
	if d := g.commit(first).date; len(d) != len("2006-01-02") {
		t.Errorf("the first commit's date: %q", d)
	}
	if gitFor(t.TempDir()) != nil {
		t.Error("a folder outside any repository has a gitInfo")
	}
}

func TestPathHas(t *testing.T) {
	for _, c := range []struct {
		p, f string
		want bool
	}{
		{"lev/myers*", "lev/myers_amd64.s", true},
		{"lev/myers*", "lev/myersparallel.go", true},
		{"lev/myers*", "lev/blockmyers.go", false},
		{"match", "match/filter.go", true},
		{"match", "matcher/x.go", false},
		{"lev/lev.go", "lev/lev.go", true},
	} {
		if got := pathHas(c.p, c.f); got != c.want {
			t.Errorf("pathHas(%q, %q) = %v; want %v", c.p, c.f, got, c.want)
		}
	}
}

// TestBenchFileCode: a benchmark file is old only against the code it
// times: lev.txt against lev's, never match's; many.txt against match's
// lanes; a file make bench-results does not name, every CPU algorithm's.
func TestBenchFileCode(t *testing.T) {
	for _, p := range benchFileCode("lev.txt") {
		if strings.HasPrefix(p, "match") {
			t.Errorf("lev.txt times %s", p)
		}
	}
	if !slices.Contains(benchFileCode("lev.txt"), "lev/myers.go") {
		t.Errorf("lev.txt does not time lev/myers.go: %v", benchFileCode("lev.txt"))
	}
	if !slices.Contains(benchFileCode("many.txt"), "match/lanes*") {
		t.Errorf("many.txt does not time match's lanes: %v", benchFileCode("many.txt"))
	}
	if !slices.Equal(benchFileCode("other.txt"), cpuPaths()) {
		t.Errorf("a file not named: %v, want every CPU algorithm's", benchFileCode("other.txt"))
	}
}
