package levtest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRandomBytes(t *testing.T) {
	rng := NewRand(t)
	for _, alphabet := range []string{Binary, DNA, Lowercase, AllBytes} {
		s := RandomBytes(rng, 5000, alphabet)
		if len(s) != 5000 {
			t.Fatalf("RandomBytes(5000) has length %d", len(s))
		}
		seen := map[byte]bool{}
		for _, c := range s {
			if !strings.ContainsRune(alphabet, rune(c)) && alphabet != AllBytes {
				t.Fatalf("RandomBytes drew %q, not in %q", c, alphabet)
			}
			seen[c] = true
		}
		if len(seen) != len(alphabet) {
			t.Errorf("5000 draws over %d symbols hit only %d of them", len(alphabet), len(seen))
		}
	}
	if len(AllBytes) != 256 || AllBytes[0] != 0 || AllBytes[255] != 255 {
		t.Errorf("AllBytes is not 0x00…0xff")
	}
}

func TestMutate(t *testing.T) {
	rng := NewRand(t)
	for range 200 {
		s := RandomBytes(rng, rng.IntN(50), DNA)
		keep := bytes.Clone(s)
		k := rng.IntN(10)
		m := Mutate(rng, s, k, DNA)
		if !bytes.Equal(s, keep) {
			t.Fatalf("Mutate changed its input")
		}
		if d := Reference(s, m); d > k {
			t.Fatalf("Mutate(%q, %d) = %q at distance %d", s, k, m, d)
		}
	}
}

// TestDiverge: Diverge makes about the edits asked, each one edit, so that
// the distance is at most their number and near it, and nothing at 0‰.
func TestDiverge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := RandomBytes(rng, 20000, DNA)
	if got := Diverge(rng, s, 0, DNA); string(got) != string(s) {
		t.Errorf("0‰ changed the sequence")
	}
	for _, pm := range []int{10, 50, 150} {
		d := Reference(s, Diverge(rng, s, pm, DNA))
		if want := len(s) * pm / 1000; d > want*12/10 || d < want*7/10 {
			t.Errorf("%d‰ of %d symbols: distance %d, want about %d", pm, len(s), d, want)
		}
	}
}
