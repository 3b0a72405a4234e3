package nb

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestExploreHeadless: with no browser to answer (outside a notebook, as
// under nbconvert), Explore gives up after its wait with ErrNoBrowser and
// never runs: Run All cannot hang on it.
func TestExploreHeadless(t *testing.T) {
	ran := false
	start := time.Now()
	err := Explore(200*time.Millisecond, []Control{{Label: "length", Min: 1, Max: 10, Value: 5}, {Label: "algorithm", Options: []string{"a", "b"}}},
		func([]int) string { ran = true; return "" })
	if !errors.Is(err, ErrNoBrowser) || ran {
		t.Errorf("Explore without a browser: %v, ran %v; want ErrNoBrowser without running", err, ran)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Explore without a browser took %v; want about its wait", took)
	}
}

func TestExploreRefuses(t *testing.T) {
	for _, c := range []struct {
		controls []Control
		want     string
	}{
		{nil, "at least one control"},
		{[]Control{{Label: "n", Min: 10, Max: 1}}, `control "n": min 10 is above max 1`},
	} {
		if err := Explore(time.Millisecond, c.controls, func([]int) string { return "" }); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Explore(%v): %v; want an error saying %q", c.controls, err, c.want)
		}
	}
}

func TestControlText(t *testing.T) {
	for _, c := range []struct {
		c    Control
		v    int
		want string
	}{
		{Control{Min: 0, Max: 100000}, 50000, "50,000"},
		{Control{Options: []string{"ACGT", "AB"}}, 1, "AB"},
		{Control{Show: func(v int) string { return "w" }}, 3, "w"},
	} {
		if got := c.c.text(c.v); got != c.want {
			t.Errorf("text(%d) = %q; want %q", c.v, got, c.want)
		}
	}
}

// TestFullMatrix: the size a live cell announces is lev's, and a matrix
// over the limit is refused with both sizes named.
func TestFullMatrix(t *testing.T) {
	size, refused := fullMatrix(50000, 50000, 8<<30)
	if size != "4.66 GiB" || refused != "" {
		t.Errorf("fullMatrix(50000, 50000, 8 GiB) = %q, %q; want 4.66 GiB, not refused", size, refused)
	}
	_, refused = fullMatrix(50000, 50000, 4<<30)
	for _, want := range []string{"50,000 × 50,000", "needs 4.66 GiB", "over the 4.00 GiB", "refused"} {
		if !strings.Contains(refused, want) {
			t.Errorf("fullMatrix(50000, 50000, 4 GiB) refuses with %q; want it to say %q", refused, want)
		}
	}
}
