//go:build unix

package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunFolderGivenDirectly: the folder levlab run --spec --out wrote,
// its records and kept spec in it, is read as one run when given as the
// results; a folder with no runs says where it looked and what it found.
func TestRunFolderGivenDirectly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	ownRun(t, dir, "mine", ownRecords("mine", ownPoint{"a", "random", 100, 0.5}), map[string]string{"mine.toml": specText("mine", "Given directly", "random", "a")})
	md, err := mdOf(Options{Results: dir, Only: []string{"mine"}})
	if err != nil {
		t.Fatalf("the report of a run folder given as the results: %v", err)
	}
	if !strings.Contains(md, "Given directly") || !strings.Contains(md, "500 ms") {
		t.Errorf("the report of a run folder given directly lacks its title or time:\n%s", md)
	}
	if md, err := mdOf(Options{Results: dir}); err != nil || !strings.Contains(md, "Own experiment mine") {
		t.Errorf("the full report of a run folder: %v\n%s", err, head(md))
	}

	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), nil, 0o644)
	_, err = mdOf(Options{Results: empty, Only: []string{"mine"}})
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "no run") {
		t.Errorf("--only mine of a folder of no runs: %v; want it to name the folder and say it holds no run", err)
	}
}
