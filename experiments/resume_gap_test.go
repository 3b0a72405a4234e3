package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
)

// TestRunResumeFillsGaps: a record deleted from the middle of a file is
// measured again under its own rep, not as a rep past the last (which
// would repeat one already there, and the report would drop it).
func TestRunResumeFillsGaps(t *testing.T) {
	fakes(t, okMeasure)
	dir := t.TempDir()
	e := fakeExperiment("gap")
	r := Runner{Dir: dir, Reps: 3}
	if _, err := r.Run(context.Background(), []Experiment{e}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "gap.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Delete rep 2 of the first point (line 3) and rep 1 of the second
	// (line 5).
	lines := strings.SplitAfter(string(data), "\n")
	if !strings.Contains(lines[2], ",2,ok,") || !strings.Contains(lines[4], ",1,ok,") {
		t.Fatalf("lines 3 and 5 are not the reps expected:\n%s%s", lines[2], lines[4])
	}
	kept := append(append(lines[:2:2], lines[3]), lines[5:]...)
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := r.Run(context.Background(), []Experiment{e})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 2 {
		t.Errorf("the resumed run wrote %d records, want the 2 deleted", sum.Records)
	}
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range okReps(t, recs) {
		if n != 3 {
			t.Errorf("point %s: %d reps, want 3", k, n)
		}
	}
}
