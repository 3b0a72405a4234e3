//go:build amd64 && !purego

#include "textflag.h"

// The lane kernels: laneAdvanceGo (lanes.go) with each group's lanes in
// one ZMM register, sixteen 32-bit or eight 64-bit, the same operations in
// the same order (laneStep), the bundle's groups stepped one after the
// other on each symbol, so that their dependency chains, each some 6
// instructions long a step, run side by side.
//
// Registers: group g's pv, mv and below in Z(3g), Z(3g+1), Z(3g+2); in a
// step, pv's register takes mh and then the new pv, mv's takes ph and then
// the new mv. Z12 eq, Z13 xv, Z14 v, Z15 eq|pv, Z16 and Z17 the bottom
// rows' deltas: scratch that each group's step reuses. K1–K4 the lanes of
// groups 0–3 whose below is negative after the step. DX the tables (group
// g's 16 KiB after g's), SI t, BX the next symbol, CX len(t), R8 the
// symbol's row offset, R11 the hits.
//
// VPTERNLOG $f, C, B, A sets A to f(A, B, C): 0xF1 = A|^(B|C),
// 0xE0 = A&(B|C).

// STEP runs group g's step: TAB its table's offset, PV, MV, BL its
// registers, KR its hits. The other arguments name the instructions of
// the lane width.
#define STEP(TAB, PV, MV, BL, KR, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	MOVU TAB(DX)(R8*1), Z12 \
	OR Z12, MV, Z13 \
	AND Z12, PV, Z14 \
	OR Z12, PV, Z15 \
	ADD PV, Z14, Z14 \
	XOR PV, Z14, Z14 \
	TERN $0xF1, Z15, Z14, MV \
	TERN $0xE0, Z12, Z14, PV \
	SRL $TOP, MV, Z16 \
	SRA $TOP, PV, Z17 \
	ADD Z16, BL, BL \
	ADD Z17, BL, BL \
	ADD MV, MV, MV \
	ADD PV, PV, PV \
	TERN $0xF1, MV, Z13, PV \
	AND Z13, MV, MV \
	TOMASK BL, KR

// NEXT starts a step: it ends the loop at t's end and loads the symbol's
// row offset.
#define NEXT(DONE) \
	CMPQ BX, CX \
	JGE DONE \
	MOVBQZX (SI)(BX*1), R8 \
	SHLQ $6, R8 \
	INCQ BX

// HIT leaves the loop to LEFT where a lane of a group hit.
#define HIT(LOOP) \
	KORW K1, K2, K5 \
	KORW K3, K4, K6 \
	KORTESTW K5, K6 \
	JEQ LOOP

// ADVANCE is the whole kernel for one lane width: a loop for each number
// of groups.
#define ADVANCE(MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	MOVQ tab+0(FP), DX \
	MOVQ st+8(FP), AX \
	MOVQ groups+16(FP), R9 \
	MOVQ t_base+24(FP), SI \
	MOVQ t_len+32(FP), CX \
	MOVU (AX), Z0 \
	MOVU 64(AX), Z1 \
	MOVU 128(AX), Z2 \
	MOVU 192(AX), Z3 \
	MOVU 256(AX), Z4 \
	MOVU 320(AX), Z5 \
	MOVU 384(AX), Z6 \
	MOVU 448(AX), Z7 \
	MOVU 512(AX), Z8 \
	MOVU 576(AX), Z9 \
	MOVU 640(AX), Z10 \
	MOVU 704(AX), Z11 \
	XORQ BX, BX \
	XORQ R11, R11 \
	KXORW K1, K1, K1 \
	KXORW K2, K2, K2 \
	KXORW K3, K3, K3 \
	KXORW K4, K4, K4 \
	CMPQ R9, $2 \
	JLT loop1 \
	JEQ loop2 \
	CMPQ R9, $3 \
	JEQ loop3 \
loop4: \
	NEXT(done) \
	STEP(0, Z0, Z1, Z2, K1, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	STEP(16384, Z3, Z4, Z5, K2, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	STEP(32768, Z6, Z7, Z8, K3, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	STEP(49152, Z9, Z10, Z11, K4, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	HIT(loop4) \
	JMP hit \
loop3: \
	NEXT(done) \
	STEP(0, Z0, Z1, Z2, K1, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	STEP(16384, Z3, Z4, Z5, K2, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	STEP(32768, Z6, Z7, Z8, K3, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	HIT(loop3) \
	JMP hit \
loop2: \
	NEXT(done) \
	STEP(0, Z0, Z1, Z2, K1, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	STEP(16384, Z3, Z4, Z5, K2, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	HIT(loop2) \
	JMP hit \
loop1: \
	NEXT(done) \
	STEP(0, Z0, Z1, Z2, K1, MOVU, OR, AND, XOR, ADD, TERN, SRL, SRA, TOP, TOMASK) \
	HIT(loop1) \
hit: \
	KMOVW K4, R11 \
	SHLQ $16, R11 \
	KMOVW K3, R10 \
	ORQ R10, R11 \
	SHLQ $16, R11 \
	KMOVW K2, R10 \
	ORQ R10, R11 \
	SHLQ $16, R11 \
	KMOVW K1, R10 \
	ORQ R10, R11 \
done: \
	MOVU Z0, (AX) \
	MOVU Z1, 64(AX) \
	MOVU Z2, 128(AX) \
	MOVU Z3, 192(AX) \
	MOVU Z4, 256(AX) \
	MOVU Z5, 320(AX) \
	MOVU Z6, 384(AX) \
	MOVU Z7, 448(AX) \
	MOVU Z8, 512(AX) \
	MOVU Z9, 576(AX) \
	MOVU Z10, 640(AX) \
	MOVU Z11, 704(AX) \
	MOVQ BX, n+48(FP) \
	MOVQ R11, hits+56(FP) \
	VZEROUPPER \
	RET

// func lanes32AVX512(tab, st *uint32, groups int, t []byte) (n int, hits uint64)
TEXT ·lanes32AVX512(SB), NOSPLIT, $0-64
	ADVANCE(VMOVDQU32, VPORD, VPANDD, VPXORD, VPADDD, VPTERNLOGD, VPSRLD, VPSRAD, 31, VPMOVD2M)

// func lanes64AVX512(tab, st *uint64, groups int, t []byte) (n int, hits uint64)
TEXT ·lanes64AVX512(SB), NOSPLIT, $0-64
	ADVANCE(VMOVDQU64, VPORQ, VPANDQ, VPXORQ, VPADDQ, VPTERNLOGQ, VPSRLQ, VPSRAQ, 63, VPMOVQ2M)
