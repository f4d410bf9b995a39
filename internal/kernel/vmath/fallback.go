package vmath

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// tanFallback is Tan beyond the fast path (|x| > trigMax, Inf, NaN): the
// catalog's tangent, whose Payne-Hanek reduction keeps its accuracy for
// every finite x.
func tanFallback(x float64) float64 { return scalar.Tan(x) }

// powFallback32 is float32 Pow where its fast path does not apply (a base that
// is not positive and finite, an exponent that is not finite, y = 1): the
// catalog's special values and signs (scalar.PowFinish) around the same
// e^(y·ln|x|) as the fast path, for float32 arguments widened to x and y.
func powFallback32(x, y float64) float64 {
	return scalar.PowFinish(x, y, expF64(y*logF64(math.Abs(x))), 0)
}

// powFallback64 is float64 Pow off its fast path: the catalog's scalar.Pow.
func powFallback64(x, y float64) float64 { return scalar.Pow(x, y) }

// atan2Fallback is Atan2 where the ratio of the moduli is not a number
// (two zeros, two infinities, a NaN): the catalog's atan2.
func atan2Fallback(x, y float64) float64 { return scalar.Atan2(x, y) }
