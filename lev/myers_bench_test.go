package lev

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMyersKernel times one full group of myers.go over 50,000 random
// ACGT columns with each kernel this CPU has, as kernel=go|avx2|avx512,
// and each group width the kernel runs, as strips=4 (256 rows) under go
// and avx2, 8, 16, 24 or 32 under avx512 (one ZMM register to four): the
// raw speed of the bit-parallel step, every cell computed, no band. GCUPS
// counts the group's cells.
func BenchmarkMyersKernel(b *testing.B) { benchGroups(b, 50000) }

// BenchmarkMyersRamps is BenchmarkMyersKernel over runs of 100 columns
// (the group's state kept between runs, as a band pass or a worker's
// chunk keeps it), where the ramps at both ends of a run weigh: a group
// of K strips runs 100+K−1 steps a run, K−1 of them at each end with some
// strips idle.
func BenchmarkMyersRamps(b *testing.B) { benchGroups(b, 100) }

// benchGroups runs a group of each kernel and width over 50,000 random
// ACGT columns, run columns a call to advance.
func benchGroups(b *testing.B, run int) {
	const n = 50000
	r := rand.New(rand.NewPCG(9, 9))
	t := make([]byte, n)
	for i := range t {
		t[i] = "ACGT"[r.IntN(4)]
	}
	h := make([]uint8, n)
	rows := make([]byte, maxStrips*wordBits)
	for i := range rows {
		rows[i] = "ACGT"[r.IntN(4)]
	}
	for _, k := range availableKernels() {
		for _, strips := range kernelWidths(k) {
			b.Run(fmt.Sprintf("kernel=%s/strips=%d", k, strips), func(b *testing.B) {
				g := newGroup(k, strips, 256)
				rows := rows[:g.rows()]
				load(g, rows)
				for b.Loop() {
					for i := range h {
						h[i] = hPlus
					}
					for j := 0; j < n; j += run {
						advance(g, t[j:j+run], h[j:j+run], h[j:j+run])
					}
				}
				b.ReportMetric(float64(len(rows)*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
			})
		}
	}
}
