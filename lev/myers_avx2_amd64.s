//go:build amd64 && !purego

#include "textflag.h"

// Lane k of a group's YMM registers holds strip k. See advanceGo in
// myers.go for the same steps in Go, and bitpar.Step for the bit operations.
//
// Registers in the loop:
//   Y0 pv, Y1 mv; Y2, Y3 the carries out of each strip (+1 and −1 bits);
//   Y5–Y8 match rows peq[t[c]] of the last four columns, column c in
//   Y(5 + c mod 4); Y4 eq; Y9 xv; Y10 xh, then mh; Y11, Y12 incoming hp, hm;
//   Y13 all ones; Y14, Y15 scratch.
//   BX the step s of the first of four unrolled steps; SI t, DI hin,
//   R10 hout, DX the match table, R9 hinBits, CX the end of the loop.

// hinBits[x] is the +1 bit of boundary byte x, hinBits[3+x] its −1 bit.
DATA hinBits<>+0(SB)/8, $0
DATA hinBits<>+8(SB)/8, $1
DATA hinBits<>+16(SB)/8, $0
DATA hinBits<>+24(SB)/8, $0
DATA hinBits<>+32(SB)/8, $0
DATA hinBits<>+40(SB)/8, $1
GLOBL hinBits<>(SB), RODATA|NOPTR, $48

// STEP runs step s = BX+OFF: strip k takes column s−k. RS receives the
// match row of column s; R1, R2, R3 hold those of columns s−1, s−2, s−3.
#define STEP(RS, R1, R2, R3, OFF, OFFM3) \
	MOVBQZX OFF(SI)(BX*1), R8 \
	SHLQ $8, R8 \
	VMOVDQU (DX)(R8*1), RS \
	VPBLENDD $0x03, RS, R3, Y4 \
	VPBLENDD $0x0C, R1, Y4, Y4 \
	VPBLENDD $0x30, R2, Y4, Y4 \
	MOVBQZX OFF(DI)(BX*1), R8 \
	VPERMQ $0x93, Y2, Y11 \
	VPERMQ $0x93, Y3, Y12 \
	VPBROADCASTQ (R9)(R8*8), Y15 \
	VPBLENDD $0x03, Y15, Y11, Y11 \
	VPBROADCASTQ 24(R9)(R8*8), Y15 \
	VPBLENDD $0x03, Y15, Y12, Y12 \
	VPOR Y4, Y1, Y9 \
	VPOR Y12, Y4, Y4 \
	VPAND Y4, Y0, Y10 \
	VPADDQ Y0, Y10, Y10 \
	VPXOR Y0, Y10, Y10 \
	VPOR Y4, Y10, Y10 \
	VPOR Y10, Y0, Y4 \
	VPXOR Y13, Y4, Y4 \
	VPOR Y1, Y4, Y4 \
	VPAND Y10, Y0, Y10 \
	VPSRLQ $63, Y4, Y2 \
	VPSRLQ $63, Y10, Y3 \
	VPSLLQ $1, Y4, Y4 \
	VPOR Y11, Y4, Y4 \
	VPSLLQ $1, Y10, Y10 \
	VPOR Y12, Y10, Y10 \
	VPOR Y4, Y9, Y15 \
	VPXOR Y13, Y15, Y15 \
	VPOR Y15, Y10, Y0 \
	VPAND Y9, Y4, Y1 \
	VPSLLQ $1, Y3, Y14 \
	VPOR Y2, Y14, Y14 \
	VEXTRACTI128 $1, Y14, X14 \
	VPEXTRQ $1, X14, R8 \
	MOVB R8, OFFM3(R10)(BX*1)

// func advanceAVX2(pv, mv, cp, cm *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) (next int)
TEXT ·advanceAVX2(SB), NOSPLIT, $0-120
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R11
	MOVQ cp+16(FP), R12
	MOVQ cm+24(FP), R13
	MOVQ peq+32(FP), DX
	MOVQ t_base+40(FP), SI
	MOVQ t_len+48(FP), CX
	MOVQ hin_base+64(FP), DI
	MOVQ hout_base+88(FP), R10
	LEAQ hinBits<>(SB), R9

	VMOVDQU (AX), Y0
	VMOVDQU (R11), Y1
	VMOVDQU (R12), Y2
	VMOVDQU (R13), Y3
	VPCMPEQQ Y13, Y13, Y13

	// Match rows of columns 0, 1, 2 for the first step, s = 3.
	MOVBQZX 0(SI), R8
	SHLQ $8, R8
	VMOVDQU (DX)(R8*1), Y5
	MOVBQZX 1(SI), R8
	SHLQ $8, R8
	VMOVDQU (DX)(R8*1), Y6
	MOVBQZX 2(SI), R8
	SHLQ $8, R8
	VMOVDQU (DX)(R8*1), Y7

	MOVQ $3, BX
	SUBQ $4, CX      // four steps from BX need BX+3 < len(t)
	CMPQ BX, CX
	JG done

loop:
	STEP(Y8, Y7, Y6, Y5, 0, -3)
	STEP(Y5, Y8, Y7, Y6, 1, -2)
	STEP(Y6, Y5, Y8, Y7, 2, -1)
	STEP(Y7, Y6, Y5, Y8, 3, 0)
	ADDQ $4, BX
	CMPQ BX, CX
	JLE loop

done:
	VMOVDQU Y0, (AX)
	VMOVDQU Y1, (R11)
	VMOVDQU Y2, (R12)
	VMOVDQU Y3, (R13)
	VZEROUPPER
	MOVQ BX, next+112(FP)
	RET

// advanceAVX2x2: the eight strips of a group in two YMM registers, A
// (strips 0–3) and B (strips 4–7), whose steps depend only on the step
// before and so overlap (see myers_avx512_amd64.s). A's lane 0 takes the
// incoming delta, B's lane 0 the delta leaving A's lane 3, and B's lane 3
// gives the delta leaving the group. The match words come from the rows
// in memory, each lane's from its own column's row.
//
// Registers: Y0–Y3 A's pv, mv and carries out (+1 and −1 bits, bit 0),
// Y4–Y7 B's; Y8 all ones; Y9, Y10 A's incoming carries, then scratch;
// Y11, Y12 B's; Y13–Y15 scratch.

// EQ4 sets EQ to the match words of the register whose lane 0 takes
// column BX+OFF, from the row half HALF (0 or 32).
#define EQ4(OFF, HALF, EQ) \
	MOVBQZX OFF(SI)(BX*1), R8 \
	SHLQ $8, R8 \
	VMOVDQU HALF(DX)(R8*1), EQ \
	MOVBQZX (OFF-1)(SI)(BX*1), R8 \
	SHLQ $8, R8 \
	VPBLENDD $0x0C, HALF(DX)(R8*1), EQ, EQ \
	MOVBQZX (OFF-2)(SI)(BX*1), R8 \
	SHLQ $8, R8 \
	VPBLENDD $0x30, HALF(DX)(R8*1), EQ, EQ \
	MOVBQZX (OFF-3)(SI)(BX*1), R8 \
	SHLQ $8, R8 \
	VPBLENDD $0xC0, HALF(DX)(R8*1), EQ, EQ

// HALF4 advances one register's strips: pv PV, mv MV, carries out CP, CM
// (replaced by the new ones), carries in INP, INM, eq EQ; T2, T3 scratch.
#define HALF4(PV, MV, CP, CM, INP, INM, EQ, T2, T3) \
	VPOR EQ, MV, T2 \
	VPOR INM, EQ, EQ \
	VPAND EQ, PV, T3 \
	VPADDQ PV, T3, T3 \
	VPXOR PV, T3, T3 \
	VPOR EQ, T3, T3 \
	VPOR T3, PV, EQ \
	VPXOR Y8, EQ, EQ \
	VPOR MV, EQ, EQ \
	VPAND T3, PV, T3 \
	VPSRLQ $63, EQ, CP \
	VPSRLQ $63, T3, CM \
	VPSLLQ $1, EQ, EQ \
	VPOR INP, EQ, EQ \
	VPSLLQ $1, T3, T3 \
	VPOR INM, T3, T3 \
	VPAND T2, EQ, MV \
	VPOR EQ, T2, T2 \
	VPXOR Y8, T2, T2 \
	VPOR T2, T3, PV

// STEP8 runs step s = BX+OFF for the eight strips.
#define STEP8(OFF) \
	VPERMQ $0x93, Y2, Y9 \
	VPERMQ $0x93, Y3, Y10 \
	VPERMQ $0x93, Y6, Y11 \
	VPERMQ $0x93, Y7, Y12 \
	VPBLENDD $0x03, Y9, Y11, Y11 \
	VPBLENDD $0x03, Y10, Y12, Y12 \
	MOVBQZX OFF(DI)(BX*1), R8 \
	VPBROADCASTQ (R9)(R8*8), Y13 \
	VPBLENDD $0x03, Y13, Y9, Y9 \
	VPBROADCASTQ 24(R9)(R8*8), Y13 \
	VPBLENDD $0x03, Y13, Y10, Y10 \
	EQ4(OFF, 0, Y13) \
	HALF4(Y0, Y1, Y2, Y3, Y9, Y10, Y13, Y14, Y15) \
	EQ4(OFF-4, 32, Y9) \
	HALF4(Y4, Y5, Y6, Y7, Y11, Y12, Y9, Y10, Y13) \
	VPSLLQ $1, Y7, Y14 \
	VPOR Y6, Y14, Y14 \
	VEXTRACTI128 $1, Y14, X14 \
	VPEXTRQ $1, X14, R8 \
	MOVB R8, (OFF-7)(R10)(BX*1)

// func advanceAVX2x2(pv, mv, cp, cm *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8) (next int)
TEXT ·advanceAVX2x2(SB), NOSPLIT, $0-120
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R11
	MOVQ cp+16(FP), R12
	MOVQ cm+24(FP), R13
	MOVQ peq+32(FP), DX
	MOVQ t_base+40(FP), SI
	MOVQ t_len+48(FP), CX
	MOVQ hin_base+64(FP), DI
	MOVQ hout_base+88(FP), R10
	LEAQ hinBits<>(SB), R9

	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y4
	VMOVDQU (R11), Y1
	VMOVDQU 32(R11), Y5
	VMOVDQU (R12), Y2
	VMOVDQU 32(R12), Y6
	VMOVDQU (R13), Y3
	VMOVDQU 32(R13), Y7
	VPCMPEQQ Y8, Y8, Y8

	MOVQ $7, BX
	SUBQ $4, CX      // four steps from BX need BX+3 < len(t)
	CMPQ BX, CX
	JG done8

loop8:
	STEP8(0)
	STEP8(1)
	STEP8(2)
	STEP8(3)
	ADDQ $4, BX
	CMPQ BX, CX
	JLE loop8

done8:
	VMOVDQU Y0, (AX)
	VMOVDQU Y4, 32(AX)
	VMOVDQU Y1, (R11)
	VMOVDQU Y5, 32(R11)
	VMOVDQU Y2, (R12)
	VMOVDQU Y6, 32(R12)
	VMOVDQU Y3, (R13)
	VMOVDQU Y7, 32(R13)
	VZEROUPPER
	MOVQ BX, next+112(FP)
	RET
