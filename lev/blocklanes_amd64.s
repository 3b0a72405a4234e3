//go:build amd64 && !purego

#include "textflag.h"

// STEP2_HEAD loads word SI/32's eq (the four lanes' match words at R9),
// pv and mv, and computes xv (Y3), xh (Y4), ph (Y5) and mh (Y6).
#define STEP2_HEAD \
	VMOVQ       (R8)(R9*8), X0; \
	VPINSRQ     $1, (R10)(R9*8), X0, X0; \
	VMOVQ       (R11)(R9*8), X1; \
	VPINSRQ     $1, (R12)(R9*8), X1, X1; \
	VINSERTI128 $1, X1, Y0, Y0; \
	VMOVDQU     (AX)(SI*1), Y1; \
	VMOVDQU     (BX)(SI*1), Y2; \
	VPOR        Y0, Y2, Y3; \
	VPOR        Y13, Y0, Y0; \
	VPAND       Y1, Y0, Y4; \
	VPADDQ      Y1, Y4, Y4; \
	VPXOR       Y1, Y4, Y4; \
	VPOR        Y0, Y4, Y4; \
	VPOR        Y1, Y4, Y5; \
	VPXOR       Y15, Y5, Y5; \
	VPOR        Y2, Y5, Y5; \
	VPAND       Y1, Y4, Y6

// STEP2_TAIL shifts ph and mh a row down, the carries in at the top, and
// stores the word's new pv and mv.
#define STEP2_TAIL \
	VPSLLQ      $1, Y5, Y5; \
	VPOR        Y14, Y5, Y5; \
	VPSLLQ      $1, Y6, Y6; \
	VPOR        Y13, Y6, Y6; \
	VPOR        Y5, Y3, Y9; \
	VPXOR       Y15, Y9, Y9; \
	VPOR        Y6, Y9, Y9; \
	VPAND       Y3, Y5, Y10; \
	VMOVDQU     Y9, (AX)(SI*1); \
	VMOVDQU     Y10, (BX)(SI*1)

// LOADEQ8 gathers word w's eq for the eight lanes into Z0: lane l's match
// word at R8 (peq + 8w) plus off[l] (R10) words.
#define LOADEQ8 \
	MOVQ        0(R10), R11; \
	VMOVQ       (R8)(R11*8), X0; \
	MOVQ        8(R10), R11; \
	VPINSRQ     $1, (R8)(R11*8), X0, X0; \
	MOVQ        16(R10), R11; \
	VMOVQ       (R8)(R11*8), X1; \
	MOVQ        24(R10), R11; \
	VPINSRQ     $1, (R8)(R11*8), X1, X1; \
	MOVQ        32(R10), R11; \
	VMOVQ       (R8)(R11*8), X2; \
	MOVQ        40(R10), R11; \
	VPINSRQ     $1, (R8)(R11*8), X2, X2; \
	MOVQ        48(R10), R11; \
	VMOVQ       (R8)(R11*8), X3; \
	MOVQ        56(R10), R11; \
	VPINSRQ     $1, (R8)(R11*8), X3, X3; \
	VINSERTI128 $1, X1, Y0, Y0; \
	VINSERTI128 $1, X3, Y2, Y2; \
	VINSERTI64X4 $1, Y2, Z0, Z0

// STEP8_HEAD loads word SI/64's pv and mv and computes xv (Z3) and
// (eq & pv) + pv (Z4), with eq |= hm in Z0.
#define STEP8_HEAD \
	VMOVDQU64  (AX)(SI*1), Z1; \
	VMOVDQU64  (BX)(SI*1), Z2; \
	VPORQ      Z0, Z2, Z3; \
	VPORQ      Z13, Z0, Z0; \
	VPANDQ     Z1, Z0, Z4; \
	VPADDQ     Z1, Z4, Z4

// STEP8_SHIFT shifts ph (Z5) and mh (Z6) a row down, the carries in.
#define STEP8_SHIFT \
	VPSLLQ     $1, Z5, Z5; \
	VPORQ      Z14, Z5, Z5; \
	VPSLLQ     $1, Z6, Z6; \
	VPORQ      Z13, Z6, Z6

// WORD8 runs word SI/64 of a column of the eight lanes, R8 its match
// words (left at the next word's), the carries in Z14/Z13 replaced by
// those it passes down.
#define WORD8 \
	LOADEQ8; \
	ADDQ       $8, R8; \
	STEP8_HEAD; \
	VPTERNLOGQ $0xbe, Z0, Z1, Z4; \
	VMOVDQA64  Z4, Z5; \
	VPTERNLOGQ $0xab, Z2, Z1, Z5; \
	VPANDQ     Z1, Z4, Z6; \
	VPSRLQ     $63, Z5, Z7; \
	VPSRLQ     $63, Z6, Z8; \
	STEP8_SHIFT; \
	VMOVDQA64  Z3, Z9; \
	VPTERNLOGQ $0xab, Z6, Z5, Z9; \
	VPANDQ     Z3, Z5, Z3; \
	VMOVDQU64  Z9, (AX)(SI*1); \
	VMOVDQU64  Z3, (BX)(SI*1); \
	VMOVDQA64  Z7, Z14; \
	VMOVDQA64  Z8, Z13; \
	ADDQ       $64, SI

// LAST8 runs the column's last word, leaving the horizontal deltas of its
// row lb (DX) in Z7: (ph>>lb)&1 − (mh>>lb)&1.
#define LAST8 \
	LOADEQ8; \
	STEP8_HEAD; \
	VPTERNLOGQ $0xbe, Z0, Z1, Z4; \
	VMOVDQA64  Z4, Z5; \
	VPTERNLOGQ $0xab, Z2, Z1, Z5; \
	VPANDQ     Z1, Z4, Z6; \
	VMOVQ      DX, X9; \
	VPSRLQ     X9, Z5, Z7; \
	VPSRLQ     X9, Z6, Z8; \
	VPANDQ     Z12, Z7, Z7; \
	VPANDQ     Z12, Z8, Z8; \
	VPSUBQ     Z8, Z7, Z7; \
	STEP8_SHIFT; \
	VMOVDQA64  Z3, Z9; \
	VPTERNLOGQ $0xab, Z6, Z5, Z9; \
	VPANDQ     Z3, Z5, Z3; \
	VMOVDQU64  Z9, (AX)(SI*1); \
	VMOVDQU64  Z3, (BX)(SI*1)

// OFF8 sets off[l] (at R10) to lane l's code (byte l at DI) times the
// words (R12): the offset, in words, of its match words in peq.
#define OFF8(L) \
	MOVBQZX    L(DI), R11; \
	IMULQ      R12, R11; \
	MOVQ       R11, (8*L)(R10)

// func lanesColumnAVX2(pv, mv *uint64, e0, e1, e2, e3 *uint64, words int, lb uint64, d *[4]int64)
//
// One column of blockLanes: the four lanes' words, lane l in quadword l of
// a YMM register, from word 0 (a +1 entering at the top) to the last,
// whose row lb's horizontal deltas go to d. The same steps as stepLast and
// bitpar.Step; pv and mv hold word w's four lanes at 32w.
//
// Registers: Y15 all ones, Y12 ones in bit 0, Y14/Y13 the carries hp/hm;
// Y0 eq, Y1 pv, Y2 mv, Y3 xv, Y4 xh, Y5 ph, Y6 mh.
TEXT ·lanesColumnAVX2(SB), NOSPLIT, $0-72
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), BX
	MOVQ e0+16(FP), R8
	MOVQ e1+24(FP), R10
	MOVQ e2+32(FP), R11
	MOVQ e3+40(FP), R12
	MOVQ words+48(FP), CX
	MOVQ lb+56(FP), DX
	MOVQ d+64(FP), DI
	VPCMPEQQ Y15, Y15, Y15
	VPSRLQ   $63, Y15, Y12
	VMOVDQA  Y12, Y14
	VPXOR    Y13, Y13, Y13
	XORQ     R9, R9
	XORQ     SI, SI
	DECQ     CX
	JZ       last

loop:
	STEP2_HEAD
	VPSRLQ      $63, Y5, Y7
	VPSRLQ      $63, Y6, Y8
	STEP2_TAIL
	VMOVDQA     Y7, Y14
	VMOVDQA     Y8, Y13
	INCQ        R9
	ADDQ        $32, SI
	CMPQ        R9, CX
	JLT         loop

last:
	STEP2_HEAD
	// The last row's deltas: (ph>>lb)&1 − (mh>>lb)&1.
	VMOVQ       DX, X11
	VPSRLQ      X11, Y5, Y7
	VPSRLQ      X11, Y6, Y8
	VPAND       Y12, Y7, Y7
	VPAND       Y12, Y8, Y8
	VPSUBQ      Y8, Y7, Y7
	VMOVDQU     Y7, (DI)
	STEP2_TAIL
	VZEROUPPER
	RET

// func lanesColumnAVX512(pv, mv *uint64, peq *uint64, off *[8]int64, words int, lb uint64, d *[8]int64)
//
// lanesColumnAVX2 with eight lanes, lane l in quadword l of a ZMM
// register, its match words loaded from peq at off[l] + w (eight loads and
// inserts: on Zen 4 a VPGATHERQQ of eight took longer); VPTERNLOGQ
// folds the step's three-input operations, so that the carry from word to
// word goes through fewer instructions.
//
// Registers: Z12 ones in bit 0, Z14/Z13 hp/hm; Z0 eq, Z1 pv, Z2 mv,
// Z3 xv, Z4 xh, Z5 ph, Z6 mh; R8 the match words of word w (peq + 8w),
// R10 off.
TEXT ·lanesColumnAVX512(SB), NOSPLIT, $0-56
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), BX
	MOVQ peq+16(FP), R8
	MOVQ off+24(FP), R10
	MOVQ words+32(FP), CX
	MOVQ lb+40(FP), DX
	MOVQ d+48(FP), DI
	VPTERNLOGQ $0xff, Z15, Z15, Z15
	VPSRLQ     $63, Z15, Z12
	VMOVDQA64  Z12, Z14
	VPXORQ     Z13, Z13, Z13
	XORQ       SI, SI
	DECQ       CX
	JZ         last512

loop512:
	WORD8
	DECQ       CX
	JNZ        loop512

last512:
	LAST8
	VMOVDQU64  Z7, (DI)
	VZEROUPPER
	RET

// func lanesRunAVX512(pv, mv *uint64, peq *uint64, cols *uint8, n, words, m int, lb uint64, lens, out *[8]int64)
//
// lanesColumnAVX512 over every column 1 … n of eight texts of bytes, the
// column loop here rather than a call a column: cols holds the texts
// column-major, eight bytes a column (lane l's symbol at 8(j−1)+l, 0 past
// its end). Each lane's score starts at m and takes its last row's delta
// every column; out[l] takes lane l's score at column lens[l] (lanes of
// no column keep what out holds).
//
// Registers: as lanesColumnAVX512, and Z16 the scores, Z17 the outs, Z19
// the lens, Z18 the column broadcast; R9 the column j, DI its codes, R10
// the offsets on the stack, R12 words, R13 peq.
TEXT ·lanesRunAVX512(SB), NOSPLIT, $64-80
	MOVQ pv+0(FP), AX
	MOVQ mv+8(FP), BX
	MOVQ peq+16(FP), R13
	MOVQ cols+24(FP), DI
	MOVQ words+40(FP), R12
	MOVQ m+48(FP), R11
	VPBROADCASTQ R11, Z16
	MOVQ lb+56(FP), DX
	MOVQ lens+64(FP), R11
	VMOVDQU64 (R11), Z19
	MOVQ out+72(FP), R11
	VMOVDQU64 (R11), Z17
	VPTERNLOGQ $0xff, Z15, Z15, Z15
	VPSRLQ     $63, Z15, Z12
	LEAQ       0(SP), R10
	MOVQ       $1, R9

column:
	CMPQ       R9, n+32(FP)
	JGT        done
	OFF8(0)
	OFF8(1)
	OFF8(2)
	OFF8(3)
	OFF8(4)
	OFF8(5)
	OFF8(6)
	OFF8(7)
	MOVQ       R13, R8
	XORQ       SI, SI
	VMOVDQA64  Z12, Z14
	VPXORQ     Z13, Z13, Z13
	MOVQ       R12, CX
	DECQ       CX
	JZ         lastword

word:
	WORD8
	DECQ       CX
	JNZ        word

lastword:
	LAST8
	VPADDQ     Z7, Z16, Z16
	VPBROADCASTQ R9, Z18
	VPCMPEQQ   Z18, Z19, K1
	VMOVDQA64  Z16, K1, Z17
	ADDQ       $8, DI
	INCQ       R9
	JMP        column

done:
	MOVQ       out+72(FP), R11
	VMOVDQU64  Z17, (R11)
	VZEROUPPER
	RET
