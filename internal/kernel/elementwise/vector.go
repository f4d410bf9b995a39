package elementwise

import (
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The cheap operations run on the vector loops of package simd: float32
// and float64 directly, and the complex operations that act on the real
// and imaginary parts alike (Add, Sub of two vectors, Negate) as the
// float loops over twice the length. Each function below reports whether
// it handled k; the callers (unaryVec, binaryVV, binaryVS, binarySV) fall
// back to their own loops otherwise. Like them, the functions take inputs
// at least len(z) long, and z may be an input itself.

// simdBinary returns the simd operation of binary operation k.
func simdBinary(k op.Kind) (simd.Op, bool) {
	switch k {
	case op.Add:
		return simd.Add, true
	case op.Sub:
		return simd.Sub, true
	case op.Mul:
		return simd.Mul, true
	case op.Div:
		return simd.Div, true
	case op.Maximum:
		return simd.Max, true
	case op.Minimum:
		return simd.Min, true
	}
	return 0, false
}

// simdUnaryOp returns the simd operation of unary operation k (Scale and
// Negate are handled apart).
func simdUnaryOp(k op.Kind) (simd.UnaryOp, bool) {
	switch k {
	case op.Abs:
		return simd.Abs, true
	case op.Square:
		return simd.Square, true
	case op.Reciprocal:
		return simd.Recip, true
	case op.Rsqrt:
		return simd.Rsqrt, true
	case op.Floor:
		return simd.Floor, true
	case op.Ceil:
		return simd.Ceil, true
	case op.Trunc:
		return simd.Trunc, true
	case op.Round:
		return simd.Round, true
	case op.Relu:
		return simd.Relu, true
	case op.Sign:
		return simd.Sign, true
	case op.Clip:
		return simd.Clip, true
	}
	return 0, false
}

// parts returns the real and imaginary parts of z as one float slice of
// twice the length (z[i] is parts[2i] + parts[2i+1]·i).
func parts[F simd.Float, C complex64 | complex128](z []C) []F {
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(z))), 2*len(z))
}

// vectorVV sets z[i] = k(x[i], y[i]) with the simd loops.
func vectorVV[T strided.Scalar](k op.Kind, z, x, y []T) bool {
	o, ok := simdBinary(k)
	if !ok {
		return false
	}
	x, y = x[:len(z)], y[:len(z)]
	switch zz := any(z).(type) {
	case []float32:
		simd.VV(o, zz, any(x).([]float32), any(y).([]float32))
	case []float64:
		simd.VV(o, zz, any(x).([]float64), any(y).([]float64))
	case []complex64:
		if o != simd.Add && o != simd.Sub {
			return false
		}
		simd.VV(o, parts[float32](zz), parts[float32](any(x).([]complex64)), parts[float32](any(y).([]complex64)))
	case []complex128:
		if o != simd.Add && o != simd.Sub {
			return false
		}
		simd.VV(o, parts[float64](zz), parts[float64](any(x).([]complex128)), parts[float64](any(y).([]complex128)))
	}
	return true
}

// vectorVS sets z[i] = k(x[i], y) with the simd loops (real dtypes).
func vectorVS[T strided.Scalar](k op.Kind, z, x []T, y T) bool {
	o, ok := simdBinary(k)
	if !ok {
		return false
	}
	switch zz := any(z).(type) {
	case []float32:
		simd.VS(o, zz, any(x).([]float32), any(y).(float32))
	case []float64:
		simd.VS(o, zz, any(x).([]float64), any(y).(float64))
	default:
		return false
	}
	return true
}

// vectorSV sets z[i] = k(x, y[i]) with the simd loops (real dtypes).
func vectorSV[T strided.Scalar](k op.Kind, z []T, x T, y []T) bool {
	o, ok := simdBinary(k)
	if !ok {
		return false
	}
	switch zz := any(z).(type) {
	case []float32:
		simd.SV(o, zz, any(x).(float32), any(y).([]float32))
	case []float64:
		simd.SV(o, zz, any(x).(float64), any(y).([]float64))
	default:
		return false
	}
	return true
}

// vectorUnaryCheap sets z[i] = k(x[i]) with the simd loops: Scale (a
// product by p.A) and the operations of simdUnaryOp for real dtypes,
// Negate for all.
func vectorUnaryCheap[T strided.Scalar](k op.Kind, z, x []T, p Params[T]) bool {
	x = x[:len(z)]
	if k == op.Negate {
		switch zz := any(z).(type) {
		case []float32:
			simd.Unary(simd.Neg, zz, any(x).([]float32), 0, 0)
		case []float64:
			simd.Unary(simd.Neg, zz, any(x).([]float64), 0, 0)
		case []complex64:
			simd.Unary(simd.Neg, parts[float32](zz), parts[float32](any(x).([]complex64)), 0, 0)
		case []complex128:
			simd.Unary(simd.Neg, parts[float64](zz), parts[float64](any(x).([]complex128)), 0, 0)
		}
		return true
	}
	if k == op.Scale {
		return vectorVS(op.Mul, z, x, p.A)
	}
	o, ok := simdUnaryOp(k)
	if !ok {
		return false
	}
	switch zz := any(z).(type) {
	case []float32:
		simd.Unary(o, zz, any(x).([]float32), any(p.A).(float32), any(p.B).(float32))
	case []float64:
		simd.Unary(o, zz, any(x).([]float64), any(p.A).(float64), any(p.B).(float64))
	default:
		return false
	}
	return true
}
