package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/match"
)

// readmeList returns the names of the bullet list ("- `name` — what")
// that follows the line of the README starting with intro.
func readmeList(t *testing.T, readme, intro string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n"+intro)
	if !ok {
		t.Fatalf("README has no line starting %q", intro)
	}
	var names []string
	inList := false
	for line := range strings.Lines(rest) {
		name, ok := strings.CutPrefix(line, "- `")
		switch {
		case ok:
			inList = true
			name, _, _ = strings.Cut(name, "`")
			names = append(names, name)
		case inList:
			return names
		}
	}
	return names
}

func names[T interface{ String() string }](all []T) []string {
	var out []string
	for _, v := range all {
		out = append(out, v.String())
	}
	return out
}

// TestREADMEInStep holds the README to the code: its algorithm lists are
// lev's and match's, in their order, as levlab -h and levlab match -h list
// them (TestHelp, TestMatchUsage); it stays a guide of at most 250 lines,
// the reference being go doc and -h; every file it links exists.
func TestREADMEInStep(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if got, want := readmeList(t, readme, "The distance algorithms"), names(lev.Algorithms()); !slices.Equal(got, want) {
		t.Errorf("README's distance algorithms %q; lev.Algorithms() %q", got, want)
	}
	if got, want := readmeList(t, readme, "The matching algorithms"), names(match.Algorithms()); !slices.Equal(got, want) {
		t.Errorf("README's matching algorithms %q; match.Algorithms() %q", got, want)
	}
	if n := strings.Count(readme, "\n"); n > 250 {
		t.Errorf("README.md has %d lines; a guide keeps to 250 (the reference is go doc and levlab -h, the rest docs/)", n)
	}
	for _, link := range []string{"docs/experiments.md", "docs/gpu.md", "docs/mpi.md", "docs/notebooks.md", "docs/layout.md", "docs/report-top.png"} {
		if !strings.Contains(readme, "("+link+")") {
			t.Errorf("README does not link %s", link)
		}
		if _, err := os.Stat("../../" + link); err != nil {
			t.Errorf("README links %s: %v", link, err)
		}
	}
	// The make targets it names exist.
	for _, target := range []string{"test", "build", "build-mpi", "bench", "bench-results", "fuzz", "notebooks"} {
		if !strings.Contains(readme, "make "+target) {
			continue
		}
		if err := exec.Command("make", "-C", "../..", "-n", target).Run(); err != nil {
			t.Errorf("README names make %s, which make -n does not know: %v", target, err)
		}
	}
}
