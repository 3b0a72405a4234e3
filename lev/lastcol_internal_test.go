package lev

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestLastColumn: the packed last column a pass leaves (lastCol) reads,
// row by row (at) and in blocks from any row (values), as the DP's last
// column D(p[:i], t) (in a band, a real path's cost or unreached), for
// every kernel, widths of one to many groups,
// bands that leave rows unreached, and 1 to 3 workers.
func TestLastColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var col lastCol
	for it := range myersIterations(200) {
		p, q := myersPair(r, 3000, []int{2, 4, 26}[it%3], it%2 == 0)
		want := make([]int, len(p)+1) // D(p[:i], q) by rows of the DP
		prev := make([]int, len(q)+1)
		for j := range prev {
			prev[j] = j
		}
		want[0] = len(q)
		for i := 1; i <= len(p); i++ {
			cur := make([]int, len(q)+1)
			cur[0] = i
			for j := 1; j <= len(q); j++ {
				cost := 1
				if p[i-1] == q[j-1] {
					cost = 0
				}
				cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
			}
			prev = cur
			want[i] = cur[len(q)]
		}
		u := len(p) + len(q)
		bd := bandFor(len(p), len(q), u)
		switch it % 3 {
		case 1: // a band that leaves cells out
			u = max(abs(len(p)-len(q)), want[len(p)])
			bd = bandFor(len(p), len(q), u)
		case 2: // Align's: the band of t twice as long, of which t is the first half
			bd = bandFor(len(p), 2*len(q), abs(len(p)-2*len(q))+r.IntN(50))
			u = -1
		}
		k := availableKernels()[it%len(availableKernels())]
		al := &aligner[uint8]{ctx: context.Background(), kernel: k}
		if err := al.lastColumn(p, q, bd, 256, 1+it%3, &col); err != nil {
			t.Fatal(err)
		}
		got := make([]int32, len(p)+1)
		from := r.IntN(len(p) + 1)
		col.values(from, got[from:])
		col.values(0, got[:from])
		full := u >= len(p)+len(q)
		for i, w := range want {
			// Exact without a band; in one, a real path's cost, exact at
			// row len(p) (the bound is at least the distance).
			a := col.at(i)
			exact := full || i == len(p) && u >= 0
			past := i > len(q)+bd.lo // no cell of the band in row i reaches column len(q)
			if a != got[i] || int(a) < w || exact && int(a) != w || past && a != unreached {
				t.Fatalf("it %d: %d×%d, kernel %s, band %+v: row %d reads %d (at) and %d (values from %d); D is %d",
					it, len(p), len(q), k, bd, i, a, got[i], from, w)
			}
		}
	}
}
