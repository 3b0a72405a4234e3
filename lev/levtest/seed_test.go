package levtest

import "testing"

func TestRunPattern(t *testing.T) {
	got := runPattern("TestConformance/myers-parallel/options/tile=1+1")
	want := `^TestConformance$/^myers-parallel$/^options$/^tile=1\+1$`
	if got != want {
		t.Errorf("runPattern = %s, want %s", got, want)
	}
}
