package runs

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCodeAge builds a repository of five commits — lev/fullmatrix.go,
// then lev/tworow.go, then a test file only, then comments only, then
// internal/bitpar — and asks which code each commit has: a record made at
// the first lacks tworow's last change, one made at the second has it, a
// change to a test file or to comments is no change, and one outside lev
// that an algorithm's code paths name is read too.
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
	fifth := commit("internal/bitpar/bitpar.go", "package bitpar\n")
	os.MkdirAll(filepath.Join(dir, "results", "m", "paper"), 0o755)

	g := gitFor(filepath.Join(dir, "results", "m", "paper"))
	if g == nil {
		t.Fatal("gitFor found no repository")
	}
	chg, ok := g.lastChange(codePaths["tworow"])
	if !ok || chg.Commit != second {
		t.Fatalf("tworow's last change: %v %v; want %s (the test file's commit is no change)", chg, ok, second)
	}
	if c, _ := g.lastChange([]string{"lev"}); c.Commit != second {
		t.Errorf("lev's last change: %v; want %s", c, second)
	}
	if c, _ := g.lastChange(codePaths["myers"]); c.Commit != fifth {
		t.Errorf("myers' last change: %v; want %s, internal/bitpar's", c, fifth)
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
		{"lev/myers*", "lev/myers_avx512_amd64.s", true},
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
	// Many pairs' code: the files and records that time Cross or All,
	// not one pair a call.
	for name, want := range map[string]bool{"pairs.txt": true, "matrix.txt": true, "scaleout.txt": true, "gpu.txt": true, "other.txt": true,
		"lev.txt": false, "distance.txt": false, "align.txt": false} {
		if got := slices.Contains(benchFileCode(name), "lev/pairs.go"); got != want {
			t.Errorf("%s times lev/pairs.go: %v, want %v", name, got, want)
		}
	}
	for _, c := range []struct {
		exp, alg string
		want     bool
	}{{"many-pairs", "auto", true}, {"many-pairs", "cuda-fast", true}, {"suggest", "auto", true},
		{"s000-fig3", "auto", false}, {"gpu-fast", "cuda-fast", false}, {"align", "align", false}, {"many-pairs", "edlib", false}} {
		if got := slices.Contains(recordCode(c.exp, c.alg), "lev/pairs.go"); got != c.want {
			t.Errorf("a record of %s, %s, times lev/pairs.go: %v, want %v", c.exp, c.alg, got, c.want)
		}
	}
}

// untimed are the sources under codeRoots that no record times, each
// with the reason; every other source must be some algorithm's code.
var untimed = map[string]string{
	"lev/levtest":        "the conformance suite and the reference distance: tests and levlab verify run it",
	"match/positions.go": "Positions, which no experiment times",
}

// codeRoots are the folders of the algorithms' code, in the module
// (moduleRoot, from this package's folder).
var codeRoots = []string{"lev", "match", "cudaext", "internal/bitpar"}

var moduleRoot = filepath.Join("..", "..", "..")

// TestCodePathsClaimEverySource: every source file (Go but tests,
// assembly, C, CUDA) of lev, match, cudaext and internal/bitpar is some
// algorithm's code, or named untimed with its reason; every code path
// and untimed path names a file. A file no algorithm claims is one whose
// change marks no record older.
func TestCodePathsClaimEverySource(t *testing.T) {
	var files []string
	for _, root := range codeRoots {
		err := filepath.WalkDir(filepath.Join(moduleRoot, filepath.FromSlash(root)), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			name := d.Name()
			switch {
			case d.IsDir(), strings.HasSuffix(name, "_test.go"):
				return nil
			case slices.Contains([]string{".go", ".s", ".c", ".h", ".cu", ".cuh"}, filepath.Ext(name)):
				rel, err := filepath.Rel(moduleRoot, p)
				files = append(files, filepath.ToSlash(rel))
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Contains(files, "lev/lev.go") {
		t.Fatalf("found no lev/lev.go among %d files: not run from report/internal/runs/?", len(files))
	}
	claims := func(paths []string, f string) bool {
		return slices.ContainsFunc(paths, func(p string) bool { return pathHas(p, f) })
	}
	var unclaimed []string
	for _, f := range files {
		in := false
		for _, paths := range append(slices.Collect(maps.Values(codePaths)), pairsCode) {
			in = in || claims(paths, f)
		}
		skip := claims(slices.Collect(maps.Keys(untimed)), f)
		switch {
		case !in && !skip:
			unclaimed = append(unclaimed, f)
		case in && skip:
			t.Errorf("%s is both some algorithm's code and untimed", f)
		}
	}
	if len(unclaimed) > 0 {
		t.Errorf("no algorithm's code paths claim %s: a change there marks no record older; add each to codePaths (or, if no record times it, to untimed)",
			strings.Join(unclaimed, ", "))
	}
	for alg, paths := range codePaths {
		for _, p := range paths {
			if !slices.ContainsFunc(files, func(f string) bool { return pathHas(p, f) }) {
				t.Errorf("%s's code path %s names no source file", alg, p)
			}
		}
	}
	for p := range untimed {
		if !slices.ContainsFunc(files, func(f string) bool { return pathHas(p, f) }) {
			t.Errorf("untimed %s names no source file", p)
		}
	}
}

// A record's commit keeps -dirty where it is abbreviated, so that no
// record from a tree with uncommitted changes reads as a commit.
func TestChangeStringKeepsDirty(t *testing.T) {
	for c, want := range map[Change]string{
		{"e4fc9a06ff04e4fc9a06ff04e4fc9a06ff04e4fc-dirty", "2026-11-26"}: "e4fc9a06ff04-dirty (2026-11-26)",
		{"e4fc9a06ff04e4fc9a06ff04e4fc9a06ff04e4fc", "2026-11-26"}:       "e4fc9a06ff04 (2026-11-26)",
		{"abc", "2026-11-26"}: "abc (2026-11-26)",
	} {
		if got := c.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", c, got, want)
		}
	}
}
