package levtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Alphabets for RandomBytes.
const (
	Binary    = "01"
	DNA       = "ACGT" // the reports' random strings
	Lowercase = "abcdefghijklmnopqrstuvwxyz"
)

// AllBytes is the alphabet of all 256 byte values, 0x00 to 0xff in order.
var AllBytes = func() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// RandomBytes returns n bytes drawn uniformly and independently from
// alphabet, which must not be empty.
func RandomBytes(rng *rand.Rand, n int, alphabet string) []byte {
	if alphabet == "" {
		panic("levtest: RandomBytes with an empty alphabet")
	}
	s := make([]byte, n)
	for i := range s {
		s[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return s
}

// Mutate returns a copy of s with edits random single-symbol edits
// (substitution, insertion or deletion, new symbols drawn from alphabet), so
// that the distance between s and the result is at most edits. It makes the
// pairs of small distance, like the reports' "partially different" cases.
func Mutate(rng *rand.Rand, s []byte, edits int, alphabet string) []byte {
	return mutate(rng, s, edits, []byte(alphabet))
}

// Diverge returns a copy of s diverged by about permille/1000 edits a
// symbol, spread uniformly: before each symbol, with that probability, a
// substitution by a symbol of alphabet other than it, an insertion of one,
// or a deletion of it, one in three each — "similar sequences" as read
// aligners and A*PA2's benchmarks make them. It takes O(len(s)), where
// Mutate's edits each take O(len(s)). permille must be in [0, 1000].
func Diverge(rng *rand.Rand, s []byte, permille int, alphabet string) []byte {
	if permille < 0 || permille > 1000 || len(alphabet) < 2 {
		panic(fmt.Sprintf("levtest: Diverge by %d‰ over %d symbols: want 0 to 1000‰ and 2 symbols or more", permille, len(alphabet)))
	}
	out := make([]byte, 0, len(s)+len(s)*permille/1000+1)
	for _, c := range s {
		if rng.IntN(1000) >= permille {
			out = append(out, c)
			continue
		}
		other := alphabet[rng.IntN(len(alphabet))]
		for other == c {
			other = alphabet[rng.IntN(len(alphabet))]
		}
		switch rng.IntN(3) {
		case 0:
			out = append(out, other)
		case 1:
			out = append(out, other, c)
		}
	}
	return out
}

func mutate[S any](rng *rand.Rand, s []S, edits int, alphabet []S) []S {
	out := slices.Clone(s)
	for range edits {
		i := rng.IntN(len(out) + 1)
		op := rng.IntN(3)
		if i == len(out) {
			op = 1 // only an insertion fits at the end
		}
		c := alphabet[rng.IntN(len(alphabet))]
		switch op {
		case 0:
			out[i] = c
		case 1:
			out = slices.Insert(out, i, c)
		default:
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// randomRunes returns n runes drawn uniformly from alphabet.
func randomRunes(rng *rand.Rand, n int, alphabet []rune) []rune {
	s := make([]rune, n)
	for i := range s {
		s[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return s
}

// runeRange returns the runes lo through hi.
func runeRange(lo, hi rune) []rune {
	r := make([]rune, 0, hi-lo+1)
	for c := lo; c <= hi; c++ {
		r = append(r, c)
	}
	return r
}

// randomLength draws mostly short lengths, where the boundaries are dense,
// and now and then one up to max.
func randomLength(rng *rand.Rand, max int) int {
	switch p := rng.IntN(100); {
	case p < 70:
		return rng.IntN(80)
	case p < 95:
		return rng.IntN(300)
	default:
		return rng.IntN(max + 1)
	}
}
