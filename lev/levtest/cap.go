package levtest

import (
	"fmt"
	"testing"

	"github.com/levlab/levlab/lev"
)

// caps checks WithMax: the distance when within the cap, k+1 past it
// (through Cross: no pair past it), on random pairs and caps around their
// distance.
func (s *suite) caps(t *testing.T) {
	rng := NewRand(t)
	c := s.checker(t)
	n := 40
	if s.small {
		n = 15
	}
	for it := range n {
		la := 65 + randomLength(rng, 400) // past a word
		a := RandomBytes(rng, la, DNA)
		var b []byte
		switch it % 3 {
		case 0:
			b = RandomBytes(rng, randomLength(rng, 400), DNA)
		case 1:
			// 0 to 3 edits: bands narrower than a word, even none
			b = Mutate(rng, a, it%4, DNA)
		default:
			b = Mutate(rng, a, rng.IntN(200), Lowercase)
		}
		d := Reference(a, b)
		for _, k := range []int{0, 1, max(0, d-1), d, d + 1, rng.IntN(2*d + 2), 1 << 20} {
			want := d
			if d > k {
				want = k + 1
			}
			got, ok := c.distance(fmt.Sprintf("cap %d", k), a, b, optSet{}.with(fmt.Sprintf("max=%d", k), lev.WithMax(k)))
			if ok && got == -1 && s.im.Pairs {
				got = k + 1 // Cross gives no pair past the cap
			}
			if ok && got != want {
				c.errorf("Distance(%s, %s) with max=%d = %d, want %d (distance %d)", show(a), show(b), k, got, want, d)
			}
		}
	}
}
