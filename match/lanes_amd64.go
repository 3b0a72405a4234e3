//go:build amd64 && !purego

package match

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX512Lanes and useAVX2Lanes select the vector lane kernels
// (lanes_amd64.s: AVX-512 F and DQ, for VPMOVD2M; lanes_avx2_amd64.s:
// AVX2); tests switch them off to run laneAdvanceGo on the same bundles.
// The purego tag leaves them out (lanes_other.go).
var (
	useAVX512Lanes = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	useAVX2Lanes   = cpu.X86.HasAVX2
)

// lanes32AVX512 is laneAdvanceGo for groups of sixteen 32-bit lanes: tab
// points at the bundle's tables (laneGroupsMax of 256 rows of 64 bytes),
// st at its states (laneGroupsMax of pv, mv and below, 64 bytes each);
// groups is in [1, laneGroupsMax].
//
//go:noescape
func lanes32AVX512(tab, st *uint32, groups int, t []byte) (n int, hits uint64)

// lanes64AVX512 is lanes32AVX512 for groups of eight 64-bit lanes.
//
//go:noescape
func lanes64AVX512(tab, st *uint64, groups int, t []byte) (n int, hits uint64)

// lanes32AVX2 is lanes32AVX512 with each group in two YMM registers, for
// bundles of one or two groups.
//
//go:noescape
func lanes32AVX2(tab, st *uint32, groups int, t []byte) (n int, hits uint64)

// lanes64AVX2 is lanes32AVX2 for groups of eight 64-bit lanes.
//
//go:noescape
func lanes64AVX2(tab, st *uint64, groups int, t []byte) (n int, hits uint64)

// laneVectors returns the vector kernels for lanes of W that this CPU runs
// and the tests have not switched off, the fastest first.
func laneVectors[W laneWord]() []laneKernelOf[W] {
	var ks []laneKernelOf[W]
	add := func(name string, groups int, k32 func(tab, st *uint32, groups int, t []byte) (int, uint64),
		k64 func(tab, st *uint64, groups int, t []byte) (int, uint64)) {
		var k any
		if unsafe.Sizeof(W(0)) == 4 {
			k = func(tab, st []uint32, groups int, t []byte) (int, uint64) { return k32(&tab[0], &st[0], groups, t) }
		} else {
			k = func(tab, st []uint64, groups int, t []byte) (int, uint64) { return k64(&tab[0], &st[0], groups, t) }
		}
		if f, ok := k.(func(tab, st []W, groups int, t []byte) (int, uint64)); ok {
			ks = append(ks, laneKernelOf[W]{name: name, groups: groups, advance: f})
		}
	}
	if useAVX512Lanes {
		add("avx512", laneGroupsMax, lanes32AVX512, lanes64AVX512)
	}
	if useAVX2Lanes {
		add("avx2", 2, lanes32AVX2, lanes64AVX2)
	}
	return ks
}
