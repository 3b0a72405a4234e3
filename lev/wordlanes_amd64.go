//go:build amd64 && !purego

package lev

import "golang.org/x/sys/cpu"

// useWordPassAVX512 selects wordPassAVX512 (AVX-512 F for the lanes, DQ
// for the byte masks of the deltas). Tests switch it off to run
// wordPassGo.
var useWordPassAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// wordPassAVX512 is wordPassGo with the eight lanes in the quadwords of a
// ZMM register (see wordlanes_amd64.s); n is len(hp), at least 1, and
// bitMask 1 << bit.
//
//go:noescape
func wordPassAVX512(table *[wordCodes]uint64, codes, hp, hm *uint8, n int, bitMask uint64)

// wordPass2AVX512 is wordPassAVX512 for the word of tableA, then for the
// word of tableB below it, in one pass (see wordlanes_amd64.s).
//
//go:noescape
func wordPass2AVX512(tableA, tableB *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB uint64)

// wordPass3AVX512 is wordPassAVX512 for the words of tableA, tableB and
// tableC, one below the other, in one pass (see wordlanes_amd64.s).
//
//go:noescape
func wordPass3AVX512(tableA, tableB, tableC *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB, maskC uint64)

// useWordPassVBMI2 selects wordPass3VBMI2 for three words at a time
// (AVX-512 VBMI2 besides F and DQ). Tests switch it off to run
// wordPass3AVX512.
var useWordPassVBMI2 = useWordPassAVX512 && cpu.X86.HasAVX512VBMI2

// wordPass3VBMI2 is wordPass3AVX512 with the deltas between its words in
// vector registers, A's and B's out at row 63 whatever maskA and
// maskB say (see wordlanes_amd64.s).
//
//go:noescape
func wordPass3VBMI2(tableA, tableB, tableC *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB, maskC uint64)
