//go:build amd64 && !purego

#include "textflag.h"

// advanceAVX512x1 … x4: the 8, 16, 24 or 32 strips of a group in one to
// four ZMM registers, register r holding strips 8r … 8r+7, strip k taking
// column s−k at step s as in advance's schedule. See advanceGo in
// myers.go for the same steps in Go, and bitpar.Step for the bit
// operations. One driver (WIDE) runs them all; they differ only in their
// steps, ramps, loads and stores.
//
// Why several registers. A step waits on the step before it (carry →
// shift-in → add → carry) and leaves the vector units mostly idle. Every
// register's step s depends only on step s−1, so the registers run side
// by side in about the time of one: two to four times the cells a step.
//
// Carries. Between steps the raw ph and mh words (bit 63 the delta
// leaving a strip) are kept rotated up one lane: lane k+1 holds strip k's,
// the carry strip k+1 takes next, lane 0 of register r takes lane 7 of
// register r−1, and lane 0 of register 0 that of the last, the delta
// leaving the group, read by a scalar move, written to hout and replaced
// by the incoming hin. VPSHLDQ shifts a carry in (ph<<1 | carry>>63);
// VPTERNLOGQ folds each three-input expression into one instruction.
//
// Match words. Lane k of register r needs word 8r+k of the match row of
// column s−8r−k, the diagonal of the rows X of the last eight columns,
// built from the rows of column s−8r and the one before and three blends,
// each step's partial diagonals kept for the steps after it:
//   E1[c] = X[c − (k&1)][k]   blend of X[c] and X[c−1], odd lanes from X[c−1]
//   E2[c] = X[c − (k&3)][k]   blend of E1[c] and E1[c−2], lanes 2, 3, 6, 7
//   eq[c] = X[c − k][k]       blend of E2[c] and E2[c−4], lanes 4–7
// E1 and E2 of the last four columns are kept in four slots each on the
// stack, those of step s in slot s mod 4.
//
// Ramps. The kernels run the whole schedule, steps 0 … n+K−2 for K strips,
// four at a time: where some lanes have no column (the first K steps, and
// the last ones, up to three steps past the end) RAMP runs the steps with
// those lanes masked, their rows read as nothing and their deltas written
// nowhere, so that a chunk costs no scalar steps; STEP runs the steps
// where every lane has a column.
//
// Registers: register r's pv in Z(7r), with Z(7r+1) taking the new pv
// every other step, then mv, the rotated ph and mh (then shifted), mh, xh
// (then ph) in Z(7r+2) … Z(7r+6); Z28 scratch, Z29 eq, Z30 the row, then
// E1, Z31 E2. K1 lane 0, K2 all lanes, K3 the odd lanes, K4 lanes 2, 3, 6,
// 7, K5 lanes 4–7, K6 a register's lanes with a column (ramps). BX the
// first step of four; SI t, R13 len(t), DI hin, R10 hout, DX the match
// table (rows of 32 words), R9 hinWords, R12 the slots (64-byte aligned),
// then the lanes' mask at 2048 and a byte for deltas written nowhere at
// 2056.

// hinWords[x] is boundary byte x's +1 as a carry word (bit 63),
// hinWords[3+x] its −1.
DATA hinWords<>+0(SB)/8, $0
DATA hinWords<>+8(SB)/8, $0x8000000000000000
DATA hinWords<>+16(SB)/8, $0
DATA hinWords<>+24(SB)/8, $0
DATA hinWords<>+32(SB)/8, $0
DATA hinWords<>+40(SB)/8, $0x8000000000000000
GLOBL hinWords<>(SB), RODATA|NOPTR, $48

// NET sets Z29 to register R's match words for step s = BX+OFF, from the
// rows at R8 (column s−8R) and R11 (the column before); slots SLOT and
// SLOT2 (two steps back) of E1, E2 at the register's 512 bytes of slots.
#define NET(OFF, R, SLOT, SLOT2) \
	VMOVDQU64 (64*R)(R8), Z30 \
	VPBLENDMQ (64*R)(R11), Z30, K3, Z30 \
	VMOVDQA64 Z30, (512*R+(SLOT)*64)(R12) \
	VPBLENDMQ (512*R+(SLOT2)*64)(R12), Z30, K4, Z31 \
	VPBLENDMQ (512*R+256+(SLOT)*64)(R12), Z31, K5, Z29 \
	VMOVDQA64 Z31, (512*R+256+(SLOT)*64)(R12)

// ROWS sets R8 and R11 to the rows of columns BX+TOFF and the one before,
// every lane busy.
#define ROWS(TOFF) \
	MOVBQZX TOFF(SI)(BX*1), R8 \
	MOVBQZX (TOFF-1)(SI)(BX*1), R11 \
	SHLQ $8, R8 \
	SHLQ $8, R11 \
	ADDQ DX, R8 \
	ADDQ DX, R11

// ROW sets REG to the row of column C (a register), or to zeroRow where
// C is outside [0, len(t)); AX is scratch.
#define ROW(C, REG) \
	XORQ REG, REG \
	CMPQ C, R13 \
	CMOVQCS C, REG \
	MOVBQZX (SI)(REG*1), REG \
	SHLQ $8, REG \
	ADDQ DX, REG \
	LEAQ zeroRow<>(SB), AX \
	CMPQ C, R13 \
	CMOVQCC AX, REG

// HALF_STEP advances one register's strips by a step: eq in Z29, pv in PV,
// mv in MV, the rotated carries in PHR, MHR; the new pv goes to XV, the
// new mv to MV's lanes in KM, and XH, MH keep the raw ph, mh.
//
// VPTERNLOGQ $f, C, B, A sets A to f(A, B, C): 0xBE = (A^B)|C,
// 0xAB = C|^(A|B).
#define HALF_STEP(PV, XV, MV, PHR, MHR, MH, XH, KM) \
	VPSRLQ $63, MHR, Z28 \
	VPORQ Z29, MV, XV \
	VPORQ Z28, Z29, Z29 \
	VPANDQ Z29, PV, XH \
	VPADDQ PV, XH, XH \
	VPTERNLOGQ $0xBE, Z29, PV, XH \
	VPANDQ XH, PV, MH \
	VPTERNLOGQ $0xAB, MV, PV, XH \
	VPSHLDQ $1, PHR, XH, PHR \
	VPSHLDQ $1, MHR, MH, MHR \
	VPANDQ PHR, XV, KM, MV \
	VPTERNLOGQ $0xAB, MHR, PHR, XV

// ROTATE1 … ROTATE4 pass each strip's raw carries to the next strip's
// lane: lane 0 of each register takes lane 7 of the one before, register
// 0 that of the last.
#define ROTATE1 \
	VALIGNQ $7, Z6, Z6, Z3 \
	VALIGNQ $7, Z5, Z5, Z4

#define ROTATE2 \
	VALIGNQ $7, Z13, Z6, Z3 \
	VALIGNQ $7, Z12, Z5, Z4 \
	VALIGNQ $7, Z6, Z13, Z10 \
	VALIGNQ $7, Z5, Z12, Z11

#define ROTATE3 \
	VALIGNQ $7, Z20, Z6, Z3 \
	VALIGNQ $7, Z19, Z5, Z4 \
	VALIGNQ $7, Z6, Z13, Z10 \
	VALIGNQ $7, Z5, Z12, Z11 \
	VALIGNQ $7, Z13, Z20, Z17 \
	VALIGNQ $7, Z12, Z19, Z18

#define ROTATE4 \
	VALIGNQ $7, Z27, Z6, Z3 \
	VALIGNQ $7, Z26, Z5, Z4 \
	VALIGNQ $7, Z6, Z13, Z10 \
	VALIGNQ $7, Z5, Z12, Z11 \
	VALIGNQ $7, Z13, Z20, Z17 \
	VALIGNQ $7, Z12, Z19, Z18 \
	VALIGNQ $7, Z20, Z27, Z24 \
	VALIGNQ $7, Z19, Z26, Z25

// HIN puts the incoming delta of column BX+OFF into register 0's lane 0.
#define HIN(OFF) \
	MOVBQZX OFF(DI)(BX*1), R8 \
	VPBROADCASTQ (R9)(R8*8), K1, Z3 \
	VPBROADCASTQ 24(R9)(R8*8), K1, Z4

// OUT sets AX to the delta leaving the group, in register 0's lane 0 after
// ROTATE, as a boundary byte.
#define OUT \
	VMOVQ X3, AX \
	VMOVQ X4, R11 \
	SHRQ $63, AX \
	SHRQ $63, R11 \
	LEAQ (AX)(R11*2), AX

// STEP_R runs register R's part of step BX+OFF, every lane busy.
#define STEP_R(OFF, R, PV, XV, MV, PHR, MHR, MH, XH, SLOT2) \
	ROWS(OFF-8*R) \
	NET(OFF, R, OFF, SLOT2) \
	HALF_STEP(PV, XV, MV, PHR, MHR, MH, XH, K2)

// RAMP_R runs register R's part of step BX+OFF with its lanes masked.
#define RAMP_R(OFF, R, PV, XV, MV, PHR, MHR, MH, XH, SLOT2) \
	KMOVW (2048+R)(R12), K6 \
	LEAQ (OFF-8*R)(BX), CX \
	ROW(CX, R8) \
	DECQ CX \
	ROW(CX, R11) \
	NET(OFF, R, OFF, SLOT2) \
	HALF_STEP(PV, XV, MV, PHR, MHR, MH, XH, K6) \
	VMOVDQA64 XV, K6, PV

// MASK stores at 2048(R12) the lanes k with a column at step s = BX+OFF,
// s−n < k ≤ s, k < K, bit k each.
#define MASK(OFF, K) \
	LEAQ (OFF+1)(BX), CX \
	MOVQ $K, R8 \
	CMPQ CX, R8 \
	CMOVQGT R8, CX \
	MOVQ $1, R8 \
	SHLQ CX, R8 \
	DECQ R8 \
	LEAQ (OFF+1)(BX), CX \
	SUBQ R13, CX \
	XORQ R11, R11 \
	CMPQ CX, R11 \
	CMOVQLT R11, CX \
	MOVQ $K, R11 \
	CMPQ CX, R11 \
	CMOVQGT R11, CX \
	MOVQ $1, R11 \
	SHLQ CX, R11 \
	DECQ R11 \
	NOTQ R11 \
	ANDQ R11, R8 \
	MOVQ R8, 2048(R12)

// RAMP_HIN is HIN for a ramp step: the column clamped to len(t)−1 (lane 0
// has no column past it, and reads what it likes).
#define RAMP_HIN(OFF) \
	LEAQ OFF(BX), CX \
	LEAQ -1(R13), R8 \
	CMPQ CX, R8 \
	CMOVQGT R8, CX \
	MOVBQZX (DI)(CX*1), R8 \
	VPBROADCASTQ (R9)(R8*8), K1, Z3 \
	VPBROADCASTQ 24(R9)(R8*8), K1, Z4

// RAMP_OUT writes the delta leaving the group at step BX+OFF to column
// BX+OFF−K+1 of hout where there is one, else nowhere.
#define RAMP_OUT(OFF, K) \
	LEAQ (OFF-K+1)(BX), CX \
	LEAQ (R10)(CX*1), R8 \
	LEAQ 2056(R12), R11 \
	CMPQ CX, R13 \
	CMOVQCC R11, R8 \
	OUT \
	MOVB AX, (R8)

// STEP1, RAMP1 … STEP4, RAMP4: step BX+OFF of each kernel; the STEPs
// take the registers holding pv and its successor.
#define STEP1(OFF, SLOT2, P0, X0) \
	HIN(OFF) \
	STEP_R(OFF, 0, P0, X0, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	ROTATE1 \
	OUT \
	MOVB AX, (OFF-7)(R10)(BX*1)

#define RAMP1(OFF, SLOT2) \
	MASK(OFF, 8) \
	RAMP_HIN(OFF) \
	RAMP_R(OFF, 0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	ROTATE1 \
	RAMP_OUT(OFF, 8)

#define STEP2(OFF, SLOT2, P0, X0, P1, X1) \
	HIN(OFF) \
	STEP_R(OFF, 0, P0, X0, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	STEP_R(OFF, 1, P1, X1, Z9, Z10, Z11, Z12, Z13, SLOT2) \
	ROTATE2 \
	OUT \
	MOVB AX, (OFF-15)(R10)(BX*1)

#define RAMP2(OFF, SLOT2) \
	MASK(OFF, 16) \
	RAMP_HIN(OFF) \
	RAMP_R(OFF, 0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	RAMP_R(OFF, 1, Z7, Z8, Z9, Z10, Z11, Z12, Z13, SLOT2) \
	ROTATE2 \
	RAMP_OUT(OFF, 16)

#define STEP3(OFF, SLOT2, P0, X0, P1, X1, P2, X2) \
	HIN(OFF) \
	STEP_R(OFF, 0, P0, X0, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	STEP_R(OFF, 1, P1, X1, Z9, Z10, Z11, Z12, Z13, SLOT2) \
	STEP_R(OFF, 2, P2, X2, Z16, Z17, Z18, Z19, Z20, SLOT2) \
	ROTATE3 \
	OUT \
	MOVB AX, (OFF-23)(R10)(BX*1)

#define RAMP3(OFF, SLOT2) \
	MASK(OFF, 24) \
	RAMP_HIN(OFF) \
	RAMP_R(OFF, 0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	RAMP_R(OFF, 1, Z7, Z8, Z9, Z10, Z11, Z12, Z13, SLOT2) \
	RAMP_R(OFF, 2, Z14, Z15, Z16, Z17, Z18, Z19, Z20, SLOT2) \
	ROTATE3 \
	RAMP_OUT(OFF, 24)

#define STEP4(OFF, SLOT2, P0, X0, P1, X1, P2, X2, P3, X3) \
	HIN(OFF) \
	STEP_R(OFF, 0, P0, X0, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	STEP_R(OFF, 1, P1, X1, Z9, Z10, Z11, Z12, Z13, SLOT2) \
	STEP_R(OFF, 2, P2, X2, Z16, Z17, Z18, Z19, Z20, SLOT2) \
	STEP_R(OFF, 3, P3, X3, Z23, Z24, Z25, Z26, Z27, SLOT2) \
	ROTATE4 \
	OUT \
	MOVB AX, (OFF-31)(R10)(BX*1)

#define RAMP4(OFF, SLOT2) \
	MASK(OFF, 32) \
	RAMP_HIN(OFF) \
	RAMP_R(OFF, 0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, SLOT2) \
	RAMP_R(OFF, 1, Z7, Z8, Z9, Z10, Z11, Z12, Z13, SLOT2) \
	RAMP_R(OFF, 2, Z14, Z15, Z16, Z17, Z18, Z19, Z20, SLOT2) \
	RAMP_R(OFF, 3, Z21, Z22, Z23, Z24, Z25, Z26, Z27, SLOT2) \
	ROTATE4 \
	RAMP_OUT(OFF, 32)

// zeroRow is the match row of a column outside t: no matches.
GLOBL zeroRow<>(SB), RODATA|NOPTR, $256

// SETUP loads the arguments, the masks and the state of the first R
// registers (pv, mv), and sets BX to step 0.
#define SETUP \
	MOVQ t_len+32(FP), R13 \
	MOVQ peq+16(FP), DX \
	MOVQ t_base+24(FP), SI \
	MOVQ hin_base+48(FP), DI \
	MOVQ hout_base+72(FP), R10 \
	LEAQ hinWords<>(SB), R9 \
	LEAQ 63(SP), R12 \
	ANDQ $-64, R12 \
	MOVQ $0x01, R8 \
	KMOVW R8, K1 \
	MOVQ $0xFF, R8 \
	KMOVW R8, K2 \
	MOVQ $0xAA, R8 \
	KMOVW R8, K3 \
	MOVQ $0xCC, R8 \
	KMOVW R8, K4 \
	MOVQ $0xF0, R8 \
	KMOVW R8, K5 \
	MOVQ pv+0(FP), AX \
	MOVQ mv+8(FP), R8 \
	MOVQ $0, BX

// WIDE is the driver of the R-register kernels, K = 8R strips: it loads
// the state (LOAD), runs steps 0 … n+K−2 four at a time, every lane busy
// (STEPS) where the four steps' columns are all in t and past the first K
// steps, else with lanes masked (RAMPS), and stores the state (STORE).
// Labels are the function's own, so each kernel expands it once.
#define WIDE(K, LOAD, STEPS, RAMPS, STORE) \
	SETUP \
	LOAD \
next: \
	LEAQ (K-1)(R13), R8 \
	CMPQ BX, R8 \
	JGE done \
	CMPQ BX, $K \
	JLT ramp \
	LEAQ 3(BX), R8 \
	CMPQ R8, R13 \
	JGE ramp \
loop: \
	STEPS \
	ADDQ $4, BX \
	LEAQ 3(BX), R8 \
	CMPQ R8, R13 \
	JLT loop \
	JMP next \
ramp: \
	RAMPS \
	ADDQ $4, BX \
	JMP next \
done: \
	MOVQ pv+0(FP), AX \
	MOVQ mv+8(FP), R8 \
	STORE \
	VZEROUPPER \
	RET

// Four steps of each kernel, the pv registers swapping every step, and
// the state it loads and stores: pv of register r in Z(7r), mv in Z(7r+2).
#define STEPS1 \
	STEP1(0, 2, Z0, Z1) \
	STEP1(1, 3, Z1, Z0) \
	STEP1(2, 0, Z0, Z1) \
	STEP1(3, 1, Z1, Z0)

#define RAMPS1 \
	RAMP1(0, 2) \
	RAMP1(1, 3) \
	RAMP1(2, 0) \
	RAMP1(3, 1)

#define LOAD1 \
	VMOVDQU64 (AX), Z0 \
	VMOVDQU64 (R8), Z2

#define STORE1 \
	VMOVDQU64 Z0, (AX) \
	VMOVDQU64 Z2, (R8)

#define STEPS2 \
	STEP2(0, 2, Z0, Z1, Z7, Z8) \
	STEP2(1, 3, Z1, Z0, Z8, Z7) \
	STEP2(2, 0, Z0, Z1, Z7, Z8) \
	STEP2(3, 1, Z1, Z0, Z8, Z7)

#define RAMPS2 \
	RAMP2(0, 2) \
	RAMP2(1, 3) \
	RAMP2(2, 0) \
	RAMP2(3, 1)

#define LOAD2 \
	VMOVDQU64 (AX), Z0 \
	VMOVDQU64 64(AX), Z7 \
	VMOVDQU64 (R8), Z2 \
	VMOVDQU64 64(R8), Z9

#define STORE2 \
	VMOVDQU64 Z0, (AX) \
	VMOVDQU64 Z7, 64(AX) \
	VMOVDQU64 Z2, (R8) \
	VMOVDQU64 Z9, 64(R8)

#define STEPS3 \
	STEP3(0, 2, Z0, Z1, Z7, Z8, Z14, Z15) \
	STEP3(1, 3, Z1, Z0, Z8, Z7, Z15, Z14) \
	STEP3(2, 0, Z0, Z1, Z7, Z8, Z14, Z15) \
	STEP3(3, 1, Z1, Z0, Z8, Z7, Z15, Z14)

#define RAMPS3 \
	RAMP3(0, 2) \
	RAMP3(1, 3) \
	RAMP3(2, 0) \
	RAMP3(3, 1)

#define LOAD3 \
	VMOVDQU64 (AX), Z0 \
	VMOVDQU64 64(AX), Z7 \
	VMOVDQU64 128(AX), Z14 \
	VMOVDQU64 (R8), Z2 \
	VMOVDQU64 64(R8), Z9 \
	VMOVDQU64 128(R8), Z16

#define STORE3 \
	VMOVDQU64 Z0, (AX) \
	VMOVDQU64 Z7, 64(AX) \
	VMOVDQU64 Z14, 128(AX) \
	VMOVDQU64 Z2, (R8) \
	VMOVDQU64 Z9, 64(R8) \
	VMOVDQU64 Z16, 128(R8)

#define STEPS4 \
	STEP4(0, 2, Z0, Z1, Z7, Z8, Z14, Z15, Z21, Z22) \
	STEP4(1, 3, Z1, Z0, Z8, Z7, Z15, Z14, Z22, Z21) \
	STEP4(2, 0, Z0, Z1, Z7, Z8, Z14, Z15, Z21, Z22) \
	STEP4(3, 1, Z1, Z0, Z8, Z7, Z15, Z14, Z22, Z21)

#define RAMPS4 \
	RAMP4(0, 2) \
	RAMP4(1, 3) \
	RAMP4(2, 0) \
	RAMP4(3, 1)

#define LOAD4 \
	VMOVDQU64 (AX), Z0 \
	VMOVDQU64 64(AX), Z7 \
	VMOVDQU64 128(AX), Z14 \
	VMOVDQU64 192(AX), Z21 \
	VMOVDQU64 (R8), Z2 \
	VMOVDQU64 64(R8), Z9 \
	VMOVDQU64 128(R8), Z16 \
	VMOVDQU64 192(R8), Z23

#define STORE4 \
	VMOVDQU64 Z0, (AX) \
	VMOVDQU64 Z7, 64(AX) \
	VMOVDQU64 Z14, 128(AX) \
	VMOVDQU64 Z21, 192(AX) \
	VMOVDQU64 Z2, (R8) \
	VMOVDQU64 Z9, 64(R8) \
	VMOVDQU64 Z16, 128(R8) \
	VMOVDQU64 Z23, 192(R8)

// func advanceAVX512x1(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX512x1(SB), $2176-96
	WIDE(8, LOAD1, STEPS1, RAMPS1, STORE1)

// func advanceAVX512x2(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX512x2(SB), $2176-96
	WIDE(16, LOAD2, STEPS2, RAMPS2, STORE2)

// func advanceAVX512x3(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX512x3(SB), $2176-96
	WIDE(24, LOAD3, STEPS3, RAMPS3, STORE3)

// func advanceAVX512x4(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX512x4(SB), $2176-96
	WIDE(32, LOAD4, STEPS4, RAMPS4, STORE4)
