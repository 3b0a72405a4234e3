package lev_test

import (
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// TestInvalidUTF8Runes: every entry point that counts runes counts an
// invalid UTF-8 byte as one U+FFFD, as its doc says: the same distance from
// DistanceString, AlignString, CrossStrings and AllStrings.
func TestInvalidUTF8Runes(t *testing.T) {
	for _, c := range [][2]string{
		{"ab\xffc", "ab\xfec"},   // different invalid bytes: both U+FFFD
		{"ab\xffc", "ab\uFFFDc"}, // an invalid byte and U+FFFD itself
		{"\xe6\x97", "日"},        // a rune cut short: two U+FFFDs
		{"h\xc3llo", "héllo"},
		{"", "\xff\xfe\xfd"},
	} {
		a, b := c[0], c[1]
		want := levtest.ReferenceString(a, b)
		if d, err := lev.DistanceString(a, b); err != nil || d != want {
			t.Errorf("DistanceString(%q, %q) = %d, %v; want %d", a, b, d, err, want)
		}
		if al, err := lev.AlignString(a, b); err != nil || al.Distance != want {
			t.Errorf("AlignString(%q, %q).Distance = %d, %v; want %d", a, b, al.Distance, err, want)
		}
		pairs, err := collect(func(fn func(lev.Pair) error) error { return lev.CrossStrings([]string{a}, []string{b}, fn) })
		if err != nil || len(pairs) != 1 || pairs[0].Distance != want {
			t.Errorf("CrossStrings(%q, %q) = %v, %v; want distance %d", a, b, pairs, err, want)
		}
		pairs, err = collect(func(fn func(lev.Pair) error) error { return lev.AllStrings([]string{a, b}, fn) })
		if err != nil || len(pairs) != 1 || pairs[0].Distance != want {
			t.Errorf("AllStrings(%q, %q) = %v, %v; want distance %d", a, b, pairs, err, want)
		}
	}
}
