package elementwise

import (
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/kernel/vmath"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// The vector loops of the elementwise functions beyond arithmetic: one
// generic loop per dtype class, float32 evaluated through the float64
// definition and rounded once. The scalar definitions are those of the
// catalog (math and package scalar), so these loops only add the
// iteration.

// realFunc returns the float64 function of unary operation k that
// floatUnary evaluates per element, or nil: the operations with neither a
// vmath kernel (vectorUnary) nor a simd loop (vector.go).
func realFunc(k op.Kind) func(float64) float64 {
	if k == op.Angle {
		return scalar.Angle
	}
	return nil
}

// complexFunc returns the complex128 function of unary operation k, or nil.
func complexFunc(k op.Kind) func(complex128) complex128 {
	switch k {
	case op.Sqrt:
		return scalar.CSqrt
	case op.Exp:
		return scalar.CExp
	case op.Expm1:
		return scalar.CExpm1
	case op.Log:
		return scalar.CLog
	case op.Log1p:
		return scalar.CLog1p
	case op.Sin:
		return scalar.CSin
	case op.Cos:
		return scalar.CCos
	case op.Tan:
		return scalar.CTan
	case op.Tanh:
		return scalar.CTanh
	case op.Sinh:
		return scalar.CSinh
	case op.Cosh:
		return scalar.CCosh
	case op.Asin:
		return scalar.CAsin
	case op.Acos:
		return scalar.CAcos
	case op.Atan:
		return scalar.CAtan
	case op.Sign:
		return scalar.CSign
	case op.Rsqrt:
		return scalar.CRsqrt
	}
	return nil
}

// mathUnary sets z[i] = k(x[i]) for the operations of this file (for
// complex x also the cheap ones without a simd loop: Square, Reciprocal,
// Sign, Rsqrt); len(x) >= len(z).
func mathUnary[T strided.Scalar](k op.Kind, z, x []T, p Params[T]) {
	switch zz := any(z).(type) {
	case []float64:
		floatUnary(k, zz, any(x).([]float64)[:len(z)])
	case []float32:
		floatUnary(k, zz, any(x).([]float32)[:len(z)])
	case []complex128:
		complexUnary(k, zz, any(x).([]complex128)[:len(z)])
	case []complex64:
		complexUnary(k, zz, any(x).([]complex64)[:len(z)])
	}
}

func floatUnary[F float32 | float64](k op.Kind, z, x []F) {
	if vectorUnary(k, z, x) {
		return
	}
	f := realFunc(k)
	if f == nil {
		panic("elementwise: no kernel for " + k.String())
	}
	for i, v := range x {
		z[i] = F(f(float64(v)))
	}
}

func complexUnary[C complex64 | complex128](k op.Kind, z, x []C) {
	switch k {
	case op.Square:
		for i, v := range x {
			z[i] = v * v
		}
	case op.Reciprocal:
		for i, v := range x {
			z[i] = 1 / v
		}
	default:
		f := complexFunc(k)
		if f == nil {
			panic("elementwise: no complex kernel for " + k.String())
		}
		for i, v := range x {
			z[i] = C(f(complex128(v)))
		}
	}
}

// mathBinary sets z[i] = k(x[i], y[i]) for the binary operations of this
// file; len(x), len(y) >= len(z).
func mathBinary[T strided.Scalar](k op.Kind, z, x, y []T) {
	switch zz := any(z).(type) {
	case []float64:
		floatBinary(k, zz, any(x).([]float64)[:len(z)], any(y).([]float64)[:len(z)])
	case []float32:
		floatBinary(k, zz, any(x).([]float32)[:len(z)], any(y).([]float32)[:len(z)])
	case []complex128:
		complexPow(zz, any(x).([]complex128)[:len(z)], any(y).([]complex128)[:len(z)], k)
	case []complex64:
		complexPow(zz, any(x).([]complex64)[:len(z)], any(y).([]complex64)[:len(z)], k)
	}
}

func complexPow[C complex64 | complex128](z, x, y []C, k op.Kind) {
	if k != op.Pow {
		panic("elementwise: no complex kernel for " + k.String())
	}
	for i := range z {
		z[i] = C(scalar.CPow(complex128(x[i]), complex128(y[i])))
	}
}

// mathBinaryVS sets z[i] = k(x[i], y) for a broadcast y: Pow by 2 is a
// product; the others evaluate k per element.
func mathBinaryVS[T strided.Scalar](k op.Kind, z, x []T, y T) {
	if k == op.Pow && y == 2 {
		x = x[:len(z)]
		for i, v := range x {
			z[i] = v * v
		}
		return
	}
	var buf [rowBlock]T
	for i := range buf {
		buf[i] = y
	}
	for lo := 0; lo < len(z); lo += rowBlock {
		hi := min(lo+rowBlock, len(z))
		mathBinary(k, z[lo:hi], x[lo:hi], buf[:hi-lo])
	}
}

// mathBinarySV sets z[i] = k(x, y[i]) for a broadcast x.
func mathBinarySV[T strided.Scalar](k op.Kind, z []T, x T, y []T) {
	var buf [rowBlock]T
	for i := range buf {
		buf[i] = x
	}
	for lo := 0; lo < len(z); lo += rowBlock {
		hi := min(lo+rowBlock, len(z))
		mathBinary(k, z[lo:hi], buf[:hi-lo], y[lo:hi])
	}
}

// vectorUnary sets z = k(x) with the vmath kernel of k and reports whether
// vmath has one. Without vector instructions (the purego build, other
// architectures) float32 goes through the float64 kernel in blocks, since
// vmath's pure-Go float32 rounds its fused multiply-adds in software,
// several times slower.
func vectorUnary[F float32 | float64](k op.Kind, z, x []F) bool {
	if unsafe.Sizeof(F(0)) == 4 && !vmath.Vectorized() {
		if !vectorKernel[float64](k, nil, nil) {
			return false
		}
		var in, out [rowBlock]float64
		for lo := 0; lo < len(z); lo += rowBlock {
			hi := min(lo+rowBlock, len(z))
			for i, v := range x[lo:hi] {
				in[i] = float64(v)
			}
			vectorKernel(k, out[:hi-lo], in[:hi-lo])
			for i, v := range out[:hi-lo] {
				z[lo+i] = F(v)
			}
		}
		return true
	}
	return vectorKernel(k, z, x)
}

// vectorKernel sets z = k(x) with the vmath kernel of k and reports whether
// vmath has one.
func vectorKernel[F float32 | float64](k op.Kind, z, x []F) bool {
	switch k {
	case op.Exp:
		vmath.Exp(z, x)
	case op.Expm1:
		vmath.Expm1(z, x)
	case op.Log:
		vmath.Log(z, x)
	case op.Log1p:
		vmath.Log1p(z, x)
	case op.Tanh:
		vmath.Tanh(z, x)
	case op.Sigmoid:
		vmath.Sigmoid(z, x)
	case op.Sin:
		vmath.Sin(z, x)
	case op.Cos:
		vmath.Cos(z, x)
	case op.Sqrt:
		vmath.Sqrt(z, x)
	case op.Tan:
		vmath.Tan(z, x)
	case op.Atan:
		vmath.Atan(z, x)
	case op.Asin:
		vmath.Asin(z, x)
	case op.Acos:
		vmath.Acos(z, x)
	case op.Sinh:
		vmath.Sinh(z, x)
	case op.Cosh:
		vmath.Cosh(z, x)
	case op.Erf:
		vmath.Erf(z, x)
	case op.Erfc:
		vmath.Erfc(z, x)
	case op.Gelu:
		vmath.Gelu(z, x)
	default:
		return false
	}
	return true
}
