//go:build amd64 && !purego

#include "textflag.h"

// advanceAVX512: the eight strips of a group in the eight lanes of a ZMM
// register, lane k holding strip k, which at step s takes column s−k. See
// advanceGo in myers.go for the same steps in Go, and bitpar.Step for the
// bit operations.
//
// Match words. Lane k needs word k of the match row of column s−k: eq is
// the diagonal of the last eight rows, X[s−k][k]. It is built from one row
// load a step and three blends, each step's partial diagonals kept for the
// steps after it:
//   E1[c] = X[c − (k&1)][k]   blend of X[c] and X[c−1], odd lanes from X[c−1]
//   E2[c] = X[c − (k&3)][k]   blend of E1[c] and E1[c−2], lanes 2, 3, 6, 7
//   eq[c] = X[c − k][k]       blend of E2[c] and E2[c−4], lanes 4–7
//
// Carries. Between steps the raw ph and mh words (bit 63 the delta leaving
// each strip) are kept rotated up one lane: lane k+1 holds strip k's, the
// carry strip k+1 takes next, and lane 0 the last strip's, the delta that
// leaves the group, read by a scalar move and replaced by the group's
// incoming delta. VPSHLDQ shifts a carry in (ph<<1 | carry>>63);
// VPTERNLOGQ folds each three-input expression into one instruction.
//
// Registers in the loop:
//   Z0 pv, Z1 mv (pv in Z13 every other step, see STEP); Z2, Z3 the
//   rotated ph, mh (then the shifted ones);
//   Z4 mh, Z5 xh, then ph; Z6 the new E2, Z7 eq; Z8, Z9 the rows X of the
//   last two columns, Z16–Z19 E1 and Z24–Z27 E2 of the last four, column c
//   in register c mod 2 or c mod 4 of each; Z13 xv, then the new pv; Z15
//   scratch. K1 lane 0, K3 the odd lanes, K4 lanes 2, 3, 6, 7, K5 lanes
//   4–7.
//   BX the step s of the first of four unrolled steps; SI t, DI hin,
//   R10 hout, DX the match table, R9 hinWords, CX the last step a loop
//   iteration may start at.

// hinWords[x] is boundary byte x's +1 as a carry word (bit 63),
// hinWords[3+x] its −1.
DATA hinWords<>+0(SB)/8, $0
DATA hinWords<>+8(SB)/8, $0x8000000000000000
DATA hinWords<>+16(SB)/8, $0
DATA hinWords<>+24(SB)/8, $0
DATA hinWords<>+32(SB)/8, $0
DATA hinWords<>+40(SB)/8, $0x8000000000000000
GLOBL hinWords<>(SB), RODATA|NOPTR, $48

// EQ sets Z7 to eq for step s = BX+OFF: XS, XP the rows of columns s and
// s−1 (XS loaded here), E1S, E1M2 E1 of s (set here) and s−2, E2S E2 of
// s−4, replaced by E2 of s.
#define EQ(OFF, XS, XP, E1S, E1M2, E2S) \
	MOVBQZX OFF(SI)(BX*1), R8 \
	SHLQ $8, R8 \
	VMOVDQU64 (DX)(R8*1), XS \
	VPBLENDMQ XP, XS, K3, E1S \
	VPBLENDMQ E1M2, E1S, K4, Z6 \
	VPBLENDMQ E2S, Z6, K5, Z7 \
	VMOVDQA64 Z6, E2S

// STEP runs step s = BX+OFF with eq in Z7 and pv in PV; it leaves the new
// pv in XV.
//
// VPTERNLOGQ $f, C, B, A sets A to f(A, B, C): 0xBE = (A^B)|C,
// 0xAB = C|^(A|B).
#define STEP(OFF, PV, XV) \
	MOVBQZX OFF(DI)(BX*1), R8 \
	VPBROADCASTQ (R9)(R8*8), K1, Z2 \
	VPBROADCASTQ 24(R9)(R8*8), K1, Z3 \
	VPSRLQ $63, Z3, Z15 \
	VPORQ Z7, Z1, XV \
	VPORQ Z15, Z7, Z7 \
	VPANDQ Z7, PV, Z5 \
	VPADDQ PV, Z5, Z5 \
	VPTERNLOGQ $0xBE, Z7, PV, Z5 \
	VPANDQ Z5, PV, Z4 \
	VPTERNLOGQ $0xAB, Z1, PV, Z5 \
	VPSHLDQ $1, Z2, Z5, Z2 \
	VPSHLDQ $1, Z3, Z4, Z3 \
	VPANDQ Z2, XV, Z1 \
	VPTERNLOGQ $0xAB, Z3, Z2, XV \
	VALIGNQ $7, Z5, Z5, Z2 \
	VALIGNQ $7, Z4, Z4, Z3 \
	VMOVQ X2, R8 \
	VMOVQ X3, R11 \
	SHRQ $63, R8 \
	SHRQ $63, R11 \
	LEAQ (R8)(R11*2), R8 \
	MOVB R8, (OFF-7)(R10)(BX*1)

// func advanceAVX512(pv, mv, cp, cm *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) (next int)
TEXT ·advanceAVX512(SB), NOSPLIT, $0-120
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R11
	MOVQ cp+16(FP), R12
	MOVQ cm+24(FP), R13
	MOVQ peq+32(FP), DX
	MOVQ t_base+40(FP), SI
	MOVQ t_len+48(FP), CX
	MOVQ hin_base+64(FP), DI
	MOVQ hout_base+88(FP), R10
	LEAQ hinWords<>(SB), R9

	MOVQ $0x01, R8
	KMOVW R8, K1
	MOVQ $0xAA, R8
	KMOVW R8, K3
	MOVQ $0xCC, R8
	KMOVW R8, K4
	MOVQ $0xF0, R8
	KMOVW R8, K5

	VMOVDQU64 (AX), Z0
	VMOVDQU64 (R11), Z1
	VMOVDQU64 (R12), Z2
	VPSLLQ $63, Z2, Z2
	VALIGNQ $7, Z2, Z2, Z2
	VMOVDQU64 (R13), Z3
	VPSLLQ $63, Z3, Z3
	VALIGNQ $7, Z3, Z3, Z3

	// The partial diagonals E1 and E2 of columns 1 … 6 (advance's ramp
	// has run their steps), from the rows of columns 0 … 6; those of
	// columns 1 and 2 take, in lanes no step from 7 on reads, E1 of
	// columns before 1, never set.
	MOVQ $0, BX
	MOVBQZX (SI), R8
	SHLQ $8, R8
	VMOVDQU64 (DX)(R8*1), Z8
	EQ(1, Z9, Z8, Z17, Z19, Z25)
	EQ(2, Z8, Z9, Z18, Z16, Z26)
	EQ(3, Z9, Z8, Z19, Z17, Z27)
	EQ(4, Z8, Z9, Z16, Z18, Z24)
	EQ(5, Z9, Z8, Z17, Z19, Z25)
	EQ(6, Z8, Z9, Z18, Z16, Z26)

	MOVQ $7, BX
	SUBQ $4, CX      // four steps from BX need BX+3 < len(t)
	CMPQ BX, CX
	JG done

loop:
	EQ(0, Z9, Z8, Z19, Z17, Z27)
	STEP(0, Z0, Z13)
	EQ(1, Z8, Z9, Z16, Z18, Z24)
	STEP(1, Z13, Z0)
	EQ(2, Z9, Z8, Z17, Z19, Z25)
	STEP(2, Z0, Z13)
	EQ(3, Z8, Z9, Z18, Z16, Z26)
	STEP(3, Z13, Z0)
	ADDQ $4, BX
	CMPQ BX, CX
	JLE loop

done:
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R11
	MOVQ cp+16(FP), R12
	MOVQ cm+24(FP), R13
	VMOVDQU64 Z0, (AX)
	VMOVDQU64 Z1, (R11)
	VALIGNQ $1, Z2, Z2, Z2
	VPSRLQ $63, Z2, Z2
	VMOVDQU64 Z2, (R12)
	VALIGNQ $1, Z3, Z3, Z3
	VPSRLQ $63, Z3, Z3
	VMOVDQU64 Z3, (R13)
	VZEROUPPER
	MOVQ BX, next+112(FP)
	RET
