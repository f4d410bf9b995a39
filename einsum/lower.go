package einsum

import (
	"slices"
	"strconv"
)

// StepKind classifies a pairwise step by the label groups it has.
type StepKind int

const (
	// Dot: only contracted labels; the result is a scalar.
	Dot StepKind = iota
	// GEMM: contracted labels and at least one free label, no batch
	// labels (matrix-matrix or matrix-vector product).
	GEMM
	// BatchedGEMM: contracted and batch labels.
	BatchedGEMM
	// Outer: no contracted or batch labels (outer product; a scalar
	// operand makes it a scaling).
	Outer
	// Hadamard: only batch labels; an elementwise product.
	Hadamard
	// BatchedOuter: batch labels and free labels, nothing contracted.
	BatchedOuter
)

var kindNames = [...]string{"dot", "gemm", "batched-gemm", "outer", "hadamard", "batched-outer"}

func (k StepKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "StepKind(" + strconv.Itoa(int(k)) + ")"
}

// Step is the lowering of one pairwise contraction
//
//	C[LF, RF, Bt] = sum over Con of X[LF, Con, Bt] * Y[Con, RF, Bt]
//
// (X the left operand, Y the right, Bt the batch labels) after each side
// has taken the diagonal of repeated labels and summed its pre-reduced
// labels. All label lists hold label ids of the Problem.
//
// The result is written compactly in column-major order with labels Out =
// LeftFree ++ RightFree ++ Batch: per batch item an M×N matrix, batch
// axes last. The orientation (which operand is left) and the order within
// each group are chosen, from the output backwards, so that the consumer
// of the result (the next step or the output) can read it as stored or
// transposed whenever the grouping allows; the order of Contracted lets
// as many original operands as possible be read without a copy.
type Step struct {
	// Left and Right are the positions of the pair in the current operand
	// list (the linear path entry, NumPy format).
	Left, Right int
	// LeftID and RightID are the tensor ids of the operands (see Plan);
	// Result is the id of the result.
	LeftID, RightID, Result int
	// LeftLabels and RightLabels are each side's distinct labels in axis
	// order: an operand's Problem.Unique entry (after the diagonal of
	// repeated labels), or an earlier step's Out. For an operand (id <
	// len(Problem.Inputs)) the executor forms this view itself: axes of
	// Problem.Inputs[id] with equal label ids become one axis whose stride
	// is the sum of theirs, and axes flagged in Problem.Broadcast[id] are
	// skipped.
	LeftLabels, RightLabels []int
	// LeftReduce and RightReduce are labels summed on one side before the
	// pairwise product: labels of that side that are in neither the other
	// side, nor any later operand, nor the output. In axis order. They are
	// only ever non-empty for original operands.
	LeftReduce, RightReduce []int
	// LeftKept and RightKept are LeftLabels and RightLabels without the
	// pre-reduced labels, in axis order: each side's axes after the
	// diagonal and the pre-reduction.
	LeftKept, RightKept []int
	// Batch labels are on both sides and kept; Contracted labels are on
	// both sides and summed; LeftFree and RightFree are on one side only
	// and kept.
	Batch, LeftFree, RightFree, Contracted []int
	// LeftPerm gives, for each label of LeftFree ++ Contracted ++ Batch,
	// its axis in LeftKept; RightPerm gives, for each label of Contracted
	// ++ RightFree ++ Batch, its axis in RightKept. LeftInOrder and
	// RightInOrder report that the permutation is the identity (the side
	// is already laid out as an M×K (K×N) matrix per batch item).
	LeftPerm, RightPerm       []int
	LeftInOrder, RightInOrder bool
	// LeftTransposed reports that LeftKept is Contracted ++ LeftFree ++
	// Batch: the left side is stored as a K×M matrix per batch item and
	// can be used as A transposed without a copy. RightTransposed reports
	// that RightKept is RightFree ++ Contracted ++ Batch (B stored as
	// N×K). With M, N or K equal to 1 a side may be both in order and
	// transposed.
	LeftTransposed, RightTransposed bool
	// Out is the result's label order: LeftFree ++ RightFree ++ Batch.
	Out []int
	// M, N, K and BatchSize are the products of the extents of LeftFree,
	// RightFree, Contracted and Batch (1 for an empty group), saturating
	// at math.MaxInt.
	M, N, K, BatchSize int
	// Kind classifies the step.
	Kind StepKind
	// Flops is the step's cost (see # Costs) and Size the result's number
	// of elements.
	Flops, Size float64
	// Scaling is the number of distinct labels the step touches.
	Scaling int
}

// Final maps the last tensor (the last step's result, or operand 0 when
// the problem has a single operand) to the requested output:
//
//	Out[Output] = sum over Reduce of In[Labels]
//
// with Labels already diagonal-extracted. For a single operand it is the
// whole evaluation (for example "ii->i", "ij->ji", "ij->").
type Final struct {
	// From is the tensor id of the input (0 or the last step's Result).
	From int
	// Labels are the input's distinct labels in axis order: the last
	// step's Out, or Problem.Unique[0] for a single operand, read through
	// the diagonal view described at Step.LeftLabels.
	Labels []int
	// Reduce are the labels summed (in axis order); empty after a
	// pairwise step.
	Reduce []int
	// Kept are Labels without Reduce, in axis order.
	Kept []int
	// Output is the requested output (Problem.Output), possibly with
	// repeated labels.
	Output []int
	// Perm gives, for each label of Problem.OutputUnique, its axis in Kept.
	Perm []int
	// Identity reports that no work is needed: nothing is reduced, the
	// output has no repeated label and Perm is the identity.
	Identity bool
	// Embed reports that the output repeats a label: the result is zero
	// off the embedded diagonal.
	Embed bool
	// Diagonal reports that the input is an operand with a repeated label.
	Diagonal bool
}

// lower fills pl.Steps and pl.Final for a contraction sequence.
func (nw *network) lower(pl *Plan, ssa [][2]int) {
	p := nw.p
	n := nw.n
	steps := make([]Step, len(ssa))
	count := slices.Clone(nw.count0)
	sets := slices.Clone(nw.inputs) // sorted label set per tensor id
	in := func(s []int, l int) bool { _, ok := slices.BinarySearch(s, l); return ok }

	// Forward: classification as sets.
	for k, pr := range ssa {
		st := &steps[k]
		st.LeftID, st.RightID, st.Result = pr[0], pr[1], n+k
		st.Left, st.Right = pl.Path[k][0], pl.Path[k][1]
		a, b := sets[pr[0]], sets[pr[1]]
		st.Size, st.Flops = nw.pairCost(a, b, count)
		kept := nw.contract(a, b, count)
		st.Scaling = len(a) + len(b)
		for _, l := range a {
			if in(b, l) {
				st.Scaling--
				if in(kept, l) {
					st.Batch = append(st.Batch, l)
				} else {
					st.Contracted = append(st.Contracted, l)
				}
			} else if in(kept, l) {
				st.LeftFree = append(st.LeftFree, l)
			} else {
				st.LeftReduce = append(st.LeftReduce, l)
			}
		}
		for _, l := range b {
			if !in(a, l) {
				if in(kept, l) {
					st.RightFree = append(st.RightFree, l)
				} else {
					st.RightReduce = append(st.RightReduce, l)
				}
			}
		}
		sets = append(sets, kept)
	}

	// Backward: choose orientations and label orders from each result's
	// consumer. A consumer accepts a few layouts of its input (targets):
	// the output order for the last step; for a left operand
	// [LF, Con, B] or [Con, LF, B] (A or its transpose per batch item),
	// for a right operand [Con, RF, B] or [RF, Con, B].
	targets := make([][][]int, n+len(ssa))
	if len(ssa) > 0 {
		targets[n+len(ssa)-1] = [][]int{p.OutputUnique}
	}
	swap := func(k int, st *Step) {
		st.LeftID, st.RightID = st.RightID, st.LeftID
		st.Left, st.Right = st.Right, st.Left
		st.LeftFree, st.RightFree = st.RightFree, st.LeftFree
		st.LeftReduce, st.RightReduce = st.RightReduce, st.LeftReduce
		pl.Path[k] = [2]int{st.Left, st.Right}
	}
	keptOf := func(id int, reduce []int) []int {
		if id < n {
			return without(p.Unique[id], reduce)
		}
		return nil
	}
	for k := len(ssa) - 1; k >= 0; k-- {
		st := &steps[k]
		tg := targets[st.Result]
		done := false
		for _, t := range tg {
			for _, sw := range []bool{false, true} {
				lf, rf := st.LeftFree, st.RightFree
				if sw {
					lf, rf = rf, lf
				}
				if slices.Equal(concat(orderBy(lf, t), orderBy(rf, t), orderBy(st.Batch, t)), t) {
					if sw {
						swap(k, st)
					}
					st.LeftFree, st.RightFree, st.Batch = orderBy(st.LeftFree, t), orderBy(st.RightFree, t), orderBy(st.Batch, t)
					done = true
					break
				}
			}
			if done {
				break
			}
		}
		if !done {
			// No layout fits exactly: the side holding the consumer's
			// first free label goes left, groups follow the consumer.
			pref := tg[0]
			for _, l := range pref {
				if slices.Contains(st.LeftFree, l) {
					break
				}
				if slices.Contains(st.RightFree, l) {
					swap(k, st)
					break
				}
			}
			st.LeftFree, st.RightFree, st.Batch = orderBy(st.LeftFree, pref), orderBy(st.RightFree, pref), orderBy(st.Batch, pref)
		}
		// Contracted order: candidates follow an original operand's axes
		// or an intermediate's grouping (as its producer would write
		// it); the winner lets most operand sides be read without a copy
		// (2 points each) and most producers write exactly what this
		// step reads (see writeScore).
		lk, rk := keptOf(st.LeftID, st.LeftReduce), keptOf(st.RightID, st.RightReduce)
		ref := st.Contracted
		switch {
		case lk != nil:
			ref = orderBy(st.Contracted, lk)
		case rk != nil:
			ref = orderBy(st.Contracted, rk)
		}
		cands := [][]int{ref}
		if rk != nil {
			cands = append(cands, orderBy(st.Contracted, rk))
		}
		for _, id := range []int{st.LeftID, st.RightID} {
			if id >= n {
				q := &steps[id-n]
				a := ref
				cands = append(cands,
					concat(orderBy(intersect(a, q.LeftFree), ref), orderBy(intersect(a, q.RightFree), ref), orderBy(intersect(a, q.Batch), ref)),
					concat(orderBy(intersect(a, q.RightFree), ref), orderBy(intersect(a, q.LeftFree), ref), orderBy(intersect(a, q.Batch), ref)))
			}
		}
		best, bestScore := cands[0], -1
		for _, con := range cands {
			score := 0
			if lk != nil && noCopy(lk, st.LeftFree, con, st.Batch) {
				score += 2
			}
			if rk != nil && noCopy(rk, con, st.RightFree, st.Batch) {
				score += 2
			}
			if st.LeftID >= n {
				score += writeScore(&steps[st.LeftID-n], st.LeftFree, con, st.Batch, keptOf)
			}
			if st.RightID >= n {
				score += writeScore(&steps[st.RightID-n], con, st.RightFree, st.Batch, keptOf)
			}
			if score > bestScore {
				best, bestScore = con, score
			}
		}
		st.Contracted = best
		st.Out = concat(st.LeftFree, st.RightFree, st.Batch)
		if st.LeftID >= n {
			targets[st.LeftID] = [][]int{concat(st.LeftFree, st.Contracted, st.Batch), concat(st.Contracted, st.LeftFree, st.Batch)}
		}
		if st.RightID >= n {
			targets[st.RightID] = [][]int{concat(st.Contracted, st.RightFree, st.Batch), concat(st.RightFree, st.Contracted, st.Batch)}
		}
	}

	// Forward again: axis orders, reductions, permutations, extents.
	labelsOf := func(id int) []int {
		if id < n {
			return p.Unique[id]
		}
		return steps[id-n].Out
	}
	for k := range steps {
		st := &steps[k]
		st.LeftLabels, st.RightLabels = labelsOf(st.LeftID), labelsOf(st.RightID)
		st.LeftReduce = orderBy(st.LeftReduce, st.LeftLabels)
		st.RightReduce = orderBy(st.RightReduce, st.RightLabels)
		st.LeftKept = without(st.LeftLabels, st.LeftReduce)
		st.RightKept = without(st.RightLabels, st.RightReduce)
		st.LeftPerm, st.LeftInOrder = permOf(concat(st.LeftFree, st.Contracted, st.Batch), st.LeftKept)
		st.RightPerm, st.RightInOrder = permOf(concat(st.Contracted, st.RightFree, st.Batch), st.RightKept)
		st.LeftTransposed = slices.Equal(st.LeftKept, concat(st.Contracted, st.LeftFree, st.Batch))
		st.RightTransposed = slices.Equal(st.RightKept, concat(st.RightFree, st.Contracted, st.Batch))
		st.M, st.N, st.K, st.BatchSize = nw.prodInt(st.LeftFree), nw.prodInt(st.RightFree), nw.prodInt(st.Contracted), nw.prodInt(st.Batch)
		st.Kind = kindOf(st)
		for _, s := range []*[]int{&st.LeftReduce, &st.RightReduce, &st.Batch, &st.LeftFree, &st.RightFree, &st.Contracted} {
			if *s == nil {
				*s = []int{}
			}
		}
	}

	f := Final{Output: p.Output}
	if len(steps) == 0 {
		f.From = 0
		f.Labels = p.Unique[0]
		for _, l := range f.Labels {
			if !slices.Contains(p.OutputUnique, l) {
				f.Reduce = append(f.Reduce, l)
			}
		}
		f.Diagonal = len(p.Unique[0]) != len(p.Inputs[0])
	} else {
		f.From = steps[len(steps)-1].Result
		f.Labels = steps[len(steps)-1].Out
	}
	if f.Reduce == nil {
		f.Reduce = []int{}
	}
	f.Kept = without(f.Labels, f.Reduce)
	var inOrder bool
	f.Perm, inOrder = permOf(p.OutputUnique, f.Kept)
	f.Embed = len(p.Output) != len(p.OutputUnique)
	f.Identity = inOrder && len(f.Reduce) == 0 && !f.Embed && !f.Diagonal
	pl.Steps = steps
	pl.Final = f
}

func kindOf(st *Step) StepKind {
	free := len(st.LeftFree)+len(st.RightFree) > 0
	switch {
	case len(st.Contracted) > 0 && len(st.Batch) > 0:
		return BatchedGEMM
	case len(st.Contracted) > 0 && free:
		return GEMM
	case len(st.Contracted) > 0:
		return Dot
	case len(st.Batch) > 0 && free:
		return BatchedOuter
	case len(st.Batch) > 0:
		return Hadamard
	default:
		return Outer
	}
}

// orderBy returns the elements of s ordered by their position in ref;
// elements missing from ref keep their relative order after those found.
func orderBy(s, ref []int) []int {
	out := make([]int, 0, len(s))
	for _, l := range ref {
		if slices.Contains(s, l) {
			out = append(out, l)
		}
	}
	for _, l := range s {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

func concat(parts ...[]int) []int {
	out := []int{}
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func without(s, drop []int) []int {
	out := make([]int, 0, len(s))
	for _, l := range s {
		if !slices.Contains(drop, l) {
			out = append(out, l)
		}
	}
	return out
}

// permOf returns, for each label of want, its index in have, and whether
// that is the identity.
func permOf(want, have []int) ([]int, bool) {
	perm := make([]int, len(want))
	id := len(want) == len(have)
	for i, l := range want {
		perm[i] = slices.Index(have, l)
		if perm[i] != i {
			id = false
		}
	}
	return perm, id
}

func (nw *network) prodInt(labels []int) int {
	m := 1
	for _, l := range labels {
		m = satMul(m, nw.p.Extents[l])
	}
	return m
}

// noCopy reports whether kept is a ++ b ++ batch or b ++ a ++ batch.
func noCopy(kept, a, b, batch []int) bool {
	return slices.Equal(kept, concat(a, b, batch)) || slices.Equal(kept, concat(b, a, batch))
}

func intersect(a, b []int) []int {
	out := []int{}
	for _, l := range a {
		if slices.Contains(b, l) {
			out = append(out, l)
		}
	}
	return out
}

// writeScore rates how well step q can write its result as x ++ y ++
// batch or y ++ x ++ batch: 0 if it cannot, else 1 plus one for each of
// q's original operands that it could then read without a copy (keptOf
// gives an original operand's kept axes, nil for an intermediate).
func writeScore(q *Step, x, y, batch []int, keptOf func(id int, reduce []int) []int) int {
	best := 0
	for _, t := range [][]int{concat(x, y, batch), concat(y, x, batch)} {
		for _, sw := range []bool{false, true} {
			lf, rf := q.LeftFree, q.RightFree
			lid, rid := q.LeftID, q.RightID
			lred, rred := q.LeftReduce, q.RightReduce
			if sw {
				lf, rf, lid, rid, lred, rred = rf, lf, rid, lid, rred, lred
			}
			lf, rf, b := orderBy(lf, t), orderBy(rf, t), orderBy(q.Batch, t)
			if !slices.Equal(concat(lf, rf, b), t) {
				continue
			}
			score := 1
			if k := keptOf(lid, lred); k != nil && noCopy(k, lf, orderBy(q.Contracted, k), b) {
				score++
			}
			if k := keptOf(rid, rred); k != nil && noCopy(k, orderBy(q.Contracted, k), rf, b) {
				score++
			}
			best = max(best, score)
		}
	}
	return best
}
