package document

import "testing"

// Shade keeps the first machine's colour, and gives the others a darker
// or lighter one of the same hue.
func TestShade(t *testing.T) {
	for _, c := range []struct {
		m    int
		want string
	}{{0, "#5470c6"}, {1, "#324377"}, {2, "#90a2da"}, {4, "#5470c6"}} {
		if got := Shade("#5470c6", c.m); got != c.want {
			t.Errorf("Shade(#5470c6, %d) = %s, want %s", c.m, got, c.want)
		}
	}
	if got := Shade("blue", 1); got != "blue" {
		t.Errorf("shade of a name = %s, want it unchanged", got)
	}
}
