//go:build amd64 && !purego

package lev

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 kernel for byte inputs; tests switch it off to
// run the portable loop on the same inputs. The purego tag leaves the
// kernel out (myers_other.go).
var useAVX2 = cpu.X86.HasAVX2

// useAVX512 selects the eight-lane many-pairs kernel (blocklanes_amd64.s).
var useAVX512 = cpu.X86.HasAVX512F

// advanceAVX2 is advanceGo for bytes with the four strips of a group in the
// four lanes of a YMM register (lane k holds strip k), their match words
// fetched by one gather: the same steps, the same results. It runs the
// steps from groupStrips−1 in fours and returns the first step it left. peq points at
// the group's match table, t, hin and hout are as in advance, and pv, mv,
// cp, cm are the state and carries that advanceGo keeps in registers.
//
//go:noescape
func advanceAVX2(pv, mv, cp, cm *[groupStrips]uint64, peq *uint64, t, hin, hout []uint8) (next int)
