//go:build !amd64

package lev

const useAVX2 = false

func advanceAVX2(pv, mv, cp, cm *[groupStrips]uint64, peq *uint64, t, hin, hout []uint8) (next int) {
	panic("lev: advanceAVX2 called without AVX2")
}
