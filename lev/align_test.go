package lev_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// checkAlignment says what is wrong with al as an alignment of a and b of
// distance want: its edits must walk both to their ends, match only equal
// symbols, substitute only unequal ones, cost the distance and be runs.
func checkAlignment[S comparable](a, b []S, al lev.Alignment, want int) string {
	i, j := 0, 0
	for k, e := range al.Edits {
		if e.Len < 1 || (k > 0 && al.Edits[k-1].Op == e.Op) {
			return "edit " + string(e.Op) + ": not a run of its own"
		}
		for range e.Len {
			switch e.Op {
			case lev.OpMatch, lev.OpSubst:
				if i >= len(a) || j >= len(b) {
					return "walks past an end"
				}
				if (a[i] == b[j]) != (e.Op == lev.OpMatch) {
					return "= on unequal or X on equal symbols"
				}
				i, j = i+1, j+1
			case lev.OpIns:
				if i >= len(a) {
					return "I past a's end"
				}
				i++
			case lev.OpDel:
				if j >= len(b) {
					return "D past b's end"
				}
				j++
			default:
				return "unknown op " + string(e.Op)
			}
		}
	}
	switch {
	case i != len(a) || j != len(b):
		return "stops before an end"
	case al.Cost() != want || al.Distance != want:
		return "costs more than the distance"
	}
	return ""
}

func TestAlignFixed(t *testing.T) {
	for _, tc := range []struct{ a, b, cigar string }{
		{"kitten", "sitting", "1X3=1X1=1D"},
		{"", "", ""},
		{"", "abc", "3D"},
		{"abc", "", "3I"},
		{"abc", "abc", "3="},
	} {
		al, err := lev.Align([]byte(tc.a), []byte(tc.b))
		if err != nil || al.CIGAR() != tc.cigar {
			t.Errorf("Align(%q, %q) = %q, %v; want %q", tc.a, tc.b, al.CIGAR(), err, tc.cigar)
		}
	}
}

func TestAlignRandom(t *testing.T) {
	rng := levtest.NewRand(t)
	n := 300
	if lev.RaceEnabled {
		n = 60
	}
	for it := range n {
		la := rng.IntN([]int{10, 100, 700, 3000}[it%4] + 1)
		a := levtest.RandomBytes(rng, la, []string{levtest.DNA, levtest.Lowercase, levtest.Binary}[it%3])
		var b []byte
		if it%2 == 0 {
			b = levtest.Mutate(rng, a, rng.IntN(la/5+2), levtest.DNA)
		} else {
			b = levtest.RandomBytes(rng, rng.IntN(la+20), levtest.DNA)
		}
		al, err := lev.Align(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkAlignment(a, b, al, levtest.Reference(a, b)); msg != "" {
			t.Errorf("Align(%d bytes, %d bytes): %s: %s", len(a), len(b), msg, al.CIGAR())
		}
	}
	// Runes, past a byte's worth of them.
	var cjk strings.Builder
	for r := rune(0x4e00); r < 0x4e00+400; r++ {
		cjk.WriteRune(r)
	}
	x := []rune(cjk.String())
	y := append(append([]rune{}, x[5:200]...), x[250:]...)
	al, err := lev.AlignString(string(x), string(y))
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkAlignment(x, y, al, levtest.ReferenceString(string(x), string(y))); msg != "" {
		t.Errorf("AlignString over 400 runes: %s: %s", msg, al.CIGAR())
	}
}

func TestAlignErrors(t *testing.T) {
	for _, opts := range [][]lev.Option{{lev.WithAlgorithm(lev.TwoRow)}, {lev.WithMax(3)}, {lev.WithTop(2)}, {lev.WithWorkers(-1)}} {
		if _, err := lev.Align([]byte("a"), []byte("b"), opts...); !errors.Is(err, lev.ErrInvalidOption) {
			t.Errorf("Align with %d options: %v, want ErrInvalidOption", len(opts), err)
		}
	}
}

func FuzzAlign(f *testing.F) {
	f.Add([]byte("kitten"), []byte("sitting"))
	f.Add([]byte(strings.Repeat("ACGT", 50)), []byte(strings.Repeat("ACGA", 49)))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		al, err := lev.Align(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkAlignment(a, b, al, levtest.Reference(a, b)); msg != "" {
			t.Errorf("Align(%q, %q): %s: %s", a, b, msg, al.CIGAR())
		}
	})
}
