package document

import "testing"

// TestCI: an interval's bound that is not 1 never reads as 1.00, so that
// one that leaves 1× out does not read as one that touches it.
func TestCI(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0.5, 0.75, "0.500–0.750"},
		{1.0032, 1.03, "1.003–1.03"},
		{0.9981, 1.2, "0.998–1.20"},
		{1, 1.5, "1.00–1.50"},
		{1.00004, 2, "1.00004–2.00"},
	} {
		if got := CI(c.lo, c.hi); got != c.want {
			t.Errorf("CI(%g, %g) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}
