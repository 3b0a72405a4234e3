//go:build amd64 && !purego

#include "textflag.h"

// nextKeyAVX512 looks at eight key starts a step: the 16 bytes from q,
// copied into the four 128-bit lanes of a ZMM register, are shuffled into
// the eight 8-byte words starting at q … q+7 (lane L holds those at q+2L
// and q+2L+1), masked to the key length and compared with every key.
//
// Registers: SI t, CX len(t)−16 (the last start a step may load from), BX
// q, Z19 the shuffle, Z20 the mask, Z21–Z28 the keys, Z0 the words, K1
// their matches, K2 scratch.

// keyShuffle: for lane L, the bytes 2L … 2L+7 and 2L+1 … 2L+8 of the 16.
DATA keyShuffle<>+0(SB)/8, $0x0706050403020100
DATA keyShuffle<>+8(SB)/8, $0x0807060504030201
DATA keyShuffle<>+16(SB)/8, $0x0908070605040302
DATA keyShuffle<>+24(SB)/8, $0x0a09080706050403
DATA keyShuffle<>+32(SB)/8, $0x0b0a090807060504
DATA keyShuffle<>+40(SB)/8, $0x0c0b0a0908070605
DATA keyShuffle<>+48(SB)/8, $0x0d0c0b0a09080706
DATA keyShuffle<>+56(SB)/8, $0x0e0d0c0b0a090807
GLOBL keyShuffle<>(SB), RODATA|NOPTR, $64

// WORDS sets Z0 to the masked words at BX+OFF … BX+OFF+7.
#define WORDS(OFF) \
	VBROADCASTI32X4 OFF(SI)(BX*1), Z0 \
	VPSHUFB Z19, Z0, Z0 \
	VPANDQ Z20, Z0, Z0

// MATCH adds to K1 the words of Z0 equal to KEY.
#define MATCH(KEY) \
	VPCMPEQQ KEY, Z0, K2 \
	KORW K2, K1, K1

// func nextKeyAVX512(t []byte, keys *[maxExactKeys]uint64, nkeys int, mask uint64, q int) (next int, found bool)
TEXT ·nextKeyAVX512(SB), NOSPLIT, $0-65
	MOVQ t_base+0(FP), SI
	MOVQ t_len+8(FP), CX
	MOVQ keys+24(FP), DX
	MOVQ nkeys+32(FP), R8
	MOVQ q+48(FP), BX
	VMOVDQU64 keyShuffle<>(SB), Z19
	VPBROADCASTQ mask+40(FP), Z20
	VPBROADCASTQ 0(DX), Z21
	VPBROADCASTQ 8(DX), Z22
	VPBROADCASTQ 16(DX), Z23
	VPBROADCASTQ 24(DX), Z24
	VPBROADCASTQ 32(DX), Z25
	VPBROADCASTQ 40(DX), Z26
	VPBROADCASTQ 48(DX), Z27
	VPBROADCASTQ 56(DX), Z28
	SUBQ $16, CX
	CMPQ R8, $4
	JG loop8

loop4:
	CMPQ BX, CX
	JG none
	WORDS(0)
	VPCMPEQQ Z21, Z0, K1
	MATCH(Z22)
	MATCH(Z23)
	MATCH(Z24)
	KORTESTW K1, K1
	JNZ found
	ADDQ $8, BX
	JMP loop4

loop8:
	CMPQ BX, CX
	JG none
	WORDS(0)
	VPCMPEQQ Z21, Z0, K1
	MATCH(Z22)
	MATCH(Z23)
	MATCH(Z24)
	MATCH(Z25)
	MATCH(Z26)
	MATCH(Z27)
	MATCH(Z28)
	KORTESTW K1, K1
	JNZ found
	ADDQ $8, BX
	JMP loop8

found:
	KMOVW K1, AX
	BSFL AX, AX
	ADDQ AX, BX
	MOVQ BX, next+56(FP)
	MOVB $1, found+64(FP)
	VZEROUPPER
	RET

none:
	MOVQ BX, next+56(FP)
	MOVB $0, found+64(FP)
	VZEROUPPER
	RET
