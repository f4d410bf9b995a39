package vmath

import "github.com/tenferro-go/tenferro/internal/op/scalar"

// tanFallback is Tan beyond the fast path (|x| > trigMax, Inf, NaN): the
// catalog's tangent, whose Payne-Hanek reduction keeps its accuracy for
// every finite x.
func tanFallback(x float64) float64 { return scalar.Tan(x) }
