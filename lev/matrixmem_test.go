package lev_test

import (
	"errors"
	"math"
	"testing"

	"github.com/levlab/levlab/lev"
)

// TestFullMatrixBytes holds FullMatrixBytes to what FullMatrix refuses: a
// limit one byte under it refuses, naming the same size.
func TestFullMatrixBytes(t *testing.T) {
	for _, c := range []struct {
		m, n int
		want uint64
	}{
		{0, 0, 2}, {50000, 50000, 50001 * 50001 * 2}, {70000, 3, 70001 * 4 * 4},
	} {
		got, ok := lev.FullMatrixBytes(c.m, c.n)
		if !ok || got != c.want {
			t.Errorf("lev.FullMatrixBytes(%d, %d) = %d, %v; want %d", c.m, c.n, got, ok, c.want)
		}
	}
	if _, ok := lev.FullMatrixBytes(math.MaxInt, math.MaxInt); ok {
		t.Error("lev.FullMatrixBytes(MaxInt, MaxInt) is ok; want past 2^64 bytes")
	}
	a, b := make([]byte, 3000), make([]byte, 2000)
	need, _ := lev.FullMatrixBytes(len(a), len(b))
	if _, err := lev.Distance(a, b, lev.WithAlgorithm(lev.FullMatrix), lev.WithMatrixLimit(int64(need)-1)); !errors.Is(err, lev.ErrTooLarge) {
		t.Errorf("FullMatrix under a limit of FullMatrixBytes−1: %v; want ErrTooLarge", err)
	}
	if _, err := lev.Distance(a, b, lev.WithAlgorithm(lev.FullMatrix), lev.WithMatrixLimit(int64(need))); err != nil {
		t.Errorf("FullMatrix under a limit of FullMatrixBytes: %v", err)
	}
}
