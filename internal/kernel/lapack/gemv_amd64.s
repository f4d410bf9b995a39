//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 inner loops of gemv.go: four columns at a time over whole
// 64-byte vectors (8 float64 or 4 complex128); the caller does the tail
// and the reductions of the column sums.

// func gemvN4F64AVX512(blocks int, y, c0, c1, c2, c3 *float64, a *[4]float64)
// y[i] += a0·c0[i] + a1·c1[i] + a2·c2[i] + a3·c3[i] for i < 8·blocks.
TEXT ·gemvN4F64AVX512(SB), NOSPLIT, $0-56
	MOVQ blocks+0(FP), CX
	MOVQ y+8(FP), DI
	MOVQ c0+16(FP), R8
	MOVQ c1+24(FP), R9
	MOVQ c2+32(FP), R10
	MOVQ c3+40(FP), R11
	MOVQ a+48(FP), AX
	VBROADCASTSD 0(AX), Z8
	VBROADCASTSD 8(AX), Z9
	VBROADCASTSD 16(AX), Z10
	VBROADCASTSD 24(AX), Z11
	XORQ DX, DX
	TESTQ CX, CX
	JLE  nf64_done

nf64_loop:
	VMOVUPD (DI)(DX*1), Z0
	VMULPD  (R10)(DX*1), Z10, Z1
	VFMADD231PD (R8)(DX*1), Z8, Z0
	VFMADD231PD (R11)(DX*1), Z11, Z1
	VFMADD231PD (R9)(DX*1), Z9, Z0
	VADDPD  Z1, Z0, Z0
	VMOVUPD Z0, (DI)(DX*1)
	ADDQ $64, DX
	DECQ CX
	JNZ  nf64_loop

nf64_done:
	VZEROUPPER
	RET

// func gemvC4F64AVX512(blocks int, x, c0, c1, c2, c3 *float64, acc *[32]float64)
// acc[8k:8k+8] = lane sums of ck[i]·x[i] over i < 8·blocks (the caller adds
// the eight lanes).
TEXT ·gemvC4F64AVX512(SB), NOSPLIT, $0-56
	MOVQ blocks+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ c0+16(FP), R8
	MOVQ c1+24(FP), R9
	MOVQ c2+32(FP), R10
	MOVQ c3+40(FP), R11
	MOVQ acc+48(FP), AX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	XORQ DX, DX
	TESTQ CX, CX
	JLE  cf64_done

cf64_loop:
	VMOVUPD (SI)(DX*1), Z4
	VFMADD231PD (R8)(DX*1), Z4, Z0
	VFMADD231PD (R9)(DX*1), Z4, Z1
	VFMADD231PD (R10)(DX*1), Z4, Z2
	VFMADD231PD (R11)(DX*1), Z4, Z3
	ADDQ $64, DX
	DECQ CX
	JNZ  cf64_loop

cf64_done:
	VMOVUPD Z0, 0(AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	VZEROUPPER
	RET

// func gemvN4C128AVX512(blocks int, y, c0, c1, c2, c3 *complex128, coef *[64]float64)
// y[i] += Σk ak·ck[i] for i < 4·blocks, with coef[16k:16k+8] = (re ak)
// in every lane and coef[16k+8:16k+16] = (-im ak, im ak, ...): ak·c is
// re(ak)·c + (-im ak, im ak)·swap(c), swap exchanging each pair.
TEXT ·gemvN4C128AVX512(SB), NOSPLIT, $0-56
	MOVQ blocks+0(FP), CX
	MOVQ y+8(FP), DI
	MOVQ c0+16(FP), R8
	MOVQ c1+24(FP), R9
	MOVQ c2+32(FP), R10
	MOVQ c3+40(FP), R11
	MOVQ coef+48(FP), AX
	VMOVUPD 0(AX), Z8
	VMOVUPD 64(AX), Z9
	VMOVUPD 128(AX), Z10
	VMOVUPD 192(AX), Z11
	VMOVUPD 256(AX), Z12
	VMOVUPD 320(AX), Z13
	VMOVUPD 384(AX), Z14
	VMOVUPD 448(AX), Z15
	XORQ DX, DX
	TESTQ CX, CX
	JLE  nc128_done

nc128_loop:
	VMOVUPD (DI)(DX*1), Z0
	VMOVUPD (R8)(DX*1), Z2
	VMOVUPD (R9)(DX*1), Z3
	VMOVUPD (R10)(DX*1), Z4
	VMOVUPD (R11)(DX*1), Z5
	VPERMILPD $0x55, Z2, Z16
	VPERMILPD $0x55, Z3, Z17
	VPERMILPD $0x55, Z4, Z18
	VPERMILPD $0x55, Z5, Z19
	VMULPD Z4, Z12, Z1
	VFMADD231PD Z2, Z8, Z0
	VFMADD231PD Z18, Z13, Z1
	VFMADD231PD Z16, Z9, Z0
	VFMADD231PD Z5, Z14, Z1
	VFMADD231PD Z3, Z10, Z0
	VFMADD231PD Z19, Z15, Z1
	VFMADD231PD Z17, Z11, Z0
	VADDPD Z1, Z0, Z0
	VMOVUPD Z0, (DI)(DX*1)
	ADDQ $64, DX
	DECQ CX
	JNZ  nc128_loop

nc128_done:
	VZEROUPPER
	RET

// func gemvC4C128AVX512(blocks int, x, c0, c1, c2, c3 *complex128, acc *[64]float64)
// For i < 4·blocks: acc[16k:16k+8] sums ck[i]⊙x[i] lane by lane
// (re c·re x, im c·im x) and acc[16k+8:16k+16] sums ck[i]⊙swap(x[i])
// (re c·im x, im c·re x); conj(ck)·x is (Σ first lanes, Σ even - Σ odd of
// the second), which the caller forms.
TEXT ·gemvC4C128AVX512(SB), NOSPLIT, $0-56
	MOVQ blocks+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ c0+16(FP), R8
	MOVQ c1+24(FP), R9
	MOVQ c2+32(FP), R10
	MOVQ c3+40(FP), R11
	MOVQ acc+48(FP), AX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	XORQ DX, DX
	TESTQ CX, CX
	JLE  cc128_done

cc128_loop:
	VMOVUPD (SI)(DX*1), Z8
	VPERMILPD $0x55, Z8, Z9
	VMOVUPD (R8)(DX*1), Z10
	VMOVUPD (R9)(DX*1), Z11
	VMOVUPD (R10)(DX*1), Z12
	VMOVUPD (R11)(DX*1), Z13
	VFMADD231PD Z10, Z8, Z0
	VFMADD231PD Z10, Z9, Z1
	VFMADD231PD Z11, Z8, Z2
	VFMADD231PD Z11, Z9, Z3
	VFMADD231PD Z12, Z8, Z4
	VFMADD231PD Z12, Z9, Z5
	VFMADD231PD Z13, Z8, Z6
	VFMADD231PD Z13, Z9, Z7
	ADDQ $64, DX
	DECQ CX
	JNZ  cc128_loop

cc128_done:
	VMOVUPD Z0, 0(AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	VMOVUPD Z4, 256(AX)
	VMOVUPD Z5, 320(AX)
	VMOVUPD Z6, 384(AX)
	VMOVUPD Z7, 448(AX)
	VZEROUPPER
	RET
