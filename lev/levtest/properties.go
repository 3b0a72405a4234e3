package levtest

import (
	"bytes"
	"fmt"
	"testing"
)

// withSpare returns a copy of s with spare capacity filled with a pattern,
// so that a write past len(s) shows.
func withSpare(s []byte) []byte {
	out := make([]byte, len(s), len(s)+16)
	copy(out, s)
	for i := len(s); i < cap(out); i++ {
		out[:cap(out)][i] = 0xa5
	}
	return out
}

func (s *suite) properties(t *testing.T) {
	c := s.checker(t)
	rng := NewRand(t)
	triples := 40
	if s.small {
		triples = 20
	}
	none := optSet{}
	for i := range triples {
		alphabet := []string{DNA, Lowercase}[i%2]
		a := RandomBytes(rng, randomLength(rng, 400), alphabet)
		k1, k2 := rng.IntN(20), rng.IntN(20)
		b := Mutate(rng, a, k1, alphabet)
		if i%4 == 3 {
			b = RandomBytes(rng, randomLength(rng, 400), alphabet)
			k1 = max(len(a), len(b)) // the bound that always holds
		}
		cc := Mutate(rng, b, k2, alphabet)
		o := s.randomOptions(rng, len(a), len(b))
		what := fmt.Sprintf("triple %d", i)

		a, b, cc = withSpare(a), withSpare(b), withSpare(cc)
		ab, ok1 := c.distance(what, a, b, o)
		ba, ok2 := c.distance(what, b, a, o)
		bc, ok3 := c.distance(what, b, cc, o)
		ac, ok4 := c.distance(what, a, cc, o)
		again, ok5 := c.distance(what, a, b, o)
		if !(ok1 && ok2 && ok3 && ok4 && ok5) {
			continue
		}
		if ab != ba {
			c.errorf("%s: not symmetric: d(a, b) = %d, d(b, a) = %d, a = %s, b = %s, %v", what, ab, ba, show(a), show(b), o)
		}
		if again != ab {
			c.errorf("%s: not deterministic: d(a, b) = %d then %d, a = %s, b = %s, %v", what, ab, again, show(a), show(b), o)
		}
		if lo, hi := abs(len(a)-len(b)), max(len(a), len(b)); ab < lo || ab > hi {
			c.errorf("%s: d(a, b) = %d out of [|la−lb|, max(la, lb)] = [%d, %d], a = %s, b = %s, %v", what, ab, lo, hi, show(a), show(b), o)
		}
		if (ab == 0) != bytes.Equal(a, b) {
			c.errorf("%s: d(a, b) = %d but a == b is %v, a = %s, b = %s, %v", what, ab, bytes.Equal(a, b), show(a), show(b), o)
		}
		if ab > k1 {
			c.errorf("%s: d(a, b) = %d, but b is a with %d edits, a = %s, b = %s, %v", what, ab, k1, show(a), show(b), o)
		}
		if bc > k2 {
			c.errorf("%s: d(b, c) = %d, but c is b with %d edits, b = %s, c = %s, %v", what, bc, k2, show(b), show(cc), o)
		}
		if ac > ab+bc || ab > ac+bc || bc > ab+ac {
			c.errorf("%s: no triangle: d(a, b) = %d, d(b, c) = %d, d(a, c) = %d, %v", what, ab, bc, ac, o)
		}
	}

	// Aliased and nil inputs.
	buf := RandomBytes(rng, 300, DNA)
	c.bytes("the same slice twice", buf, buf, 0, none)
	c.ref("overlapping slices", buf[:200], buf[100:], none)
	c.ref("overlapping slices, shifted by one", buf[:299], buf[1:], none)
	c.bytes("nil vs nil", nil, nil, 0, none)
	c.bytes("nil vs empty", nil, []byte{}, 0, none)
	c.bytes("empty vs abc", []byte{}, []byte("abc"), 3, none)
	c.bytes("abc vs nil", []byte("abc"), nil, 3, none)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
