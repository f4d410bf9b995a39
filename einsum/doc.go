// Package einsum parses Einstein-summation subscripts, binds them to
// operand shapes, optimizes the order of pairwise contractions and lowers
// every step to plain label lists and extents that an executor maps onto
// batched GEMM and permutation kernels. It plans only; it never touches
// tensor data, and it imports only the standard library.
//
// The flow is Parse (or FromLabels) → (*Expr).Bind → NewPlan. Every
// result is immutable and safe for concurrent readers, so plans can be
// cached and shared.
//
// # Grammar
//
// Subscripts look like "ij,jk->ik". A label is any Unicode letter
// (unicode.IsLetter), so expressions are not limited to 52 labels; white
// space is ignored. Operands are separated by ','; an empty operand is a
// scalar (",i->i", "->"). "..." may appear at most once per operand and
// once in the output. A label repeated inside an operand takes a diagonal
// ("ii->i", "iii->i", "jii->ij"); a label repeated in the output embeds a
// diagonal ("i->ii", zero elsewhere; NumPy rejects this form). Without
// "->" the output is implicit, as in NumPy: the ellipsis axes first, then
// the labels that occur exactly once over all operands, sorted by code
// point (so 'A'-'Z' come before 'a'-'z'). FromLabels is the integer form
// (NumPy's sublist form), with Ellipsis as the "..." sentinel, and
// Subscripts renders integer labels as subscripts for the functions that
// take a string (label v is Symbol(v): a-z, A-Z, then CJK ideographs).
// ParseSymbols accepts any non-reserved symbol as a label, as opt_einsum
// does (public workloads use digits and symbols such as '×').
//
// # Broadcasting
//
// Bind resolves one extent per label. Extents of a label must agree across
// operands, except that an extent of 1 broadcasts: 1 against n gives n and
// 1 against 0 gives 0 (Problem.Broadcast marks stretched axes; plans leave
// them out, so they cost nothing). The axes of one operand that share a label must have equal
// extents. An ellipsis covers an operand's remaining axes; ellipses of
// different operands are right-aligned and broadcast like named labels;
// ellipsis axes left out of an explicit output are summed. Zero extents
// are valid everywhere. Errors are *Error values that name the operand,
// the label and both extents, and wrap ErrSyntax, ErrRank, ErrShape,
// ErrPath, ErrMemoryLimit or ErrOption.
//
// # Paths
//
// A path is a sequence of pairwise contractions in NumPy/opt_einsum
// linear format: each pair names two positions in the current operand
// list; both operands are removed and their result is appended. Greedy
// repeatedly contracts the pair of tensors sharing a label that minimises
// size(result) - size(a) - size(b) (ties by FLOPs), then finishes
// disconnected parts with outer products of the smallest tensors. Optimal
// is exact: dynamic programming over all subsets of operands, outer
// products included, for up to OptimalMax operands. RandomGreedy keeps the
// best of the greedy path and randomized greedy restarts (a seeded
// Boltzmann choice among the best candidates). Search is the optimizer for
// large networks: it draws candidates from greedy and from variable
// elimination orders (min-weight, with seeded Gumbel-perturbed restarts),
// then polishes them by subtree reconfiguration, re-optimizing every
// subtree of up to 8-9 leaves exactly; a few hundred tensors take about
// 0.1 s of CPU. Auto uses Optimal up to AutoOptimalMax operands and Search
// above, except that a network whose greedy path costs less than
// AutoSearchFlops (it executes in milliseconds) gets a lighter Search
// (fewer candidates, one polished by reconfiguration of subtrees of up
// to 8 leaves), so
// planning stays small against execution. Every strategy is deterministic for a given Options.Seed. Given
// takes the caller's path and validates it
// (positions in range, distinct, exactly n-1 steps). Options.MemoryLimit
// bounds every intermediate; a path that cannot respect it is an
// ErrMemoryLimit error.
//
// # Costs
//
// Costs follow numpy.einsum_path. A pairwise step touching the labels L
// (the union of both operands' distinct labels) costs
//
//	flops = prod_{l in L} extent(l) * (2 if the step sums some label, else 1)
//
// that is, one multiply and one add per point of the iteration space when
// something is summed, one multiply otherwise. A path's FLOPs are the sum
// over its steps (NumPy reports this sum plus one). The naive cost of an
// expression with n operands is prod_{all labels} extent * (max(1, n-1) +
// 1 if some label occurs in two operands). A single-operand expression
// costs the size of its diagonal-extracted operand. Sizes count elements.
//
// # Plans
//
// NewPlan returns a Plan: the path, its cost, and for every step a Step
// that spells out the lowering: the two operand slots, each side's labels
// after diagonal extraction, the labels each side sums before the product
// (present in that operand only, and in no later operand nor the output),
// the classification of the remaining labels into batch, left-free,
// right-free and contracted, the GEMM extents M, N, K and batch size, the
// permutations that lay out each side as an M×K (K×N) matrix per batch
// item with flags telling when a side is already laid out that way or as
// the transpose (no copy needed), and the result's label order
// [left-free..., right-free..., batch...] (column-major, batch axes last).
// Orientations and orders are chosen from the output backwards so that
// each result is written the way its consumer reads it whenever the
// grouping allows; a chain of matrix products needs no permutation at
// all. Tensor ids name operands (0..n-1) and step results (n+s), so an
// executor can keep results in slots instead of replaying the list
// shuffling of the linear path. A Final unary step maps
// the last tensor to the output (permutation, diagonal embedding, and for
// single-operand expressions the diagonal and the sums). Report and
// Summary print the plan like numpy.einsum_path.
//
// # Slicing
//
// NewSlicedPlan plans a contraction whose peak (Plan.Peak) must fit a
// memory limit: it fixes some summed labels to each of their values, so
// that the result is the sum of slices that all share one Plan (the
// problem with the sliced labels' extents set to 1) and each needs only
// that plan's peak. It chooses the labels dynamically, re-optimizing the
// path after each one, to keep the total cost (slices × FLOPs of one
// slice) small. It slices output labels only with Options.SliceOutput
// (each slice then computes its part of the output). A SlicedPlan reports the
// sliced labels and extents, the number of slices, the peak per slice and
// the FLOP overhead over the unsliced contraction; SliceWith rebuilds one
// from given labels and a slice path. A limit below the smallest slice
// peak is an ErrLimitTooSmall error naming the minimum.
package einsum
