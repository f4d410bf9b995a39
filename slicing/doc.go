// Package slicing splits an einsum contraction into slices that fit a
// memory limit, serializes the plan, evaluates ranges of slices on any
// engine and sums the partial results, so that the slices of one
// contraction can run on many machines.
//
// # Slices
//
// Slicing fixes some summed labels L_1, ..., L_m of the contraction to
// each of their values; slice s is the contraction of the operands'
// sub-tensors with L_j fixed to v_j, where (v_1, ..., v_m) are the mixed-
// radix digits of s (the first label varies fastest), and the result is
// the sum over all slices:
//
//	out = Σ_{0 <= s < Slices} slice_s(operands).
//
// Every slice needs only one slice's intermediates, so its peak is much
// smaller than the contraction's; the total cost is Slices times the
// FLOPs of one slice, FlopOverhead times the cost of the unsliced
// contraction. New slices summed labels only: every slice adds into the
// whole output. NewWith with einsum.Options.SliceOutput may also slice
// output labels; a slice then writes only its part of the output, and a
// range's partial result is zero elsewhere, so the sum of the partials is
// still the contraction.
//
// # Flow
//
// New plans the slicing under a limit in bytes (einsum.NewSlicedPlan);
// Write and Read move the plan between processes as JSON (Read validates
// every field against the subscripts and shapes); Check verifies that
// operands match a plan before any work; ContractRange evaluates slices
// lo..hi-1 on an engine into a destination; a Reducer sums the partial
// results of disjoint ranges, once each, until every slice is in:
//
//	p, _ := slicing.New(tf.Float64, "ij,jk,kl->il", shapes, 64<<20)
//	// on each worker, for its range [lo, hi):
//	_ = slicing.ContractRange(e, p, lo, hi, operands, partial)
//	// on the coordinator:
//	r, _ := slicing.NewReducer(p)
//	added, err := r.Add(lo, hi, partial) // false for a range already added
//	if r.Done() {
//		out, _ := r.Result()
//	}
//
// # Validation
//
// Every function validates its arguments before it does any work and
// returns *tenferro.Error values naming the operation (for example
// "slicing.ContractRange"), the argument, and what was expected: a plan
// whose fields disagree with each other (shapes, labels, extents, path,
// peak) is an ErrArgument error, operands of other shapes or dtypes are
// ErrShape and ErrDType errors, a range outside [0, Slices) or a range
// that overlaps an added range without equalling it is an ErrArgument
// error.
package slicing
