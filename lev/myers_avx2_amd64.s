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

// The kernels run advance's whole schedule, steps 0 … n+K−2 for K = 4 or
// 8 strips, STEP or STEP8 four at a time where every lane has a column,
// RAMP4 or RAMP8 a step at a time where some lanes have none (the first
// K−1 steps and the last ones). AVX2 has no mask registers: a ramp step
// runs every lane, each lane's match word read from its own column's row
// (the column clamped into t), and then blends the state of the lanes
// without a column back to what it was before the step (IDLE, VPBLENDVB).
// Their carries are not kept apart: the lane after one without a column
// has none at the next step either, so they reach only lanes whose state
// is put back. R13 holds len(t) in both kernels.

// laneIdx is the strip number of each lane of a group's two registers.
DATA laneIdx<>+0(SB)/8, $0
DATA laneIdx<>+8(SB)/8, $1
DATA laneIdx<>+16(SB)/8, $2
DATA laneIdx<>+24(SB)/8, $3
DATA laneIdx<>+32(SB)/8, $4
DATA laneIdx<>+40(SB)/8, $5
DATA laneIdx<>+48(SB)/8, $6
DATA laneIdx<>+56(SB)/8, $7
GLOBL laneIdx<>(SB), RODATA|NOPTR, $64

// COL sets R8 to the offset in the match table of the row of column
// BX+OFF, the column clamped into [0, len(t)−1]; CX is scratch.
#define COL(OFF) \
	LEAQ OFF(BX), R8 \
	XORQ CX, CX \
	CMPQ R8, CX \
	CMOVQLT CX, R8 \
	LEAQ -1(R13), CX \
	CMPQ R8, CX \
	CMOVQGT CX, R8 \
	MOVBQZX (SI)(R8*1), R8 \
	SHLQ $8, R8

// EQR sets EQ to the match words of a register's four lanes at step BX,
// lane j's from the row of column BX+O0−j, from the row half HALF (0 or
// 32).
#define EQR(O0, O1, O2, O3, HALF, EQ) \
	COL(O0) \
	VMOVDQU HALF(DX)(R8*1), EQ \
	COL(O1) \
	VPBLENDD $0x0C, HALF(DX)(R8*1), EQ, EQ \
	COL(O2) \
	VPBLENDD $0x30, HALF(DX)(R8*1), EQ, EQ \
	COL(O3) \
	VPBLENDD $0xC0, HALF(DX)(R8*1), EQ, EQ

// HINR sets lane 0 of INP, INM to the incoming delta of column BX, the
// column clamped to len(t)−1 (lane 0 has no column past it); Y15 and CX
// are scratch.
#define HINR(INP, INM) \
	MOVQ BX, R8 \
	LEAQ -1(R13), CX \
	CMPQ R8, CX \
	CMOVQGT CX, R8 \
	MOVBQZX (DI)(R8*1), R8 \
	VPBROADCASTQ (R9)(R8*8), Y15 \
	VPBLENDD $0x03, Y15, INP, INP \
	VPBROADCASTQ 24(R9)(R8*8), Y15 \
	VPBLENDD $0x03, Y15, INM, INM

// IDLE sets DST to all ones in the lanes with no column at step BX (lane
// k, strip laneIdx[k] from byte LANES, takes column BX−k: none below 0 or
// past len(t)−1), else zero; Y9, Y15 and CX are scratch.
#define IDLE(LANES, DST) \
	MOVQ BX, X15 \
	VPBROADCASTQ X15, Y15 \
	VPSUBQ laneIdx<>+LANES(SB), Y15, Y15 \
	VPXOR DST, DST, DST \
	VPCMPGTQ Y15, DST, DST \
	LEAQ -1(R13), CX \
	MOVQ CX, X9 \
	VPBROADCASTQ X9, Y9 \
	VPCMPGTQ Y9, Y15, Y9 \
	VPOR Y9, DST, DST

// RAMPOUT writes the delta leaving lane 3 of the carries CP, CM at step BX
// to hout[BX−LAST], where BX ≥ LAST (the group's last strip has a column),
// else to the byte at SINK; AX, CX and Y15 are scratch.
#define RAMPOUT(LAST, CP, CM, SINK) \
	VPSLLQ $1, CM, Y15 \
	VPOR CP, Y15, Y15 \
	VEXTRACTI128 $1, Y15, X15 \
	VPEXTRQ $1, X15, AX \
	MOVQ R10, R8 \
	SUBQ $LAST, R8 \
	ADDQ BX, R8 \
	LEAQ SINK, CX \
	CMPQ BX, $LAST \
	CMOVQLT CX, R8 \
	MOVB AX, (R8)

// ARGS loads the arguments of func(pv, mv *[maxStrips]uint64, peq *uint64,
// t, hin, hout []uint8) and sets BX to step 0; Y8 and Y13 all ones, the
// carries zero.
#define ARGS \
	MOVQ peq+16(FP), DX \
	MOVQ t_base+24(FP), SI \
	MOVQ t_len+32(FP), R13 \
	MOVQ hin_base+48(FP), DI \
	MOVQ hout_base+72(FP), R10 \
	LEAQ hinBits<>(SB), R9 \
	MOVQ pv+0(FP), AX \
	MOVQ mv+8(FP), R11 \
	VPCMPEQQ Y8, Y8, Y8 \
	VPCMPEQQ Y13, Y13, Y13 \
	MOVQ $0, BX

// RAMP4 runs step BX of the four-strip kernel: pv and mv kept in Y5, Y6
// (the rows are reloaded after) and blended back in the lanes with no
// column.
#define RAMP4 \
	VMOVDQA Y0, Y5 \
	VMOVDQA Y1, Y6 \
	VPERMQ $0x93, Y2, Y9 \
	VPERMQ $0x93, Y3, Y10 \
	HINR(Y9, Y10) \
	EQR(0, -1, -2, -3, 0, Y11) \
	HALF4(Y0, Y1, Y2, Y3, Y9, Y10, Y11, Y12, Y14) \
	IDLE(0, Y12) \
	VPBLENDVB Y12, Y5, Y0, Y0 \
	VPBLENDVB Y12, Y6, Y1, Y1 \
	RAMPOUT(3, Y2, Y3, 0(SP))

// RAMP8 runs step BX of the eight-strip kernel: each register's pv and
// mv kept on the stack and blended back in its lanes with no column.
#define RAMP8 \
	VMOVDQU Y0, 0(SP) \
	VMOVDQU Y1, 32(SP) \
	VMOVDQU Y4, 64(SP) \
	VMOVDQU Y5, 96(SP) \
	VPERMQ $0x93, Y2, Y9 \
	VPERMQ $0x93, Y3, Y10 \
	VPERMQ $0x93, Y6, Y11 \
	VPERMQ $0x93, Y7, Y12 \
	VPBLENDD $0x03, Y9, Y11, Y11 \
	VPBLENDD $0x03, Y10, Y12, Y12 \
	HINR(Y9, Y10) \
	EQR(0, -1, -2, -3, 0, Y13) \
	HALF4(Y0, Y1, Y2, Y3, Y9, Y10, Y13, Y14, Y15) \
	IDLE(0, Y14) \
	VPBLENDVB Y14, 0(SP), Y0, Y0 \
	VPBLENDVB Y14, 32(SP), Y1, Y1 \
	EQR(-4, -5, -6, -7, 32, Y9) \
	HALF4(Y4, Y5, Y6, Y7, Y11, Y12, Y9, Y10, Y13) \
	IDLE(32, Y14) \
	VPBLENDVB Y14, 64(SP), Y4, Y4 \
	VPBLENDVB Y14, 96(SP), Y5, Y5 \
	RAMPOUT(7, Y6, Y7, 128(SP))

// func advanceAVX2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX2(SB), $8-96
	ARGS
	VMOVDQU (AX), Y0
	VMOVDQU (R11), Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3

next4:
	LEAQ 3(R13), R8
	CMPQ BX, R8
	JGE done4
	CMPQ BX, $3
	JLT ramp4
	LEAQ 3(BX), R8
	CMPQ R8, R13
	JGE ramp4

	// Every lane busy from BX to the end of the loop. STEP takes the
	// match rows of the three columns before BX in Y5, Y6, Y7.
	MOVBQZX -3(SI)(BX*1), R8
	SHLQ $8, R8
	VMOVDQU (DX)(R8*1), Y5
	MOVBQZX -2(SI)(BX*1), R8
	SHLQ $8, R8
	VMOVDQU (DX)(R8*1), Y6
	MOVBQZX -1(SI)(BX*1), R8
	SHLQ $8, R8
	VMOVDQU (DX)(R8*1), Y7

loop4:
	STEP(Y8, Y7, Y6, Y5, 0, -3)
	STEP(Y5, Y8, Y7, Y6, 1, -2)
	STEP(Y6, Y5, Y8, Y7, 2, -1)
	STEP(Y7, Y6, Y5, Y8, 3, 0)
	ADDQ $4, BX
	LEAQ 3(BX), R8
	CMPQ R8, R13
	JLT loop4
	VPCMPEQQ Y8, Y8, Y8 // HALF4's all ones, a row in the loop
	JMP next4

ramp4:
	RAMP4
	INCQ BX
	JMP next4

done4:
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R11
	VMOVDQU Y0, (AX)
	VMOVDQU Y1, (R11)
	VZEROUPPER
	RET

// func advanceAVX2x2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX2x2(SB), $136-96
	ARGS
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y4
	VMOVDQU (R11), Y1
	VMOVDQU 32(R11), Y5
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7

next8:
	LEAQ 7(R13), R8
	CMPQ BX, R8
	JGE done8
	CMPQ BX, $7
	JLT ramp8
	LEAQ 3(BX), R8
	CMPQ R8, R13
	JGE ramp8

loop8:
	STEP8(0)
	STEP8(1)
	STEP8(2)
	STEP8(3)
	ADDQ $4, BX
	LEAQ 3(BX), R8
	CMPQ R8, R13
	JLT loop8
	JMP next8

ramp8:
	RAMP8
	INCQ BX
	JMP next8

done8:
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R11
	VMOVDQU Y0, (AX)
	VMOVDQU Y4, 32(AX)
	VMOVDQU Y1, (R11)
	VMOVDQU Y5, 32(R11)
	VZEROUPPER
	RET
