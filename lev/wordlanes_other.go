//go:build !amd64 || purego

package lev

// useWordPassAVX512 is false off amd64 and with the purego tag.
var useWordPassAVX512 = false

func wordPassAVX512(table *[wordCodes]uint64, codes, hp, hm *uint8, n int, bitMask uint64) {
	panic("lev: wordPassAVX512 called without AVX-512")
}

func wordPass2AVX512(tableA, tableB *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB uint64) {
	panic("lev: wordPass2AVX512 called without AVX-512")
}

func wordPass3AVX512(tableA, tableB, tableC *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB, maskC uint64) {
	panic("lev: wordPass3AVX512 called without AVX-512")
}

// useWordPassVBMI2 is false off amd64 and with the purego tag.
var useWordPassVBMI2 = false

func wordPass3VBMI2(tableA, tableB, tableC *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB, maskC uint64) {
	panic("lev: wordPass3VBMI2 called without AVX-512 VBMI2")
}
