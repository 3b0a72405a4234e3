//go:build !amd64 || purego

package lev

func lanesColumnAVX2(pv, mv *uint64, e0, e1, e2, e3 *uint64, words int, lb uint64, d *[4]int64) {
	panic("lev: lanesColumnAVX2 called without AVX2")
}

func lanesColumnAVX512(pv, mv *uint64, peq *uint64, off *[8]int64, words int, lb uint64, d *[8]int64) {
	panic("lev: lanesColumnAVX512 called without AVX-512")
}

func lanesRunAVX512(pv, mv *uint64, peq *uint64, cols *uint8, n, words, m int, lb uint64, lens, out *[8]int64) {
	panic("lev: lanesRunAVX512 called without AVX-512")
}
