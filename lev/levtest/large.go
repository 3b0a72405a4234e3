package levtest

import (
	"fmt"
	"testing"
)

func (s *suite) large(t *testing.T) {
	c := s.checker(t)
	rng := NewRand(t)
	n := 5000
	if s.small {
		n = 1500
	}
	sets := []optSet{{}}
	if s.im.Parallel && !s.im.GPU {
		sets = append(sets, optSet{}.workers(2), optSet{}.workers(3).tile(100))
	}
	a := RandomBytes(rng, n, DNA)
	b := RandomBytes(rng, n-3, DNA)
	near := Mutate(rng, a, 10, DNA)
	wantAB, wantNear := Reference(a, b), Reference(a, near)
	for _, o := range sets {
		c.bytes(fmt.Sprintf("random %d vs %d", n, n-3), a, b, wantAB, o)
		c.bytes(fmt.Sprintf("%d vs 10 edits", n), a, near, wantNear, o)
		c.bytes(fmt.Sprintf("A^%d vs C^%d", n, n), repeat("A", n), repeat("C", n), n, o)
	}
}
