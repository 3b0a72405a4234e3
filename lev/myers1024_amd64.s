//go:build amd64 && !purego

#include "textflag.h"

// advanceAVX512Wide: the sixteen strips of a group in two ZMM registers, A
// (strips 0–7) and B (strips 8–15), strip k taking column s−k at step s as
// in advance's schedule. See advanceGo in myers.go for the same steps in
// Go, and bitpar.Step for the bit operations.
//
// Why two registers. A step of advanceAVX512 waits on the step before it
// (carry → shift-in → add → carry) and leaves the vector units mostly idle.
// Both registers' step s depend only on step s−1, so the two run side by
// side in about the time of one: twice the cells a step.
//
// Carries. As in advanceAVX512, the raw ph and mh words (bit 63 the delta
// leaving a strip) are kept rotated up one lane, now across the pair: A's
// lane 0 takes B's lane 7 (the delta leaving the group, written to hout
// and replaced by the incoming hin), B's lane 0 takes A's lane 7.
//
// Match words. Lane k of A needs word k of the match row of column s−k,
// lane k of B word 8+k of column s−8−k. Each register has a blend network
// of its own (see advanceAVX512), A's over the first half of the rows of
// columns s, B's over the second half of those of columns s−8; the partial
// diagonals E1 and E2 of the last four columns are kept in four slots each
// on the stack, column c's in slot (s+1) mod 4 of the step s that made it.
//
// Ramps. The kernel runs the whole schedule, steps 0 … n+14: the 15 steps
// at each end, where some lanes have no column, run one at a time with
// their lanes masked (RAMP), so that a chunk costs no scalar steps; the
// steps from 15 on where every lane has one run four at a time.
//
// Registers:
//   A: Z0 pv (Z10 every other step), Z1 mv, Z2, Z3 the rotated ph, mh
//   (then shifted), Z4 mh, Z5 xh then ph, Z15 scratch, Z7 eq; rows Z8, Z9,
//   E1 Z11, E2 Z12. B: the same in Z16, Z26, Z17, Z18, Z19, Z20, Z21, Z22,
//   Z23; rows Z24, Z25, E1 Z27, E2 Z28.
//   K1 lane 0, K2 all lanes, K3 the odd lanes, K4 lanes 2, 3, 6, 7, K5
//   lanes 4–7; K6, K7 A's and B's lanes with a column (ramps).
//   BX the step; SI t, R13 len(t), DI hin, R10 hout, DX the match table
//   (rows of 16 words), R12 the slots (64-byte aligned), R9 hinWide.

// The slots, from R12: E1 and E2 of A, then of B, four of 64 bytes each.
#define E1A 0
#define E2A 256
#define E1B 512
#define E2B 768

// NET sets EQ to the match words of a register for step s = BX+OFF from
// the row half HALF (0 or 64) of column s+TOFF, loaded into XS (XP holds
// the row of the column before). E1, E2 receive the new partial
// diagonals, stored in slot SLOT of E1S, E2S; E1 of two columns back is in
// slot SLOT2, E2 of four back in SLOT itself.
#define NET(TOFF, HALF, XS, XP, E1, E2, EQ, E1S, E2S, SLOT, SLOT2) \
	MOVBQZX TOFF(SI)(BX*1), R8 \
	SHLQ $7, R8 \
	VMOVDQU64 HALF(DX)(R8*1), XS \
	VPBLENDMQ XP, XS, K3, E1 \
	VMOVDQA64 E1, (E1S+SLOT*64)(R12) \
	VPBLENDMQ (E1S+SLOT2*64)(R12), E1, K4, E2 \
	VPBLENDMQ (E2S+SLOT*64)(R12), E2, K5, EQ \
	VMOVDQA64 E2, (E2S+SLOT*64)(R12)

// HALF_STEP advances one register's strips by a step: eq in EQ, pv in PV,
// mv in MV, the rotated carries in PHR, MHR; the new pv goes to XV, the
// new mv to MV's lanes in KM, and XH, MH keep the raw ph, mh.
//
// VPTERNLOGQ $f, C, B, A sets A to f(A, B, C): 0xBE = (A^B)|C,
// 0xAB = C|^(A|B).
#define HALF_STEP(PV, XV, MV, PHR, MHR, MH, XH, SC, EQ, KM) \
	VPSRLQ $63, MHR, SC \
	VPORQ EQ, MV, XV \
	VPORQ SC, EQ, EQ \
	VPANDQ EQ, PV, XH \
	VPADDQ PV, XH, XH \
	VPTERNLOGQ $0xBE, EQ, PV, XH \
	VPANDQ XH, PV, MH \
	VPTERNLOGQ $0xAB, MV, PV, XH \
	VPSHLDQ $1, PHR, XH, PHR \
	VPSHLDQ $1, MHR, MH, MHR \
	VPANDQ PHR, XV, KM, MV \
	VPTERNLOGQ $0xAB, MHR, PHR, XV

// ROTATE passes each strip's raw carries to the next strip's lane.
#define ROTATE \
	VALIGNQ $7, Z21, Z5, Z2 \
	VALIGNQ $7, Z20, Z4, Z3 \
	VALIGNQ $7, Z5, Z21, Z18 \
	VALIGNQ $7, Z4, Z20, Z19

// HIN puts the incoming delta of column BX+OFF into A's lane 0.
#define HIN(OFF) \
	MOVBQZX OFF(DI)(BX*1), R8 \
	VPBROADCASTQ (R9)(R8*8), K1, Z2 \
	VPBROADCASTQ 24(R9)(R8*8), K1, Z3

// HOUT writes the delta leaving strip 15, in A's lane 0 after ROTATE, as
// the outgoing delta of column BX+OFF−15.
#define HOUT(OFF) \
	VMOVQ X2, R8 \
	VMOVQ X3, R11 \
	SHRQ $63, R8 \
	SHRQ $63, R11 \
	LEAQ (R8)(R11*2), R8 \
	MOVB R8, (OFF-15)(R10)(BX*1)

// STEP runs step s = BX+OFF with every lane busy.
#define STEP(OFF, XS, XP, YS, YP, PVA, XVA, PVB, XVB, SLOT, SLOT2) \
	NET(OFF, 0, XS, XP, Z11, Z12, Z7, E1A, E2A, SLOT, SLOT2) \
	NET(OFF-8, 64, YS, YP, Z27, Z28, Z23, E1B, E2B, SLOT, SLOT2) \
	HIN(OFF) \
	HALF_STEP(PVA, XVA, Z1, Z2, Z3, Z4, Z5, Z15, Z7, K2) \
	HALF_STEP(PVB, XVB, Z17, Z18, Z19, Z20, Z21, Z22, Z23, K2) \
	ROTATE \
	HOUT(OFF)

// hinWide[x] is boundary byte x's +1 as a carry word (bit 63),
// hinWide[3+x] its −1 (hinWords of myers512_amd64.s).
DATA hinWide<>+0(SB)/8, $0
DATA hinWide<>+8(SB)/8, $0x8000000000000000
DATA hinWide<>+16(SB)/8, $0
DATA hinWide<>+24(SB)/8, $0
DATA hinWide<>+32(SB)/8, $0
DATA hinWide<>+40(SB)/8, $0x8000000000000000
GLOBL hinWide<>(SB), RODATA|NOPTR, $48

// func advanceAVX512Wide(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)
TEXT ·advanceAVX512Wide(SB), $1088-96
	MOVQ t_len+32(FP), R13
	TESTQ R13, R13
	JZ empty
	MOVQ peq+16(FP), DX
	MOVQ t_base+24(FP), SI
	MOVQ hin_base+48(FP), DI
	MOVQ hout_base+72(FP), R10
	LEAQ hinWide<>(SB), R9
	LEAQ 63(SP), R12
	ANDQ $-64, R12

	MOVQ $0x01, R8
	KMOVW R8, K1
	MOVQ $0xFF, R8
	KMOVW R8, K2
	MOVQ $0xAA, R8
	KMOVW R8, K3
	MOVQ $0xCC, R8
	KMOVW R8, K4
	MOVQ $0xF0, R8
	KMOVW R8, K5

	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R8
	VMOVDQU64 (AX), Z0
	VMOVDQU64 64(AX), Z16
	VMOVDQU64 (R8), Z1
	VMOVDQU64 64(R8), Z17
	VPXORQ Z8, Z8, Z8
	VPXORQ Z24, Z24, Z24

	MOVQ $0, BX

ramp:
	LEAQ 15(R13), R8
	CMPQ BX, R8
	JGE done
	CMPQ BX, $15
	JNE rampstep
	LEAQ 3(BX), R8
	CMPQ R8, R13
	JL loop

rampstep:
	// The slots of this step and of two steps back.
	LEAQ 1(BX), R11
	ANDQ $3, R11
	SHLQ $6, R11
	LEAQ 3(BX), AX
	ANDQ $3, AX
	SHLQ $6, AX

	// A's row: column s where s < n, else none (no lane reads it).
	VMOVDQA64 Z8, Z9
	VPXORQ Z8, Z8, Z8
	CMPQ BX, R13
	JGE rowa
	MOVBQZX (SI)(BX*1), R8
	SHLQ $7, R8
	VMOVDQU64 (DX)(R8*1), Z8
rowa:
	VPBLENDMQ Z9, Z8, K3, Z11
	VMOVDQA64 Z11, E1A(R12)(R11*1)
	VPBLENDMQ E1A(R12)(AX*1), Z11, K4, Z12
	VPBLENDMQ E2A(R12)(R11*1), Z12, K5, Z7
	VMOVDQA64 Z12, E2A(R12)(R11*1)

	// B's row: column s−8 where 0 ≤ s−8 < n.
	VMOVDQA64 Z24, Z25
	VPXORQ Z24, Z24, Z24
	MOVQ BX, CX
	SUBQ $8, CX
	JLT rowb
	CMPQ CX, R13
	JGE rowb
	MOVBQZX (SI)(CX*1), R8
	SHLQ $7, R8
	VMOVDQU64 64(DX)(R8*1), Z24
rowb:
	VPBLENDMQ Z25, Z24, K3, Z27
	VMOVDQA64 Z27, E1B(R12)(R11*1)
	VPBLENDMQ E1B(R12)(AX*1), Z27, K4, Z28
	VPBLENDMQ E2B(R12)(R11*1), Z28, K5, Z23
	VMOVDQA64 Z28, E2B(R12)(R11*1)

	// The lanes with a column, s−n < k ≤ s: K6 A's, K7 B's.
	MOVQ $0xFFFF, R8
	CMPQ BX, $15
	JGE high
	LEAQ 1(BX), CX
	MOVQ $1, R8
	SHLQ CX, R8
	DECQ R8
high:
	MOVQ BX, CX
	SUBQ R13, CX
	INCQ CX
	JLE low
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	NOTQ AX
	ANDQ AX, R8
low:
	KMOVW R8, K6
	SHRQ $8, R8
	KMOVW R8, K7

	CMPQ BX, R13
	JGE nohin
	HIN(0)
nohin:
	HALF_STEP(Z0, Z10, Z1, Z2, Z3, Z4, Z5, Z15, Z7, K6)
	HALF_STEP(Z16, Z26, Z17, Z18, Z19, Z20, Z21, Z22, Z23, K7)
	VMOVDQA64 Z10, K6, Z0
	VMOVDQA64 Z26, K7, Z16
	ROTATE
	CMPQ BX, $15
	JLT nohout
	HOUT(0)
nohout:
	INCQ BX
	JMP ramp

	// Steps BX … BX+3, every lane busy, while BX+3 < n; BX ≡ 3 mod 4,
	// so that step BX+OFF's slot is OFF.
loop:
	STEP(0, Z9, Z8, Z25, Z24, Z0, Z10, Z16, Z26, 0, 2)
	STEP(1, Z8, Z9, Z24, Z25, Z10, Z0, Z26, Z16, 1, 3)
	STEP(2, Z9, Z8, Z25, Z24, Z0, Z10, Z16, Z26, 2, 0)
	STEP(3, Z8, Z9, Z24, Z25, Z10, Z0, Z26, Z16, 3, 1)
	ADDQ $4, BX
	LEAQ 3(BX), R8
	CMPQ R8, R13
	JL loop
	JMP ramp

done:
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), R8
	VMOVDQU64 Z0, (AX)
	VMOVDQU64 Z16, 64(AX)
	VMOVDQU64 Z1, (R8)
	VMOVDQU64 Z17, 64(R8)
	VZEROUPPER

empty:
	RET
