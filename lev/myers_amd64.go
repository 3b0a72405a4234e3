//go:build amd64 && !purego

package lev

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 kernels for byte inputs: the many-pairs lanes,
// and the Myers kernel where bestKernel takes it (where AVX-512 is not
// there to take instead). Tests switch it off to run the portable
// many-pairs loops; Myers' tests choose a kernel with config.kernel. The
// purego tag leaves the kernels out (myers_other.go).
var useAVX2 = cpu.X86.HasAVX2

// useAVX512 selects the eight-lane many-pairs kernel (blocklanes_amd64.s).
var useAVX512 = cpu.X86.HasAVX512F

// hasAVX512Myers: the CPU has what the advanceAVX512 kernels use, AVX-512
// F and VBMI2 (VPSHLDQ), besides AVX2 for groups of four strips.
var hasAVX512Myers = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VBMI2

// advanceAVX2 runs the whole of advance's schedule for a group of four
// strips over bytes, the strips in the four lanes of a YMM register (lane
// k holds strip k), steps 0 … len(t)+2, ramps included, from the state in
// pv and mv, which it leaves there; len(t) must be positive. peq points
// at the group's match table (rows of maxStrips words), and t, hin and
// hout are as in advance. See myers_avx2_amd64.s.
//
//go:noescape
func advanceAVX2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)

// advanceAVX2x2 is advanceAVX2 for a group of eight strips in two YMM
// registers (lanes 0–3 of the first strips 0–3), steps 0 … len(t)+6.
//
//go:noescape
func advanceAVX2x2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)

// advanceAVX512x1 runs the whole of advance's schedule for a group of
// eight strips, in the lanes of one ZMM register (see
// myers_avx512_amd64.s), steps 0 … len(t)+6, ramps included, from the
// state in pv and mv, which it leaves there; len(t) must be positive.
// peq points at the group's match table, and t, hin and hout are as in
// advance.
//
//go:noescape
func advanceAVX512x1(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)

// advanceAVX512x2 runs the whole of advance's schedule for a group of 16
// strips, in the lanes of two ZMM registers (see myers_avx512_amd64.s),
// steps 0 … len(t)+14, ramps included, from the state in pv and mv, which
// it leaves there; len(t) must be positive. peq points at the group's
// match table, and t, hin and hout are as in advance.
//
//go:noescape
func advanceAVX512x2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)

// advanceAVX512x3 is advanceAVX512x2 for a group of 24 strips in three
// registers, steps 0 … len(t)+22.
//
//go:noescape
func advanceAVX512x3(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)

// advanceAVX512x4 is advanceAVX512x2 for a group of 32 strips in four
// registers, steps 0 … len(t)+30.
//
//go:noescape
func advanceAVX512x4(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
