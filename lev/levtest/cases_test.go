package levtest

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestCases: Cases makes as many cases as asked, every one's Want the
// reference distance, text cases valid UTF-8, and the long lengths around
// the powers of two and tile multiples up to MaxLen.
func TestCases(t *testing.T) {
	for _, runes := range []bool{false, true} {
		cases := Cases(rand.New(rand.NewPCG(1, 2)), CaseOptions{N: 700, MaxLen: 5000, Runes: runes})
		if len(cases) != 700 {
			t.Fatalf("runes %v: %d cases, want 700", runes, len(cases))
		}
		longest := 0
		for _, c := range cases {
			longest = max(longest, len(c.A), len(c.B))
			want := Reference(c.A, c.B)
			if runes {
				want = ReferenceString(string(c.A), string(c.B))
				if !utf8.Valid(c.A) || !utf8.Valid(c.B) || !c.Runes {
					t.Errorf("%s: a text case that is not valid UTF-8 text", c.Name)
				}
			}
			if c.Want != want {
				t.Errorf("%s: Want %d, the reference says %d", c.Name, c.Want, want)
			}
		}
		if longest != 5000 {
			t.Errorf("runes %v: the longest string is %d, want MaxLen 5000", runes, longest)
		}
	}
	got := longLengths(20000)
	for _, n := range []int{2047, 2048, 2049, 16383, 16384, 16385, 2099, 2100, 2101, 2499, 2500, 2501, 2999, 3000, 3001, 19999, 20000} {
		found := false
		for _, g := range got {
			found = found || g == n
		}
		if !found {
			t.Errorf("longLengths(20000) = %v lacks %d", got, n)
		}
	}
}
