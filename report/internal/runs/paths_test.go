package runs

import (
	"path/filepath"
	"testing"
)

// TestShownDir: a run in the tree is named from the tree's name on, however
// the tree was given; a run outside it as given.
func TestShownDir(t *testing.T) {
	const fixture = "testdata/results" // a tree's path; it need not exist
	abs, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ root, dir, want string }{
		{fixture, fixture + "/m/paper", "results/m/paper"},
		{abs, abs + "/m/paper", "results/m/paper"},
		{abs, fixture + "/m/quick", "results/m/quick"},
		{fixture, "out/m/quick", "out/m/quick"},
		{fixture, "testdata/resultsX/m/quick", "testdata/resultsX/m/quick"},
	} {
		if got := shownDir(c.root, c.dir); got != c.want {
			t.Errorf("shownDir(%q, %q) = %q; want %q", c.root, c.dir, got, c.want)
		}
	}
}
