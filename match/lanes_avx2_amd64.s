//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 lane kernels: laneAdvanceGo (lanes.go) for bundles of one or
// two groups, each group's 64 bytes of lanes in two YMM registers (its
// low and high halves: eight 32-bit or four 64-bit lanes each), so that a
// group is two dependency chains and two groups four. Without VPTERNLOG
// the step keeps ^ph, as scan1 does (apmfast.go): ^ph = ^mv & (v|eq|pv),
// below += 1 − top(^ph) − top(mh), ^(ph<<1) = 2·^ph + 1,
// pv = mh<<1 | ^xv & ^(ph<<1), mv = xv &^ ^(ph<<1); the results are
// laneStep's, bit for bit.
//
// Registers: half h of group g in Y(6g+3h) pv (then mh), Y(6g+3h+1) mv,
// Y(6g+3h+2) below; Y12 xv, Y13 v, Y14 ^ph, Y15 scratch. DX the tables
// (group g's 16 KiB after g's), SI t, BX the next symbol, CX len(t), R8
// the symbol's row offset, R11 the step's hits, R10 scratch.

// laneOnes32 and laneOnes64 hold 1 in each 32- or 64-bit lane.
DATA laneOnes32<>+0(SB)/8, $0x0000000100000001
DATA laneOnes32<>+8(SB)/8, $0x0000000100000001
DATA laneOnes32<>+16(SB)/8, $0x0000000100000001
DATA laneOnes32<>+24(SB)/8, $0x0000000100000001
GLOBL laneOnes32<>(SB), RODATA|NOPTR, $32
DATA laneOnes64<>+0(SB)/8, $1
DATA laneOnes64<>+8(SB)/8, $1
DATA laneOnes64<>+16(SB)/8, $1
DATA laneOnes64<>+24(SB)/8, $1
GLOBL laneOnes64<>(SB), RODATA|NOPTR, $32

// STEP runs one half's step: EQ its match words' offset from DX, PV, MV,
// BL its registers; its lanes' hits OR'd into R11 from bit SHIFT. The
// other arguments name the instructions and constants of the lane width.
// VPANDN B, A, D sets D to ^A & B.
#define STEP(EQ, PV, MV, BL, SHIFT, ADD, SUB, SRL, TOP, ONES, MSK) \
	VPOR EQ(DX)(R8*1), MV, Y12 \
	VPAND EQ(DX)(R8*1), PV, Y13 \
	ADD PV, Y13, Y13 \
	VPXOR PV, Y13, Y13 \
	VPOR EQ(DX)(R8*1), PV, Y14 \
	VPOR Y13, Y14, Y14 \
	VPANDN Y14, MV, Y14 \
	VPOR EQ(DX)(R8*1), Y13, Y13 \
	VPAND Y13, PV, PV \
	SRL $TOP, Y14, Y15 \
	SUB Y15, BL, BL \
	SRL $TOP, PV, Y15 \
	SUB Y15, BL, BL \
	ADD ONES, BL, BL \
	ADD Y14, Y14, Y14 \
	VPOR ONES, Y14, Y14 \
	ADD PV, PV, PV \
	VPANDN Y14, Y12, Y15 \
	VPOR Y15, PV, PV \
	VPANDN Y12, Y14, MV \
	MSK BL, R10 \
	SHLQ $SHIFT, R10 \
	ORQ R10, R11

// NEXT starts a step: it ends the loop at t's end and loads the symbol's
// row offset.
#define NEXT(DONE) \
	CMPQ BX, CX \
	JGE DONE \
	MOVBQZX (SI)(BX*1), R8 \
	SHLQ $6, R8 \
	INCQ BX \
	XORQ R11, R11

// ADVANCE is the whole kernel for one lane width: HI the bit of the hits
// where group 0's high half's begin, HI2 group 1's.
#define ADVANCE(ADD, SUB, SRL, TOP, ONES, MSK, HI, HI2) \
	MOVQ tab+0(FP), DX \
	MOVQ st+8(FP), AX \
	MOVQ groups+16(FP), R9 \
	MOVQ t_base+24(FP), SI \
	MOVQ t_len+32(FP), CX \
	VMOVDQU (AX), Y0 \
	VMOVDQU 64(AX), Y1 \
	VMOVDQU 128(AX), Y2 \
	VMOVDQU 32(AX), Y3 \
	VMOVDQU 96(AX), Y4 \
	VMOVDQU 160(AX), Y5 \
	VMOVDQU 192(AX), Y6 \
	VMOVDQU 256(AX), Y7 \
	VMOVDQU 320(AX), Y8 \
	VMOVDQU 224(AX), Y9 \
	VMOVDQU 288(AX), Y10 \
	VMOVDQU 352(AX), Y11 \
	XORQ BX, BX \
	XORQ R11, R11 \
	CMPQ R9, $2 \
	JEQ loop2 \
loop1: \
	NEXT(done) \
	STEP(0, Y0, Y1, Y2, 0, ADD, SUB, SRL, TOP, ONES, MSK) \
	STEP(32, Y3, Y4, Y5, HI, ADD, SUB, SRL, TOP, ONES, MSK) \
	TESTQ R11, R11 \
	JEQ loop1 \
	JMP done \
loop2: \
	NEXT(done) \
	STEP(0, Y0, Y1, Y2, 0, ADD, SUB, SRL, TOP, ONES, MSK) \
	STEP(32, Y3, Y4, Y5, HI, ADD, SUB, SRL, TOP, ONES, MSK) \
	STEP(16384, Y6, Y7, Y8, 16, ADD, SUB, SRL, TOP, ONES, MSK) \
	STEP(16416, Y9, Y10, Y11, HI2, ADD, SUB, SRL, TOP, ONES, MSK) \
	TESTQ R11, R11 \
	JEQ loop2 \
done: \
	VMOVDQU Y0, (AX) \
	VMOVDQU Y1, 64(AX) \
	VMOVDQU Y2, 128(AX) \
	VMOVDQU Y3, 32(AX) \
	VMOVDQU Y4, 96(AX) \
	VMOVDQU Y5, 160(AX) \
	VMOVDQU Y6, 192(AX) \
	VMOVDQU Y7, 256(AX) \
	VMOVDQU Y8, 320(AX) \
	VMOVDQU Y9, 224(AX) \
	VMOVDQU Y10, 288(AX) \
	VMOVDQU Y11, 352(AX) \
	MOVQ BX, n+48(FP) \
	MOVQ R11, hits+56(FP) \
	VZEROUPPER \
	RET

// func lanes32AVX2(tab, st *uint32, groups int, t []byte) (n int, hits uint64)
TEXT ·lanes32AVX2(SB), NOSPLIT, $0-64
	ADVANCE(VPADDD, VPSUBD, VPSRLD, 31, laneOnes32<>(SB), VMOVMSKPS, 8, 24)

// func lanes64AVX2(tab, st *uint64, groups int, t []byte) (n int, hits uint64)
TEXT ·lanes64AVX2(SB), NOSPLIT, $0-64
	ADVANCE(VPADDQ, VPSUBQ, VPSRLQ, 63, laneOnes64<>(SB), VMOVMSKPD, 4, 20)
