//go:build !amd64 || purego

package lev

// useAVX2 is false off amd64 and with the purego tag: the portable kernels
// run. A variable, as on amd64, so that the tests that switch it build.
var useAVX2 = false

// useAVX512 and hasAVX512Myers are false here too.
var (
	useAVX512      = false
	hasAVX512Myers = false
)

func advanceAVX2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) {
	panic("lev: advanceAVX2 called without AVX2")
}

func advanceAVX2x2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) {
	panic("lev: advanceAVX2x2 called without AVX2")
}

func advanceAVX512x2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) {
	panic("lev: advanceAVX512x2 called without AVX-512")
}

func advanceAVX512x3(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) {
	panic("lev: advanceAVX512x3 called without AVX-512")
}

func advanceAVX512x4(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) {
	panic("lev: advanceAVX512x4 called without AVX-512")
}

func advanceAVX512x1(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) {
	panic("lev: advanceAVX512x1 called without AVX-512")
}
