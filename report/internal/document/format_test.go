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
	// Against 2 workers: a bound just past 2 reads past it.
	if got, want := CIFrom(2.0021, 2.1, 2), "2.002–2.10"; got != want {
		t.Errorf("CIFrom(2.0021, 2.1, 2) = %q, want %q", got, want)
	}
	if got, want := CIFrom(1.0021, 2.1, 2), "1.00–2.10"; got != want {
		t.Errorf("CIFrom(1.0021, 2.1, 2) = %q, want %q", got, want)
	}
}

// TestNum: three significant digits at every size, the rest of a whole
// number zeros, a power of ten past the plain range.
func TestNum(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0.034512, "0.0345"},
		{12.34, "12.3"},
		{433.4, "433"},
		{999.6, "1,000"},
		{1093, "1,090"},
		{12364, "12,400"},
		{-37023, "-37,000"},
		{999_999, "1,000,000"},
		{2.5e12, "2.50×10¹²"},
		{0, "0"},
	} {
		if got := Num(c.x); got != c.want {
			t.Errorf("Num(%g) = %q, want %q", c.x, got, c.want)
		}
	}
}
