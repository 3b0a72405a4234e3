package records

import (
	"os"
	"path/filepath"
	"reflect"
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
