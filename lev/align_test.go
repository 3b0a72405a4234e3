package lev_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

func TestAlignFixed(t *testing.T) {
	for _, tc := range []struct{ a, b, cigar string }{
		{"kitten", "sitting", "1X3=1X1=1D"},
		{"", "", ""},
		{"", "abc", "3D"},
		{"abc", "", "3I"},
		{"abc", "abc", "3="},
		{"x", "abxc", "2D1=1D"},
		{"abxc", "y", "1X3I"},
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
		w := []int{0, 1, 3, 8}[it%4]
		al, err := lev.Align(a, b, lev.WithWorkers(w))
		if err != nil {
			t.Fatal(err)
		}
		if msg := levtest.CheckAlignment(a, b, al, levtest.Reference(a, b)); msg != "" {
			t.Errorf("Align(%d bytes, %d bytes) with %d workers: %s: %s", len(a), len(b), w, msg, al.CIGAR())
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
	if msg := levtest.CheckAlignment(x, y, al, levtest.ReferenceString(string(x), string(y))); msg != "" {
		t.Errorf("AlignString over 400 runes: %s: %s", msg, al.CIGAR())
	}
}

// TestAlignLarge aligns pairs past the DP's reach, near and far, checked
// against the distance: the splits of every level, the first one's guess
// too narrow (the far pair) or wide enough (the near one).
func TestAlignLarge(t *testing.T) {
	rng := levtest.NewRand(t)
	n := 60000
	if lev.RaceEnabled || testing.Short() {
		n = 8000
	}
	a := levtest.RandomBytes(rng, n, levtest.DNA)
	for _, b := range [][]byte{
		levtest.Mutate(rng, a, n/100, levtest.DNA),
		levtest.RandomBytes(rng, n/4, levtest.DNA),
		levtest.RandomBytes(rng, n+n/10, levtest.DNA),
	} {
		d, err := lev.Distance(a, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			al, err := lev.Align(a, b, lev.WithWorkers(w))
			if err != nil {
				t.Fatal(err)
			}
			if msg := levtest.CheckAlignment(a, b, al, d); msg != "" {
				t.Errorf("Align(%d bytes, %d bytes) with %d workers: %s", len(a), len(b), w, msg)
			}
		}
	}
}

// TestAlignCanceled: a canceled context stops an alignment with its error.
func TestAlignCanceled(t *testing.T) {
	rng := levtest.NewRand(t)
	a := levtest.RandomBytes(rng, 20000, levtest.DNA)
	b := levtest.RandomBytes(rng, 20000, levtest.DNA)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := lev.Align(a, b, lev.WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Errorf("Align with a canceled context: %v, want context.Canceled", err)
	}
}

func TestAlignErrors(t *testing.T) {
	for _, opts := range [][]lev.Option{{lev.WithAlgorithm(lev.TwoRow)}, {lev.WithMax(-1)}, {lev.WithTop(2)}, {lev.WithWorkers(-1)}} {
		if _, err := lev.Align([]byte("a"), []byte("b"), opts...); !errors.Is(err, lev.ErrInvalidOption) {
			t.Errorf("Align with %d options: %v, want ErrInvalidOption", len(opts), err)
		}
	}
}

func FuzzAlign(f *testing.F) {
	f.Add([]byte("kitten"), []byte("sitting"), uint8(0))
	f.Add([]byte(strings.Repeat("ACGT", 50)), []byte(strings.Repeat("ACGA", 49)), uint8(3))
	f.Add([]byte("GATTACA"), []byte("TACAGAT"), uint8(200))
	// rep repeats a and b up to 2000 bytes: pieces past the DP, split.
	f.Fuzz(func(t *testing.T, a, b []byte, rep uint8) {
		if len(a) > 0 && len(b) > 0 {
			a = bytes.Repeat(a, min(1+int(rep), 2000/len(a)+1))
			b = bytes.Repeat(b, min(1+int(rep)/2, 2000/len(b)+1))
		}
		al, err := lev.Align(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if msg := levtest.CheckAlignment(a, b, al, levtest.Reference(a, b)); msg != "" {
			t.Errorf("Align(%q, %q): %s: %s", a, b, msg, al.CIGAR())
		}
	})
}
