//go:build amd64 && !purego

#include "textflag.h"

// STEPW runs one word's step at one column: its codes at CODES, table
// TABLE, state PV, MV, scratch EQ, XV, XH, PH, MH; the incoming deltas in
// KP, KM, the outgoing ones at row MASK to OP, OM. Z17 holds ones in bit 0.
#define STEPW(CODES, TABLE, PV, MV, EQ, XV, XH, PH, MH, KP, KM, MASK, OP, OM) \
	VPMOVZXBQ  CODES, EQ \
	VPERMQ     TABLE, EQ, EQ \
	VPORQ      EQ, MV, XV \
	VPORQ      Z17, EQ, KM, EQ \
	VPANDQ     PV, EQ, XH \
	VPADDQ     PV, XH, XH \
	VPTERNLOGQ $0xbe, EQ, PV, XH \
	VMOVDQA64  XH, PH \
	VPTERNLOGQ $0xab, MV, PV, PH \
	VPANDQ     PV, XH, MH \
	VPTESTMQ   MASK, PH, OP \
	VPTESTMQ   MASK, MH, OM \
	VPSLLQ     $1, PH, PH \
	VPORQ      Z17, PH, KP, PH \
	VPSLLQ     $1, MH, MH \
	VPORQ      Z17, MH, KM, MH \
	VMOVDQA64  XV, PV \
	VPTERNLOGQ $0xab, MH, PH, PV \
	VPANDQ     XV, PH, MV

// STEP_A, STEP_B and STEP_C are STEPW for the words A, B and C of
// wordPass2AVX512 and wordPass3AVX512, on the codes at CODES: A's
// deltas in from K1, K2 and out to K3, K4, B's in from K3, K4 and out to
// K5, K6, C's in from K5, K6 and out to K1, K2.
#define STEP_A(CODES) STEPW(CODES, Z16, Z1, Z2, Z0, Z3, Z4, Z5, Z6, K1, K2, Z18, K3, K4)
#define STEP_B(CODES) STEPW(CODES, Z19, Z11, Z12, Z10, Z13, Z14, Z15, Z7, K3, K4, Z20, K5, K6)
#define STEP_C(CODES) STEPW(CODES, Z21, Z23, Z24, Z8, Z9, Z25, Z26, Z27, K5, K6, Z22, K1, K2)

// A_AT_J is STEP_A at column j (R8), its deltas in loaded from hp and hm.
#define A_AT_J \
	KMOVB (DI)(R8*1), K1; \
	KMOVB (DX)(R8*1), K2; \
	STEP_A((SI)(R8*8))

// START_AB sets Z17 to ones in bit 0, and A's and B's vertical deltas to
// +1 (pv all ones, mv zero).
#define START_AB \
	VPTERNLOGQ $0xff, Z1, Z1, Z1 \
	VPSRLQ     $63, Z1, Z17 \
	VPXORQ     Z2, Z2, Z2 \
	VMOVDQA64  Z1, Z11 \
	VPXORQ     Z12, Z12, Z12

// func wordPassAVX512(table *[wordCodes]uint64, codes, hp, hm *uint8, n int, bitMask uint64)
//
// wordPassGo's steps, the eight lanes in the quadwords of a ZMM register,
// their state in registers from the first column to the last. A column:
// the lanes' eight codes widened to quadwords, the match words permuted out
// of the word's table by them (one VPERMQ), the incoming deltas as masks
// (bit l lane l), which OR a one into bit 0 of eq and of the shifted ph and
// mh where set; the outgoing deltas at row bit tested into masks and
// stored as bytes over the incoming ones.
//
// VPTERNLOGQ $f, C, B, A sets A to f(A, B, C): 0xBE = (A^B)|C,
// 0xAB = C|^(A|B).
//
// Registers: Z16 the table, Z17 ones in bit 0, Z18 bitMask in every lane;
// Z1 pv, Z2 mv, Z0 eq, Z3 xv, Z4 xh, Z5 ph, Z6 mh (STEPW). K1, K2 the
// incoming +1 and −1, K3, K4 the outgoing. SI codes, DI hp, DX hm,
// CX n, R8 the column.
TEXT ·wordPassAVX512(SB), NOSPLIT, $0-48
	MOVQ         table+0(FP), AX
	MOVQ         codes+8(FP), SI
	MOVQ         hp+16(FP), DI
	MOVQ         hm+24(FP), DX
	MOVQ         n+32(FP), CX
	VMOVDQU64    (AX), Z16
	VPBROADCASTQ bitMask+40(FP), Z18
	VPTERNLOGQ   $0xff, Z1, Z1, Z1
	VPSRLQ       $63, Z1, Z17
	VPXORQ       Z2, Z2, Z2
	XORQ         R8, R8

loop:
	A_AT_J
	KMOVB K3, (DI)(R8*1)
	KMOVB K4, (DX)(R8*1)
	INCQ         R8
	CMPQ         R8, CX
	JLT          loop
	VZEROUPPER
	RET

// func wordPass2AVX512(tableA, tableB *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB uint64)
//
// Two words of a pattern in one pass, word A (tableA, row maskA) and the
// word below it, B, a column behind: at step j A takes column j, its
// deltas in from hp and hm, and B column j−1, its deltas in A's out of the
// step before, still in mask registers; B's out go over hp and hm. The two
// words' steps are independent within a step, so that each waits on the
// other's latency no more than one word's would, and the deltas between
// them never go through memory. The same as wordPassAVX512 for A, then
// for B.
//
// Registers: Z16, Z19 the tables, Z18, Z20 the masks, Z17 ones in bit 0;
// A in Z0–Z6 (pv Z1, mv Z2), B in Z7, Z10–Z15 (pv Z11, mv Z12). K1, K2
// A's in, K3, K4 A's out (B's in), K5, K6 B's out.
TEXT ·wordPass2AVX512(SB), NOSPLIT, $0-64
	MOVQ         tableA+0(FP), AX
	MOVQ         tableB+8(FP), BX
	MOVQ         codes+16(FP), SI
	MOVQ         hp+24(FP), DI
	MOVQ         hm+32(FP), DX
	MOVQ         n+40(FP), CX
	VMOVDQU64    (AX), Z16
	VMOVDQU64    (BX), Z19
	VPBROADCASTQ maskA+48(FP), Z18
	VPBROADCASTQ maskB+56(FP), Z20
	START_AB

	// Column 0: A alone.
	KMOVB (DI), K1
	KMOVB (DX), K2
	STEP_A((SI))
	MOVQ  $1, R8
	CMPQ  R8, CX
	JGE   tail

loop2:
	// B at column j−1 on A's out of the last step, then A at column j.
	STEP_B(-8(SI)(R8*8))
	KMOVB K5, -1(DI)(R8*1)
	KMOVB K6, -1(DX)(R8*1)
	A_AT_J
	INCQ  R8
	CMPQ  R8, CX
	JLT   loop2

tail:
	// B at the last column.
	STEP_B(-8(SI)(R8*8))
	KMOVB K5, -1(DI)(R8*1)
	KMOVB K6, -1(DX)(R8*1)
	VZEROUPPER
	RET

// func wordPass3AVX512(tableA, tableB, tableC *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB, maskC uint64)
//
// wordPass2AVX512 with three words, A, B below it and C below B, each a
// column behind the one above: at step j A takes column j, B column j−1
// and C column j−2. Three words' steps in flight hide more of a step's
// latency than two; C's out go over hp and hm.
//
// Registers: Z16, Z19, Z21 the tables, Z18, Z20, Z22 the masks, Z17 ones
// in bit 0; A in Z0–Z6, B in Z7, Z10–Z15, C in Z8, Z9, Z23–Z27 (pv Z23,
// mv Z24). K1, K2 A's in (and C's out, stored before A's next in is
// loaded), K3, K4 A's out (B's in), K5, K6 B's out (C's in).
TEXT ·wordPass3AVX512(SB), NOSPLIT, $0-80
	MOVQ         tableA+0(FP), AX
	MOVQ         tableB+8(FP), BX
	MOVQ         tableC+16(FP), R9
	MOVQ         codes+24(FP), SI
	MOVQ         hp+32(FP), DI
	MOVQ         hm+40(FP), DX
	MOVQ         n+48(FP), CX
	VMOVDQU64    (AX), Z16
	VMOVDQU64    (BX), Z19
	VMOVDQU64    (R9), Z21
	VPBROADCASTQ maskA+56(FP), Z18
	VPBROADCASTQ maskB+64(FP), Z20
	VPBROADCASTQ maskC+72(FP), Z22
	START_AB
	VMOVDQA64    Z1, Z23
	VPXORQ       Z24, Z24, Z24

	// Column 0: A alone.
	KMOVB (DI), K1
	KMOVB (DX), K2
	STEP_A((SI))
	MOVQ  $1, R8
	CMPQ  R8, CX
	JGE   tail1

	// Column 1: B at column 0, A at column 1.
	STEP_B(-8(SI)(R8*8))
	A_AT_J
	INCQ  R8
	CMPQ  R8, CX
	JGE   tail2

loop3:
	// C at column j−2 on B's out, B at j−1 on A's, A at j.
	STEP_C(-16(SI)(R8*8))
	KMOVB K1, -2(DI)(R8*1)
	KMOVB K2, -2(DX)(R8*1)
	STEP_B(-8(SI)(R8*8))
	A_AT_J
	INCQ  R8
	CMPQ  R8, CX
	JLT   loop3

tail2:
	// C at the last column but one.
	STEP_C(-16(SI)(R8*8))
	KMOVB K1, -2(DI)(R8*1)
	KMOVB K2, -2(DX)(R8*1)

tail1:
	// B, then C, at the last column.
	STEP_B(-8(SI)(R8*8))
	STEP_C(-8(SI)(R8*8))
	KMOVB K1, -1(DI)(R8*1)
	KMOVB K2, -1(DX)(R8*1)
	VZEROUPPER
	RET
