package lev

import (
	"context"
	"math/rand/v2"
	"testing"
)

func refDist(a, b []byte) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestMyersQuick(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for it := 0; it < 3000; it++ {
		la, lb := r.IntN(900), r.IntN(900)
		if it%3 == 0 {
			lb = la + r.IntN(20)
		}
		sig := []int{2, 4, 26, 256}[r.IntN(4)]
		a := make([]byte, la)
		b := make([]byte, lb)
		for i := range a {
			a[i] = byte(r.IntN(sig))
		}
		for i := range b {
			b[i] = byte(r.IntN(sig))
		}
		if it%5 == 0 && la > 0 { // similar strings
			b = append([]byte(nil), a...)
			for k := 0; k < r.IntN(30); k++ {
				b[r.IntN(len(b))] = byte(r.IntN(sig))
			}
		}
		want := refDist(a, b)
		for _, w := range []int{1, 2, 3, 8} {
			for _, nb := range []bool{false, true} {
				tile := []int{0, 1, 5, 64}[r.IntN(4)]
				c := &config{ctx: context.Background(), workers: w, tile: tile, noBand: nb}
				got, err := myersDistance(a, b, c, w)
				if err != nil || got != want {
					t.Fatalf("it %d la %d lb %d sig %d w %d nb %v tile %d: got %d %v want %d", it, la, lb, sig, w, nb, tile, got, err, want)
				}
			}
		}
	}
}

func TestMyersBandDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for it := 0; it < 400; it++ {
		la, lb := 1+r.IntN(2500), 1+r.IntN(2500)
		sig := []int{2, 4, 26}[r.IntN(3)]
		a := make([]byte, la)
		b := make([]byte, lb)
		for i := range a {
			a[i] = byte(r.IntN(sig))
		}
		for i := range b {
			b[i] = byte(r.IntN(sig))
		}
		if it%2 == 0 {
			b = append([]byte(nil), a...)
			for k := 0; k < r.IntN(200); k++ {
				switch r.IntN(3) {
				case 0:
					b[r.IntN(len(b))] = byte(r.IntN(sig))
				case 1:
					i := r.IntN(len(b))
					b = append(b[:i], b[i+1:]...)
				default:
					i := r.IntN(len(b))
					b = append(b[:i], append([]byte{byte(r.IntN(sig))}, b[i:]...)...)
				}
				if len(b) == 0 {
					b = []byte{1}
				}
			}
		}
		want := refDist(a, b)
		p, q := a, b
		if len(p) > len(q) {
			p, q = q, p
		}
		m, n := len(p), len(q)
		for _, w := range []int{1, 2, 3} {
			for _, u := range []int{n - m, n - m + 1, want - 1, want, want + 3, n} {
				if u < n-m {
					continue
				}
				ps := &myersPass[byte]{p: p, t: q, m: m, n: n, sigma: 256, band: bandFor(m, n, u), workers: w, chunk: 1 + r.IntN(300), ctx: context.Background()}
				got, err := ps.run()
				if err != nil {
					t.Fatal(err)
				}
				if u >= want && got != want || got < want {
					t.Fatalf("it %d m %d n %d w %d u %d: got %d want %d", it, m, n, w, u, got, want)
				}
			}
		}
		c := &config{ctx: context.Background(), workers: 2}
		if got, _ := myersDistance(a, b, c, 2); got != want {
			t.Fatalf("it %d: distance got %d want %d", it, got, want)
		}
	}
}

// TestMyersPortableMatchesAVX2 runs the same passes with the AVX2 kernel
// and the portable loop; both must give the reference distance.
func TestMyersPortableMatchesAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU: only the portable loop runs")
	}
	r := rand.New(rand.NewPCG(4, 4))
	for it := 0; it < 200; it++ {
		la, lb := 1+r.IntN(3000), 1+r.IntN(3000)
		a := make([]byte, la)
		b := make([]byte, lb)
		sig := []int{2, 4, 26, 256}[it%4]
		for i := range a {
			a[i] = byte(r.IntN(sig))
		}
		for i := range b {
			b[i] = byte(r.IntN(sig))
		}
		want := refDist(a, b)
		for _, avx := range []bool{true, false} {
			useAVX2 = avx
			c := &config{ctx: context.Background(), workers: 2, tile: 1 + r.IntN(700), noBand: it%2 == 0}
			got, err := myersDistance(a, b, c, 1+it%3)
			useAVX2 = true
			if err != nil || got != want {
				t.Fatalf("it %d avx %v: got %d, %v; want %d", it, avx, got, err, want)
			}
		}
	}
}
