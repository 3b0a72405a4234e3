package lev_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMESnippets: every Go snippet of the README is part of an
// example that compiles and runs — its lines, but imports, appear in order
// in one Example function of lev's or match's example_test.go — so that
// the README's code cannot drift from the library.
func TestREADMESnippets(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var funcs []string
	for _, f := range []string{"example_test.go", "../match/example_test.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range strings.Split(string(src), "\nfunc Example")[1:] {
			funcs = append(funcs, "func Example"+fn)
		}
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) == 0 {
		t.Fatal("the README has no Go snippet")
	}
	for _, b := range blocks {
		var want []string
		for _, l := range strings.Split(b[1], "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "import ") {
				want = append(want, l)
			}
		}
		found := false
		for _, fn := range funcs {
			if inOrder(fn, want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no example holds the README's snippet, line for line:\n%s", b[1])
		}
	}
}

// inOrder reports whether the lines of want are lines of src, trimmed, in
// that order.
func inOrder(src string, want []string) bool {
	i := 0
	for _, l := range strings.Split(src, "\n") {
		if i < len(want) && strings.TrimSpace(l) == want[i] {
			i++
		}
	}
	return i == len(want)
}
