package lev

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMyersKernel times one full group of myers.go over 50,000 random
// ACGT columns with each kernel this CPU has, as kernel=go|avx2|avx512:
// the raw speed of the bit-parallel step, every cell computed, no band. A
// group is four strips (256 rows) under go and avx2, eight (512) under
// avx512; GCUPS counts the cells of either.
func BenchmarkMyersKernel(b *testing.B) {
	const n = 50000
	r := rand.New(rand.NewPCG(9, 9))
	t := make([]byte, n)
	for i := range t {
		t[i] = "ACGT"[r.IntN(4)]
	}
	h := make([]uint8, n)
	for _, k := range availableKernels() {
		rows := make([]byte, maxStrips*wordBits)
		for i := range rows {
			rows[i] = "ACGT"[r.IntN(4)]
		}
		b.Run("kernel="+k.String(), func(b *testing.B) {
			k, width := kernelFor[uint8](k, len(rows))
			g := newGroup(k, width, 256)
			rows := rows[:g.rows()]
			load(g, rows)
			for b.Loop() {
				for i := range h {
					h[i] = hPlus
				}
				advance(g, t, h, h)
			}
			b.ReportMetric(float64(len(rows)*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
		})
	}
}
