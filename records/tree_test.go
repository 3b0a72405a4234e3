package records

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

func TestRuns(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"published", ".git", "b-box/quick", "b-box/paper", "b-box/custom", "a-box/quick", "empty-box"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "a-box", "notes.txt"), nil, 0o644)
	for _, d := range []string{"b-box/quick", "b-box/paper", "b-box/custom", "a-box/quick"} {
		if err := os.WriteFile(filepath.Join(root, d, "e.csv"), []byte("h\nrow\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := Runs(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.String())
		if r.Dir != RunDir(root, r.Machine, r.Scale) {
			t.Errorf("%s: Dir %s", r, r.Dir)
		}
	}
	want := []string{"a-box/quick", "b-box/paper", "b-box/quick", "b-box/custom"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Runs: %v, want %v (by machine; paper, quick, then others)", got, want)
	}
	var pref []string
	for _, r := range Preferred(runs) {
		pref = append(pref, r.String())
	}
	if want := []string{"a-box/quick", "b-box/paper"}; !reflect.DeepEqual(pref, want) {
		t.Errorf("Preferred: %v, want %v", pref, want)
	}
	if _, err := Runs(filepath.Join(root, "nope")); err == nil {
		t.Error("Runs of a missing folder: no error")
	}
}

func TestKey(t *testing.T) {
	a := Record{Experiment: "e", Scale: "quick", Algorithm: "tworow", LenA: 10, LenB: 10, Rep: 1}
	b := a
	b.Scale, b.Rep, b.Seconds = "paper", 2, 1
	if Key(a) != Key(b) {
		t.Errorf("Key differs across scale and rep: %+v %+v", Key(a), Key(b))
	}
	b.Workers = 2
	if Key(a) == Key(b) {
		t.Error("Key ignores workers")
	}
}

// TestRunsHoldRecords: a folder is a run only if it holds records (a stray
// results/X/Y, or one whose only *.csv is not a regular file, is not a
// machine), and a run reached through a link to another folder of the tree
// is read once, under its real name.
func TestRunsHoldRecords(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a-box/quick", "a-box/paper", "stray/quick", "c-box/quick", "fifo-box/quick"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a-box/quick/x.csv", "c-box/quick/y.csv"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\ny\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "stray", "quick", "notes.txt"), nil, 0o644)
	if err := syscall.Mkfifo(filepath.Join(root, "fifo-box", "quick", "z.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	// b-box is a-box again; c-box/paper is c-box/quick again.
	if err := os.Symlink("a-box", filepath.Join(root, "b-box")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("quick", filepath.Join(root, "c-box", "paper")); err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.String())
	}
	if want := []string{"a-box/quick", "c-box/quick"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Runs: %v, want %v", got, want)
	}
}
