package cpu

import (
	"github.com/tenferro-go/tenferro/internal/kernel/reduce"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// sumReduce sets, for every multi-index i of shape,
//
//	dst[i] = Σ a[i]        (prod false)
//	dst[i] = Σ a[i]·b[i]   (prod true)
//
// where the sum runs over the axes along which dst has stride 0 (the
// reduced axes); dst is overwritten. It runs the reduce kernels on the
// engine's runner and reports false, doing nothing, when more than
// strided.MaxRank extents differ from 1 (the kernels' limit).
//
// Preconditions (established by the executor): every view stays inside its
// Data, dst has distinct elements along its non-reduced axes and does not
// overlap a or b.
func sumReduce[T strided.Scalar](e *Engine, shape []int, dst, a, b strided.Ref[T], prod bool) bool {
	if strided.Rank(shape) > strided.MaxRank {
		return false
	}
	if prod {
		reduce.SumProduct(e.runner, shape, dst, a, b)
	} else {
		reduce.Sum(e.runner, shape, dst, a)
	}
	return true
}
