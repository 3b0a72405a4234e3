//go:build amd64 && !purego

package lev

// lanesColumnAVX2 advances blockLanes' four lanes by one column in the
// lanes of YMM registers (blocklanes_amd64.s): words ≥ 1 of them, word w
// of lane l at pv[4w+l], the match words of lane l's symbol from el; the
// horizontal deltas at row lb of the last word go to d.
//
//go:noescape
func lanesColumnAVX2(pv, mv *uint64, e0, e1, e2, e3 *uint64, words int, lb uint64, d *[4]int64)

// lanesColumnAVX512 is lanesColumnAVX2 with eight lanes (AVX-512F): word
// w of lane l at pv[8w+l], lane l's match words gathered from peq at
// off[l]+w.
//
//go:noescape
func lanesColumnAVX512(pv, mv *uint64, peq *uint64, off *[8]int64, words int, lb uint64, d *[8]int64)

// lanesRunAVX512 runs lanesColumnAVX512 over every column 1 … n of eight
// texts held column-major in cols (lane l's symbol of column j at
// cols[8(j−1)+l], 0 past its end), each lane's score from m, and sets
// out[l] to lane l's distance at column lens[l] (out is left where lens[l]
// is 0).
//
//go:noescape
func lanesRunAVX512(pv, mv *uint64, peq *uint64, cols *uint8, n, words, m int, lb uint64, lens, out *[8]int64)
