//go:build amd64 && !purego

package match

import "golang.org/x/sys/cpu"

// useAVX512Filter selects nextKeyAVX512 where the CPU has AVX-512 F and BW
// (VPSHUFB on ZMM registers); tests switch it off to run nextKey on the
// same texts. The purego tag leaves it out (filter_other.go).
var useAVX512Filter = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW

// nextKeyAVX512 returns the first key start from q on whose masked 8-byte
// word equals one of keys[:nkeys] (nkeys ≤ maxExactKeys; keys past nkeys
// up to 4 or 8 repeat one of them), and found; or, where it found none,
// the first start it did not look at, and not found. It looks at starts
// eight at a time while the 16 bytes from the first are in t: every start
// up to past len(t)−16, none past len(t)−8.
//
//go:noescape
func nextKeyAVX512(t []byte, keys *[maxExactKeys]uint64, nkeys int, mask uint64, q int) (next int, found bool)
