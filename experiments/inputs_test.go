package experiments

import (
	"bytes"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev/levtest"
)

func TestInputs(t *testing.T) {
	e := Experiment{Name: "inputs-test"}
	lengths := [][2]int{{0, 0}, {1, 1}, {63, 63}, {64, 64}, {1000, 1000}, {0, 5}, {300, 77}, {50, 2000}}
	for _, c := range Cases() {
		for _, l := range lengths {
			la, lb := l[0], l[1]
			p := Point{Algorithm: "tworow", Case: c, LenA: la, LenB: lb}
			a, b, err := Inputs(e, p)
			equalOnly := c == CaseIdentical || c == CasePartial || c == CaseDiverged
			if equalOnly && la != lb {
				if err == nil || !strings.Contains(err.Error(), c) {
					t.Errorf("Inputs(%s, %d, %d): err = %v, want an error naming the case", c, la, lb, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("Inputs(%s, %d, %d): %v", c, la, lb, err)
				continue
			}
			if len(a) != la || len(b) != lb {
				t.Errorf("Inputs(%s, %d, %d): lengths %d and %d", c, la, lb, len(a), len(b))
			}
			// The same experiment, case and lengths give the same inputs,
			// whatever the algorithm and its parameters.
			q := p
			q.Algorithm, q.Workers, q.Tile = "tiled", 3, 64
			a2, b2, _ := Inputs(e, q)
			if !bytes.Equal(a, a2) || !bytes.Equal(b, b2) {
				t.Errorf("Inputs(%s, %d, %d) differ between two calls or two algorithms", c, la, lb)
			}
			if la >= 64 {
				a3, _, _ := Inputs(Experiment{Name: "other"}, p)
				if bytes.Equal(a, a3) {
					t.Errorf("Inputs(%s, %d, %d) are the same in two experiments", c, la, lb)
				}
			}
			checkCase(t, c, a, b)
		}
	}
}

// checkCase checks that a and b are what case c promises.
func checkCase(t *testing.T, c string, a, b []byte) {
	t.Helper()
	only := func(s []byte, alphabet string) bool {
		for _, x := range s {
			if strings.IndexByte(alphabet, x) < 0 {
				return false
			}
		}
		return true
	}
	n := len(a)
	switch c {
	case CaseRandom:
		if !only(a, "abcd") || !only(b, "abcd") {
			t.Errorf("%s: symbols outside abcd", c)
		}
	case CaseDNA:
		if !only(a, "ACGT") || !only(b, "ACGT") {
			t.Errorf("%s: symbols outside ACGT", c)
		}
	case CaseIdentical:
		if !bytes.Equal(a, b) {
			t.Errorf("%s (n = %d): a != b", c, n)
		}
	case CasePartial:
		d := levtest.Reference(a, b)
		edits := partialEdits(n)
		if d > edits || (n > 0 && d == 0) {
			t.Errorf("%s (n = %d): distance %d, want 1 to %d", c, n, d, edits)
		}
		if n >= 1000 && edits != n*PartialPercent/100 {
			t.Errorf("%s (n = %d): %d edits, want %d%%", c, n, edits, PartialPercent)
		}
		if !only(b, "abcd") {
			t.Errorf("%s: symbols outside abcd", c)
		}
	case CaseDiverged:
		d := levtest.Reference(a, b)
		edits := percentOf(n, DivergedPercent)
		if d > edits || (n > 0 && d == 0) || !only(a, "ACGT") || !only(b, "ACGT") {
			t.Errorf("%s (n = %d): distance %d, want 1 to %d, over ACGT", c, n, d, edits)
		}
		// Both kinds of indel are there: b is not a's substitutions alone.
		if n >= 1000 {
			subst := 0
			for i := range a {
				if a[i] != b[i] {
					subst++
				}
			}
			if subst <= 2*edits {
				t.Errorf("%s (n = %d): %d positions differ, want the shift of the indels past %d", c, n, subst, 2*edits)
			}
		}
	case CaseDifferent:
		if bytes.ContainsAny(b, string(a)) || !only(a, "abcd") || !only(b, "wxyz") {
			t.Errorf("%s: a and b have a symbol in common", c)
		}
		if d := levtest.Reference(a, b); d != max(len(a), len(b)) {
			t.Errorf("%s: distance %d, want max(%d, %d)", c, d, len(a), len(b))
		}
	default:
		t.Fatalf("no check for case %q", c)
	}
}

func TestInputsErrors(t *testing.T) {
	e := Experiment{Name: "inputs-test"}
	for _, tc := range []struct {
		p    Point
		want []string
	}{
		{Point{Case: "randm", LenA: 3, LenB: 3}, append([]string{`"randm"`}, Cases()...)},
		{Point{Case: "", LenA: 3, LenB: 3}, []string{`""`, "random"}},
		{Point{Case: CaseRandom, LenA: -1, LenB: 3}, []string{"-1", "negative"}},
		{Point{Case: CaseIdentical, LenA: 3, LenB: 4}, []string{"identical", "3", "4"}},
		{Point{Case: CasePartial, LenA: 5, LenB: 4}, []string{"partial", "equal lengths"}},
	} {
		_, _, err := Inputs(e, tc.p)
		if err == nil {
			t.Errorf("Inputs(%+v): no error", tc.p)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Inputs(%+v): %q does not say %q", tc.p, err, w)
			}
		}
	}
}
