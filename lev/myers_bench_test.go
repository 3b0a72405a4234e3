package lev

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMyersKernel times one group of myers.go (groupRows rows) over
// 50,000 random ACGT columns with each kernel, as kernel=go|avx2: the raw
// speed of the bit-parallel step, every cell computed, no band.
func BenchmarkMyersKernel(b *testing.B) {
	const n = 50000
	r := rand.New(rand.NewPCG(9, 9))
	rows := make([]byte, groupRows)
	t := make([]byte, n)
	for i := range rows {
		rows[i] = "ACGT"[r.IntN(4)]
	}
	for i := range t {
		t[i] = "ACGT"[r.IntN(4)]
	}
	h := make([]uint8, n)
	for _, avx := range []bool{false, true} {
		name := "kernel=go"
		if avx {
			if !useAVX2 {
				continue
			}
			name = "kernel=avx2"
		}
		b.Run(name, func(b *testing.B) {
			saved := useAVX2
			useAVX2 = avx
			defer func() { useAVX2 = saved }()
			g := &group{peq: make([][groupStrips]uint64, 256)}
			load(g, rows)
			for b.Loop() {
				for i := range h {
					h[i] = hPlus
				}
				advance(g, t, h, h)
			}
			b.ReportMetric(float64(groupRows*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
		})
	}
}
