//go:build amd64 && !purego

#include "textflag.h"

// EQ_OF sets EQ to the match words of a column's eight codes at CODES,
// permuted out of TABLE.
#define EQ_OF(CODES, TABLE, EQ) \
	VPMOVZXBQ  CODES, EQ; \
	VPERMQ     TABLE, EQ, EQ

// H_OF computes a step's horizontal deltas from its vertical ones PV, MV
// and EQ (with the −1 in at bit 0): XH, then PH and MH, unshifted.
// VPTERNLOGQ $f, C, B, A sets A to f(A, B, C): 0xBE = (A^B)|C,
// 0xAB = C|^(A|B).
#define H_OF(PV, MV, EQ, XH, PH, MH) \
	VPANDQ     PV, EQ, XH; \
	VPADDQ     PV, XH, XH; \
	VPTERNLOGQ $0xbe, EQ, PV, XH; \
	VMOVDQA64  XH, PH; \
	VPTERNLOGQ $0xab, MV, PV, PH; \
	VPANDQ     PV, XH, MH

// V_OF computes a step's new vertical deltas PV, MV from XV and the
// shifted horizontal ones PS, MS.
#define V_OF(XV, PS, MS, PV, MV) \
	VMOVDQA64  XV, PV; \
	VPTERNLOGQ $0xab, MS, PS, PV; \
	VPANDQ     XV, PS, MV

// STEPW runs one word's step at one column: its codes at CODES, table
// TABLE, state PV, MV, scratch EQ, XV, XH, PH, MH; the incoming deltas in
// KP, KM, the outgoing ones at row MASK to OP, OM. Z17 holds ones in bit 0.
#define STEPW(CODES, TABLE, PV, MV, EQ, XV, XH, PH, MH, KP, KM, MASK, OP, OM) \
	EQ_OF(CODES, TABLE, EQ); \
	VPORQ      EQ, MV, XV; \
	VPORQ      Z17, EQ, KM, EQ; \
	H_OF(PV, MV, EQ, XH, PH, MH); \
	VPTESTMQ   MASK, PH, OP; \
	VPTESTMQ   MASK, MH, OM; \
	VPSLLQ     $1, PH, PH; \
	VPORQ      Z17, PH, KP, PH; \
	VPSLLQ     $1, MH, MH; \
	VPORQ      Z17, MH, KM, MH; \
	V_OF(XV, PH, MH, PV, MV)

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

// START3 loads a three-word pass's arguments (tableA, tableB, tableC,
// codes, hp, hm, n, maskA, maskB, maskC) to AX, BX, R9, SI, DI, DX, CX
// and the tables to Z16, Z19, Z21, the masks to Z18, Z20, Z22, and sets
// the three words' vertical deltas to +1 (A's pv, mv in Z1, Z2, B's in
// Z11, Z12, C's in Z23, Z24).
#define START3 \
	MOVQ         tableA+0(FP), AX; \
	MOVQ         tableB+8(FP), BX; \
	MOVQ         tableC+16(FP), R9; \
	MOVQ         codes+24(FP), SI; \
	MOVQ         hp+32(FP), DI; \
	MOVQ         hm+40(FP), DX; \
	MOVQ         n+48(FP), CX; \
	VMOVDQU64    (AX), Z16; \
	VMOVDQU64    (BX), Z19; \
	VMOVDQU64    (R9), Z21; \
	VPBROADCASTQ maskA+56(FP), Z18; \
	VPBROADCASTQ maskB+64(FP), Z20; \
	VPBROADCASTQ maskC+72(FP), Z22; \
	START_AB; \
	VMOVDQA64    Z1, Z23; \
	VPXORQ       Z24, Z24, Z24

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

// PASS3 is the body of a three-word pass, its words' steps P3_A, P3_B
// and P3_C defined by the pass (on the codes at their argument), as is
// P3_OUT(OFF), which stores C's deltas out to hp and hm at OFF + j. A
// takes column j, its deltas in loaded to K1, K2 from hp and hm; B
// column j−1 and C column j−2, on the word above's out of the step
// before. Column 0 runs A alone, column 1 B and A (the loop entered past
// C); the tails run C and B on the columns left, C last. SI codes, DI hp, DX hm, CX n, R8 j.
#define PASS3 \
	KMOVB (DI), K1; \
	KMOVB (DX), K2; \
	P3_A((SI)); \
	MOVQ  $1, R8; \
	CMPQ  R8, CX; \
	JGE   p3tail1; \
	JMP   p3column1; \
p3loop: \
	P3_C(-16(SI)(R8*8)); \
	P3_OUT(-2); \
p3column1: \
	P3_B(-8(SI)(R8*8)); \
	KMOVB (DI)(R8*1), K1; \
	KMOVB (DX)(R8*1), K2; \
	P3_A((SI)(R8*8)); \
	INCQ  R8; \
	CMPQ  R8, CX; \
	JLT   p3loop; \
p3tail2: \
	P3_C(-16(SI)(R8*8)); \
	P3_OUT(-2); \
p3tail1: \
	P3_B(-8(SI)(R8*8)); \
	P3_C(-8(SI)(R8*8)); \
	P3_OUT(-1); \
	VZEROUPPER; \
	RET

// The three words of wordPass3AVX512 for PASS3, their deltas handed on in
// masks; C's out are in K1, K2.
#define P3_A(CODES) STEP_A(CODES)
#define P3_B(CODES) STEP_B(CODES)
#define P3_C(CODES) STEP_C(CODES)
#define P3_OUT(OFF) \
	KMOVB K1, OFF(DI)(R8*1); \
	KMOVB K2, OFF(DX)(R8*1)

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
	START3
	PASS3
#undef P3_A
#undef P3_B
#undef P3_C
#undef P3_OUT

// STEPV_TOP is STEPW for the top word of wordPass3VBMI2 at one column:
// its deltas in from K1, K2; it keeps ph and mh unshifted in PH and MH
// for the word below and steps on their shifted copies. Z0, Z3–Z6 are
// scratch (eq, xv, xh, ph', mh').
#define STEPV_TOP(CODES, TABLE, PV, MV, PH, MH) \
	EQ_OF(CODES, TABLE, Z0); \
	VPORQ      Z0, MV, Z3; \
	VPORQ      Z17, Z0, K2, Z0; \
	H_OF(PV, MV, Z0, Z4, PH, MH); \
	VPSLLQ     $1, PH, Z5; \
	VPORQ      Z17, Z5, K1, Z5; \
	VPSLLQ     $1, MH, Z6; \
	VPORQ      Z17, Z6, K2, Z6; \
	V_OF(Z3, Z5, Z6, PV, MV)

// STEPV_BELOW is STEPV_TOP for a word below another, whose unshifted ph
// and mh of the step before (PHU, MHU) carry its deltas in at bit 63:
// −1 into eq's bit 0, and both into the shifted ph and mh by one
// double shift each (VPSHLDQ, AVX-512 VBMI2) where a mask would take a
// test, a shift and an OR.
#define STEPV_BELOW(CODES, TABLE, PV, MV, PH, MH, PHU, MHU) \
	EQ_OF(CODES, TABLE, Z0); \
	VPORQ      Z0, MV, Z3; \
	VPSRLQ     $63, MHU, Z4; \
	VPORQ      Z4, Z0, Z0; \
	H_OF(PV, MV, Z0, Z4, PH, MH); \
	VPSHLDQ    $1, PHU, PH, Z5; \
	VPSHLDQ    $1, MHU, MH, Z6; \
	V_OF(Z3, Z5, Z6, PV, MV)


// The three words of wordPass3VBMI2 for PASS3: A at column j, B at j−1,
// C at j−2; P3_OUT stores C's deltas out at row maskC.
#define P3_A(CODES) STEPV_TOP(CODES, Z16, Z1, Z2, Z7, Z8)
#define P3_B(CODES) STEPV_BELOW(CODES, Z19, Z11, Z12, Z13, Z14, Z7, Z8)
#define P3_C(CODES) STEPV_BELOW(CODES, Z21, Z23, Z24, Z25, Z26, Z13, Z14)
#define P3_OUT(OFF) \
	VPTESTMQ Z22, Z25, K3; \
	VPTESTMQ Z22, Z26, K4; \
	KMOVB    K3, OFF(DI)(R8*1); \
	KMOVB    K4, OFF(DX)(R8*1)

// func wordPass3VBMI2(tableA, tableB, tableC *[wordCodes]uint64, codes, hp, hm *uint8, n int, maskA, maskB, maskC uint64)
//
// wordPass3AVX512 with the deltas between the three words handed over in
// vector registers, not masks (STEPV_BELOW): of the 57 operations of a
// step of three words, 51 are left. A's and B's out are at row 63:
// maskA and maskB are not read.
//
// Registers: Z16, Z19, Z21 the tables, Z22 maskC, Z17 ones in bit 0;
// A's pv, mv, ph, mh in Z1, Z2, Z7, Z8, B's in Z11–Z14, C's in Z23–Z26;
// Z0, Z3–Z6 scratch. K1, K2 A's in, K3, K4 C's out.
TEXT ·wordPass3VBMI2(SB), NOSPLIT, $0-80
	START3
	PASS3
#undef P3_A
#undef P3_B
#undef P3_C
#undef P3_OUT
