//go:build amd64 && !purego

#include "textflag.h"

// One init_by_array step for the four vectors of eight generators:
// p = (m ^ ((p ^ (p >> 30)) * Y4)) op Yk, with m already in Y9 (first
// pass) or loaded from the scratch row (second pass).
#define MIX(p, t) \
	VPSRLD $30, p, t \
	VPXOR  p, t, t   \
	VPMULLD Y4, t, t

// func seedLanes32(scratch *[624][32]uint32, base *[624]uint32, keys *[32]uint32)
TEXT ·seedLanes32(SB), NOSPLIT, $0-24
	MOVQ scratch+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ keys+16(FP), DX

	VMOVDQU 0(DX), Y5
	VMOVDQU 32(DX), Y6
	VMOVDQU 64(DX), Y7
	VMOVDQU 96(DX), Y8

	// First pass multiplier.
	MOVL $1664525, AX
	MOVD AX, X4
	VPBROADCASTD X4, Y4

	// p = base[0] in every lane.
	VPBROADCASTD (SI), Y0
	VMOVDQA Y0, Y1
	VMOVDQA Y0, Y2
	VMOVDQA Y0, Y3

	// First pass, i = 1..623: p = (base[i] ^ mix(p)) + key; scratch[i] = p.
	MOVQ $1, CX
	LEAQ 128(DI), R8
	LEAQ 4(SI), R9

first:
	VPBROADCASTD (R9), Y9
	MIX(Y0, Y10)
	MIX(Y1, Y11)
	MIX(Y2, Y12)
	MIX(Y3, Y13)
	VPXOR  Y9, Y10, Y10
	VPXOR  Y9, Y11, Y11
	VPXOR  Y9, Y12, Y12
	VPXOR  Y9, Y13, Y13
	VPADDD Y5, Y10, Y0
	VPADDD Y6, Y11, Y1
	VPADDD Y7, Y12, Y2
	VPADDD Y8, Y13, Y3
	VMOVDQU Y0, 0(R8)
	VMOVDQU Y1, 32(R8)
	VMOVDQU Y2, 64(R8)
	VMOVDQU Y3, 96(R8)
	ADDQ $128, R8
	ADDQ $4, R9
	INCQ CX
	CMPQ CX, $624
	JLT  first

	// Wrap: scratch[0] = p; then once more at i = 1.
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	MIX(Y0, Y10)
	MIX(Y1, Y11)
	MIX(Y2, Y12)
	MIX(Y3, Y13)
	VPXOR  128(DI), Y10, Y10
	VPXOR  160(DI), Y11, Y11
	VPXOR  192(DI), Y12, Y12
	VPXOR  224(DI), Y13, Y13
	VPADDD Y5, Y10, Y0
	VPADDD Y6, Y11, Y1
	VPADDD Y7, Y12, Y2
	VPADDD Y8, Y13, Y3
	VMOVDQU Y0, 128(DI)
	VMOVDQU Y1, 160(DI)
	VMOVDQU Y2, 192(DI)
	VMOVDQU Y3, 224(DI)

	// Second pass multiplier; Y5 = i in every lane, Y6 = 1.
	MOVL $1566083941, AX
	MOVD AX, X4
	VPBROADCASTD X4, Y4
	MOVL $2, AX
	MOVD AX, X5
	VPBROADCASTD X5, Y5
	MOVL $1, AX
	MOVD AX, X6
	VPBROADCASTD X6, Y6

	// Second pass, i = 2..623: p = (scratch[i] ^ mix(p)) - i; scratch[i] = p.
	MOVQ $2, CX
	LEAQ 256(DI), R8

second:
	MIX(Y0, Y10)
	MIX(Y1, Y11)
	MIX(Y2, Y12)
	MIX(Y3, Y13)
	VPXOR  0(R8), Y10, Y10
	VPXOR  32(R8), Y11, Y11
	VPXOR  64(R8), Y12, Y12
	VPXOR  96(R8), Y13, Y13
	VPSUBD Y5, Y10, Y0
	VPSUBD Y5, Y11, Y1
	VPSUBD Y5, Y12, Y2
	VPSUBD Y5, Y13, Y3
	VMOVDQU Y0, 0(R8)
	VMOVDQU Y1, 32(R8)
	VMOVDQU Y2, 64(R8)
	VMOVDQU Y3, 96(R8)
	VPADDD Y6, Y5, Y5
	ADDQ $128, R8
	INCQ CX
	CMPQ CX, $624
	JLT  second

	// Wrap: once more at i = 1 (scratch[0] is set by the caller).
	MIX(Y0, Y10)
	MIX(Y1, Y11)
	MIX(Y2, Y12)
	MIX(Y3, Y13)
	VPXOR  128(DI), Y10, Y10
	VPXOR  160(DI), Y11, Y11
	VPXOR  192(DI), Y12, Y12
	VPXOR  224(DI), Y13, Y13
	VPSUBD Y6, Y10, Y0
	VPSUBD Y6, Y11, Y1
	VPSUBD Y6, Y12, Y2
	VPSUBD Y6, Y13, Y3
	VMOVDQU Y0, 128(DI)
	VMOVDQU Y1, 160(DI)
	VMOVDQU Y2, 192(DI)
	VMOVDQU Y3, 224(DI)
	VZEROUPPER
	RET

// func transpose32(scratch *[624][32]uint32, dst *[32]*[624]uint32)
// copies column c of scratch into *dst[c], eight rows by eight lanes at a
// time (an 8x8 transpose of 32-bit words in registers).
TEXT ·transpose32(SB), NOSPLIT, $0-16
	MOVQ scratch+0(FP), SI
	MOVQ dst+8(FP), DX
	XORQ R8, R8

group:
	// DI: row 0, lanes 8*group.., R9: dst[8*group], CX: byte offset of the block in each state.
	MOVQ R8, AX
	SHLQ $5, AX
	LEAQ (SI)(AX*1), DI
	MOVQ R8, R9
	SHLQ $6, R9
	ADDQ DX, R9
	XORQ CX, CX

block:
	VMOVDQU 0(DI), Y0
	VMOVDQU 128(DI), Y1
	VMOVDQU 256(DI), Y2
	VMOVDQU 384(DI), Y3
	VMOVDQU 512(DI), Y4
	VMOVDQU 640(DI), Y5
	VMOVDQU 768(DI), Y6
	VMOVDQU 896(DI), Y7
	VPUNPCKLDQ Y1, Y0, Y8
	VPUNPCKHDQ Y1, Y0, Y9
	VPUNPCKLDQ Y3, Y2, Y10
	VPUNPCKHDQ Y3, Y2, Y11
	VPUNPCKLDQ Y5, Y4, Y12
	VPUNPCKHDQ Y5, Y4, Y13
	VPUNPCKLDQ Y7, Y6, Y14
	VPUNPCKHDQ Y7, Y6, Y15
	VPUNPCKLQDQ Y10, Y8, Y0
	VPUNPCKHQDQ Y10, Y8, Y1
	VPUNPCKLQDQ Y11, Y9, Y2
	VPUNPCKHQDQ Y11, Y9, Y3
	VPUNPCKLQDQ Y14, Y12, Y4
	VPUNPCKHQDQ Y14, Y12, Y5
	VPUNPCKLQDQ Y15, Y13, Y6
	VPUNPCKHQDQ Y15, Y13, Y7
	VPERM2I128 $0x20, Y4, Y0, Y8
	VPERM2I128 $0x20, Y5, Y1, Y9
	VPERM2I128 $0x20, Y6, Y2, Y10
	VPERM2I128 $0x20, Y7, Y3, Y11
	VPERM2I128 $0x31, Y4, Y0, Y12
	VPERM2I128 $0x31, Y5, Y1, Y13
	VPERM2I128 $0x31, Y6, Y2, Y14
	VPERM2I128 $0x31, Y7, Y3, Y15
	MOVQ 0(R9), AX
	VMOVDQU Y8, (AX)(CX*1)
	MOVQ 8(R9), AX
	VMOVDQU Y9, (AX)(CX*1)
	MOVQ 16(R9), AX
	VMOVDQU Y10, (AX)(CX*1)
	MOVQ 24(R9), AX
	VMOVDQU Y11, (AX)(CX*1)
	MOVQ 32(R9), AX
	VMOVDQU Y12, (AX)(CX*1)
	MOVQ 40(R9), AX
	VMOVDQU Y13, (AX)(CX*1)
	MOVQ 48(R9), AX
	VMOVDQU Y14, (AX)(CX*1)
	MOVQ 56(R9), AX
	VMOVDQU Y15, (AX)(CX*1)
	ADDQ $1024, DI
	ADDQ $32, CX
	CMPQ CX, $2496
	JLT  block

	INCQ R8
	CMPQ R8, $4
	JLT  group
	VZEROUPPER
	RET
