//go:build amd64 && !purego

#include "textflag.h"

// func strip8x8(dst *uint64, d1 int, src *uint64, s0 int, n int)
TEXT ·strip8x8(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ d1+8(FP), R11
	MOVQ src+16(FP), SI
	MOVQ s0+24(FP), R8
	MOVQ n+32(FP), CX
	SHLQ $3, R11            // d1 in bytes
	SHLQ $3, R8             // s0 in bytes
	LEAQ (R8)(R8*2), R9     // 3*s0
	LEAQ (SI)(R8*4), R10    // row 4
	LEAQ (R11)(R11*2), R12  // 3*d1
	LEAQ (R11*4), R13       // 4*d1
	SHRQ $2, CX             // blocks of 4 columns

loop:
	// Rows 0..3, columns j..j+3.
	VMOVUPD (SI), Y0
	VMOVUPD (SI)(R8*1), Y1
	VMOVUPD (SI)(R8*2), Y2
	VMOVUPD (SI)(R9*1), Y3
	// Rows 4..7.
	VMOVUPD (R10), Y4
	VMOVUPD (R10)(R8*1), Y5
	VMOVUPD (R10)(R8*2), Y6
	VMOVUPD (R10)(R9*1), Y7

	// 4x4 transpose of Y0..Y3 into Y12..Y15 (columns, rows 0..3).
	VUNPCKLPD Y1, Y0, Y8    // a0 b0 a2 b2
	VUNPCKHPD Y1, Y0, Y9    // a1 b1 a3 b3
	VUNPCKLPD Y3, Y2, Y10   // c0 d0 c2 d2
	VUNPCKHPD Y3, Y2, Y11   // c1 d1 c3 d3
	VPERM2F128 $0x20, Y10, Y8, Y12 // a0 b0 c0 d0
	VPERM2F128 $0x20, Y11, Y9, Y13 // a1 b1 c1 d1
	VPERM2F128 $0x31, Y10, Y8, Y14 // a2 b2 c2 d2
	VPERM2F128 $0x31, Y11, Y9, Y15 // a3 b3 c3 d3

	// 4x4 transpose of Y4..Y7 into Y0..Y3 (columns, rows 4..7).
	VUNPCKLPD Y5, Y4, Y8
	VUNPCKHPD Y5, Y4, Y9
	VUNPCKLPD Y7, Y6, Y10
	VUNPCKHPD Y7, Y6, Y11
	VPERM2F128 $0x20, Y10, Y8, Y0
	VPERM2F128 $0x20, Y11, Y9, Y1
	VPERM2F128 $0x31, Y10, Y8, Y2
	VPERM2F128 $0x31, Y11, Y9, Y3

	// Column j+c gets rows 0..3 then 4..7.
	VMOVUPD Y12, (DI)
	VMOVUPD Y0, 32(DI)
	VMOVUPD Y13, (DI)(R11*1)
	VMOVUPD Y1, 32(DI)(R11*1)
	VMOVUPD Y14, (DI)(R11*2)
	VMOVUPD Y2, 32(DI)(R11*2)
	VMOVUPD Y15, (DI)(R12*1)
	VMOVUPD Y3, 32(DI)(R12*1)

	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ R13, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER
	RET

// func rows8x8(dst *uint64, dB *int, src *uint64, sA *int, n int)
TEXT ·rows8x8(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ dB+8(FP), R9
	MOVQ src+16(FP), SI
	MOVQ sA+24(FP), R8
	MOVQ n+32(FP), CX
	XORQ BX, BX             // column offset in bytes
	SHRQ $2, CX             // blocks of 4 columns

rloop:
	// Rows 0..7 (at src + 8*sA[i]), columns j..j+3.
	MOVQ    0(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y0
	MOVQ    8(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y1
	MOVQ    16(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y2
	MOVQ    24(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y3
	MOVQ    32(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y4
	MOVQ    40(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y5
	MOVQ    48(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y6
	MOVQ    56(R8), AX
	LEAQ    (SI)(AX*8), AX
	VMOVUPD (AX)(BX*1), Y7

	// 4x4 transpose of Y0..Y3 into Y12..Y15 (columns, rows 0..3).
	VUNPCKLPD Y1, Y0, Y8    // a0 b0 a2 b2
	VUNPCKHPD Y1, Y0, Y9    // a1 b1 a3 b3
	VUNPCKLPD Y3, Y2, Y10   // c0 d0 c2 d2
	VUNPCKHPD Y3, Y2, Y11   // c1 d1 c3 d3
	VPERM2F128 $0x20, Y10, Y8, Y12 // a0 b0 c0 d0
	VPERM2F128 $0x20, Y11, Y9, Y13 // a1 b1 c1 d1
	VPERM2F128 $0x31, Y10, Y8, Y14 // a2 b2 c2 d2
	VPERM2F128 $0x31, Y11, Y9, Y15 // a3 b3 c3 d3

	// 4x4 transpose of Y4..Y7 into Y0..Y3 (columns, rows 4..7).
	VUNPCKLPD Y5, Y4, Y8
	VUNPCKHPD Y5, Y4, Y9
	VUNPCKLPD Y7, Y6, Y10
	VUNPCKHPD Y7, Y6, Y11
	VPERM2F128 $0x20, Y10, Y8, Y0
	VPERM2F128 $0x20, Y11, Y9, Y1
	VPERM2F128 $0x31, Y10, Y8, Y2
	VPERM2F128 $0x31, Y11, Y9, Y3

	// Column j+c (at dst + 8*dB[j+c]) gets rows 0..3 then 4..7.
	MOVQ    0(R9), AX
	VMOVUPD Y12, (DI)(AX*8)
	VMOVUPD Y0, 32(DI)(AX*8)
	MOVQ    8(R9), AX
	VMOVUPD Y13, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	MOVQ    16(R9), AX
	VMOVUPD Y14, (DI)(AX*8)
	VMOVUPD Y2, 32(DI)(AX*8)
	MOVQ    24(R9), AX
	VMOVUPD Y15, (DI)(AX*8)
	VMOVUPD Y3, 32(DI)(AX*8)

	ADDQ $32, BX
	ADDQ $32, R9
	DECQ CX
	JNZ  rloop
	VZEROUPPER
	RET

// func strip8x8z(dst *uint64, d1 int, src *uint64, s0 int, n int)
TEXT ·strip8x8z(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ d1+8(FP), R11
	MOVQ src+16(FP), SI
	MOVQ s0+24(FP), R8
	MOVQ n+32(FP), CX
	SHLQ $3, R11            // d1 in bytes
	SHLQ $3, R8             // s0 in bytes
	LEAQ (R8)(R8*2), R9     // 3*s0
	LEAQ (SI)(R8*4), R10    // row 4
	LEAQ (R11)(R11*2), R12  // 3*d1
	LEAQ (R11*8), R13       // 8*d1
	SHRQ $3, CX             // blocks of 8 columns

zloop:
	// Rows 0..7, columns j..j+7 (row r = r_0 .. r_7).
	VMOVUPD (SI), Z0
	VMOVUPD (SI)(R8*1), Z1
	VMOVUPD (SI)(R8*2), Z2
	VMOVUPD (SI)(R9*1), Z3
	VMOVUPD (R10), Z4
	VMOVUPD (R10)(R8*1), Z5
	VMOVUPD (R10)(R8*2), Z6
	VMOVUPD (R10)(R9*1), Z7

	// Pairs of rows: 128-bit lane k of Z8 holds (r0_2k, r1_2k), of Z9
	// (r0_2k+1, r1_2k+1); likewise Z10/Z11 rows 2-3, Z12/Z13 rows 4-5,
	// Z14/Z15 rows 6-7.
	VUNPCKLPD Z1, Z0, Z8
	VUNPCKHPD Z1, Z0, Z9
	VUNPCKLPD Z3, Z2, Z10
	VUNPCKHPD Z3, Z2, Z11
	VUNPCKLPD Z5, Z4, Z12
	VUNPCKHPD Z5, Z4, Z13
	VUNPCKLPD Z7, Z6, Z14
	VUNPCKHPD Z7, Z6, Z15

	// 4x4 transpose of 128-bit lanes. Even columns from Z8, Z10, Z12, Z14:
	// Z16 = (Z8.0, Z8.2, Z10.0, Z10.2), Z17 = (Z8.1, Z8.3, Z10.1, Z10.3),
	// Z18, Z19 the same for Z12, Z14.
	VSHUFF64X2 $0x88, Z10, Z8, Z16
	VSHUFF64X2 $0xdd, Z10, Z8, Z17
	VSHUFF64X2 $0x88, Z14, Z12, Z18
	VSHUFF64X2 $0xdd, Z14, Z12, Z19
	VSHUFF64X2 $0x88, Z18, Z16, Z24 // column 0
	VSHUFF64X2 $0xdd, Z18, Z16, Z28 // column 4
	VSHUFF64X2 $0x88, Z19, Z17, Z26 // column 2
	VSHUFF64X2 $0xdd, Z19, Z17, Z30 // column 6

	// Odd columns from Z9, Z11, Z13, Z15.
	VSHUFF64X2 $0x88, Z11, Z9, Z20
	VSHUFF64X2 $0xdd, Z11, Z9, Z21
	VSHUFF64X2 $0x88, Z15, Z13, Z22
	VSHUFF64X2 $0xdd, Z15, Z13, Z23
	VSHUFF64X2 $0x88, Z22, Z20, Z25 // column 1
	VSHUFF64X2 $0xdd, Z22, Z20, Z29 // column 5
	VSHUFF64X2 $0x88, Z23, Z21, Z27 // column 3
	VSHUFF64X2 $0xdd, Z23, Z21, Z31 // column 7

	// Column j+c is one 64-byte store.
	LEAQ    (DI)(R11*4), R14
	VMOVUPD Z24, (DI)
	VMOVUPD Z25, (DI)(R11*1)
	VMOVUPD Z26, (DI)(R11*2)
	VMOVUPD Z27, (DI)(R12*1)
	VMOVUPD Z28, (R14)
	VMOVUPD Z29, (R14)(R11*1)
	VMOVUPD Z30, (R14)(R11*2)
	VMOVUPD Z31, (R14)(R12*1)

	ADDQ $64, SI
	ADDQ $64, R10
	ADDQ R13, DI
	DECQ CX
	JNZ  zloop
	VZEROUPPER
	RET
