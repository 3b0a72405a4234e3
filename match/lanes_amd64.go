//go:build amd64 && !purego

package match

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX512Lanes selects the vector lane kernels (lanes_amd64.s), which
// need AVX-512 F and DQ (VPMOVD2M); tests switch it off to run
// laneAdvanceGo on the same groups. The purego tag leaves them out
// (lanes_other.go).
var useAVX512Lanes = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

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

// laneKernel returns the kernel for lanes of W: the vector one where it
// runs, else laneAdvanceGo.
func laneKernel[W laneWord]() func(tab, st []W, groups int, t []byte) (int, uint64) {
	var k any
	switch {
	case !useAVX512Lanes:
	case unsafe.Sizeof(W(0)) == 4:
		k = func(tab, st []uint32, groups int, t []byte) (int, uint64) {
			return lanes32AVX512(&tab[0], &st[0], groups, t)
		}
	default:
		k = func(tab, st []uint64, groups int, t []byte) (int, uint64) {
			return lanes64AVX512(&tab[0], &st[0], groups, t)
		}
	}
	if f, ok := k.(func(tab, st []W, groups int, t []byte) (int, uint64)); ok {
		return f
	}
	return laneAdvanceGo[W]
}
