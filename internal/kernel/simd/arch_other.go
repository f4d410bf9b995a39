//go:build !amd64 || purego

package simd

// Vectorized reports whether the operations run on vector instructions.
func Vectorized() bool { return false }

// The arch functions write no element on this build; the pure-Go loops
// do all the work.

func archVV32(Op, []float32, []float32, []float32, float32, float32) int           { return 0 }
func archVV64(Op, []float64, []float64, []float64, float64, float64) int           { return 0 }
func archVS32(Op, []float32, []float32, []float32, float32, float32) int           { return 0 }
func archVS64(Op, []float64, []float64, []float64, float64, float64) int           { return 0 }
func archSV32(Op, []float32, []float32, []float32, float32, float32) int           { return 0 }
func archSV64(Op, []float64, []float64, []float64, float64, float64) int           { return 0 }
func archUnary32(UnaryOp, []float32, []float32, []float32, float32, float32) int   { return 0 }
func archUnary64(UnaryOp, []float64, []float64, []float64, float64, float64) int   { return 0 }
func archVVNT32(Op, []float32, []float32, []float32, float32, float32) int         { return 0 }
func archVVNT64(Op, []float64, []float64, []float64, float64, float64) int         { return 0 }
func archVSNT32(Op, []float32, []float32, []float32, float32, float32) int         { return 0 }
func archVSNT64(Op, []float64, []float64, []float64, float64, float64) int         { return 0 }
func archSVNT32(Op, []float32, []float32, []float32, float32, float32) int         { return 0 }
func archSVNT64(Op, []float64, []float64, []float64, float64, float64) int         { return 0 }
func archUnaryNT32(UnaryOp, []float32, []float32, []float32, float32, float32) int { return 0 }
func archUnaryNT64(UnaryOp, []float64, []float64, []float64, float64, float64) int { return 0 }
