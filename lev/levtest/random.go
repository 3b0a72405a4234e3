package levtest

import (
	"fmt"
	"slices"
	"testing"
)

func (s *suite) random(t *testing.T) {
	pairs, maxLen := 200, 1500
	if s.small {
		pairs, maxLen = 60, 600
	}
	for _, alphabet := range []string{Binary, DNA, Lowercase, AllBytes} {
		t.Run(fmt.Sprintf("alphabet=%d", len(alphabet)), func(t *testing.T) {
			c := s.checker(t)
			rng := NewRand(t)
			for i := range pairs {
				la, lb := randomLength(rng, maxLen), randomLength(rng, maxLen)
				a := RandomBytes(rng, la, alphabet)
				var b []byte
				switch rng.IntN(3) {
				case 0: // unrelated, of unequal lengths
					if lb == la {
						lb++
					}
					b = RandomBytes(rng, lb, alphabet)
				case 1: // close: a small distance, a narrow band
					b = Mutate(rng, a, 1+rng.IntN(8), alphabet)
				default: // a piece of a, with random ends
					i := rng.IntN(la + 1)
					j := i + rng.IntN(la-i+1)
					b = slices.Concat(RandomBytes(rng, rng.IntN(10), alphabet), a[i:j], RandomBytes(rng, rng.IntN(10), alphabet))
				}
				c.ref(fmt.Sprintf("pair %d", i), a, b, s.randomOptions(rng, len(a), len(b)))
			}
		})
	}
}
