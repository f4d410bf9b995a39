package einsum

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// This file executes plans in the simplest possible way, using only the
// fields of Step and Final as an executor would, and compares with a
// direct nested loop over all labels. It proves that the lowering is
// complete and correct.

// lt is a dense column-major tensor whose axes carry label ids.
type lt struct {
	labels []int
	dims   []int
	data   []float64
}

func (t *lt) offset(idx []int) int {
	off, stride := 0, 1
	for a, d := range t.dims {
		off += idx[a] * stride
		stride *= d
	}
	return off
}

func prodDims(d []int) int {
	n := 1
	for _, x := range d {
		n *= x
	}
	return n
}

// each calls f with every multi-index of dims (first index fastest).
func each(dims []int, f func(idx []int)) {
	n := prodDims(dims)
	idx := make([]int, len(dims))
	for range n {
		f(idx)
		for a := range idx {
			idx[a]++
			if idx[a] < dims[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// operand builds the diagonal-extracted, broadcast-expanded view of
// operand k as a tensor over p.Unique[k].
func operand(p *Problem, k int, data []float64) *lt {
	u := p.Unique[k]
	dims := make([]int, len(u))
	for i, l := range u {
		dims[i] = p.Extents[l]
	}
	out := &lt{labels: u, dims: dims, data: make([]float64, prodDims(dims))}
	src := &lt{labels: p.Inputs[k], dims: p.Shapes[k], data: data}
	sidx := make([]int, len(src.dims))
	each(dims, func(idx []int) {
		for a, l := range src.labels {
			if p.Broadcast[k][a] {
				sidx[a] = 0
			} else {
				sidx[a] = idx[slices.Index(u, l)]
			}
		}
		out.data[out.offset(idx)] = src.data[src.offset(sidx)]
	})
	return out
}

// reduce sums the labels in drop, keeping the others in order.
func reduce(p *Problem, t *lt, drop []int) *lt {
	var keep, kdims []int
	for a, l := range t.labels {
		if !slices.Contains(drop, l) {
			keep = append(keep, l)
			kdims = append(kdims, t.dims[a])
		}
	}
	out := &lt{labels: keep, dims: kdims, data: make([]float64, prodDims(kdims))}
	oidx := make([]int, len(keep))
	each(t.dims, func(idx []int) {
		j := 0
		for a, l := range t.labels {
			if !slices.Contains(drop, l) {
				oidx[j] = idx[a]
				j++
			}
		}
		out.data[out.offset(oidx)] += t.data[t.offset(idx)]
	})
	return out
}

// permute returns the tensor with axis i taken from axis perm[i].
func permute(t *lt, perm []int) *lt {
	labels := make([]int, len(perm))
	dims := make([]int, len(perm))
	for i, a := range perm {
		labels[i], dims[i] = t.labels[a], t.dims[a]
	}
	out := &lt{labels: labels, dims: dims, data: make([]float64, len(t.data))}
	sidx := make([]int, len(perm))
	each(dims, func(idx []int) {
		for i, a := range perm {
			sidx[a] = idx[i]
		}
		out.data[out.offset(idx)] = t.data[t.offset(sidx)]
	})
	return out
}

// runPlan executes pl on the operands' column-major data.
func runPlan(t testing.TB, pl *Plan, data [][]float64) *lt {
	p := pl.Problem
	n := len(p.Inputs)
	tensors := make([]*lt, n+len(pl.Steps))
	for k := range n {
		tensors[k] = operand(p, k, data[k])
	}
	// Also follow the linear path to check the slots.
	cur := make([]int, n)
	for i := range cur {
		cur[i] = i
	}
	for s, st := range pl.Steps {
		if cur[st.Left] != st.LeftID || cur[st.Right] != st.RightID || st.Result != n+s {
			t.Fatalf("step %d: slots (%d,%d) hold ids (%d,%d), step says (%d,%d)", s, st.Left, st.Right, cur[st.Left], cur[st.Right], st.LeftID, st.RightID)
		}
		if pl.Path[s] != [2]int{st.Left, st.Right} {
			t.Fatalf("step %d: Path %v, step (%d,%d)", s, pl.Path[s], st.Left, st.Right)
		}
		lo, hi := min(st.Left, st.Right), max(st.Left, st.Right)
		cur = slices.Delete(cur, hi, hi+1)
		cur = slices.Delete(cur, lo, lo+1)
		cur = append(cur, st.Result)

		a, b := tensors[st.LeftID], tensors[st.RightID]
		if !slices.Equal(a.labels, st.LeftLabels) || !slices.Equal(b.labels, st.RightLabels) {
			t.Fatalf("step %d: operand labels %v,%v; step says %v,%v", s, a.labels, b.labels, st.LeftLabels, st.RightLabels)
		}
		a, b = reduce(p, a, st.LeftReduce), reduce(p, b, st.RightReduce)
		if !slices.Equal(a.labels, st.LeftKept) || !slices.Equal(b.labels, st.RightKept) {
			t.Fatalf("step %d: kept %v,%v; step says %v,%v", s, a.labels, b.labels, st.LeftKept, st.RightKept)
		}
		if st.LeftTransposed != slices.Equal(a.labels, concat(st.Contracted, st.LeftFree, st.Batch)) ||
			st.RightTransposed != slices.Equal(b.labels, concat(st.RightFree, st.Contracted, st.Batch)) {
			t.Fatalf("step %d: transposed flags %v,%v do not match %v,%v", s, st.LeftTransposed, st.RightTransposed, a.labels, b.labels)
		}
		a, b = permute(a, st.LeftPerm), permute(b, st.RightPerm)
		if !slices.Equal(a.labels, concat(st.LeftFree, st.Contracted, st.Batch)) ||
			!slices.Equal(b.labels, concat(st.Contracted, st.RightFree, st.Batch)) {
			t.Fatalf("step %d: permuted labels %v,%v do not match the groups", s, a.labels, b.labels)
		}
		if prodDims(a.dims) != st.M*st.K*st.BatchSize || prodDims(b.dims) != st.K*st.N*st.BatchSize {
			t.Fatalf("step %d: M,N,K,batch = %d,%d,%d,%d do not fit %v,%v", s, st.M, st.N, st.K, st.BatchSize, a.dims, b.dims)
		}
		// Batched GEMM: C[m,n,q] = sum_k A[m,k,q] B[k,n,q], column-major.
		M, N, K := st.M, st.N, st.K
		c := make([]float64, M*N*st.BatchSize)
		for q := range st.BatchSize {
			for j := range N {
				for i := range M {
					sum := 0.0
					for l := range K {
						sum += a.data[i+M*(l+K*q)] * b.data[l+K*(j+N*q)]
					}
					c[i+M*(j+N*q)] = sum
				}
			}
		}
		dims := make([]int, len(st.Out))
		for i, l := range st.Out {
			dims[i] = p.Extents[l]
		}
		if float64(len(c)) != st.Size {
			t.Fatalf("step %d: Size %g, result has %d elements", s, st.Size, len(c))
		}
		tensors[st.Result] = &lt{labels: st.Out, dims: dims, data: c}
	}
	f := pl.Final
	x := tensors[f.From]
	if !slices.Equal(x.labels, f.Labels) {
		t.Fatalf("final: labels %v, Final says %v", x.labels, f.Labels)
	}
	x = reduce(p, x, f.Reduce)
	if !slices.Equal(x.labels, f.Kept) {
		t.Fatalf("final: kept %v, Final says %v", x.labels, f.Kept)
	}
	x = permute(x, f.Perm)
	// Embed into the output (repeated labels: zero off the diagonal).
	dims := make([]int, len(p.Output))
	for i, l := range p.Output {
		dims[i] = p.Extents[l]
	}
	out := &lt{labels: p.Output, dims: dims, data: make([]float64, prodDims(dims))}
	uidx := make([]int, len(x.labels))
	each(dims, func(idx []int) {
		for i := range uidx {
			uidx[i] = -1
		}
		for a, l := range p.Output {
			u := slices.Index(x.labels, l)
			if uidx[u] >= 0 && uidx[u] != idx[a] {
				return
			}
			uidx[u] = idx[a]
		}
		out.data[out.offset(idx)] = x.data[x.offset(uidx)]
	})
	return out
}

// naive evaluates the expression with one loop over all labels; it also
// returns the sum of |terms| per output element for the error bound.
func naive(p *Problem, data [][]float64) (val, mag []float64) {
	dims := make([]int, len(p.Output))
	for i, l := range p.Output {
		dims[i] = p.Extents[l]
	}
	out := &lt{dims: dims}
	val = make([]float64, prodDims(dims))
	mag = make([]float64, len(val))
	oidx := make([]int, len(dims))
	each(p.Extents, func(lidx []int) {
		prod := 1.0
		for k, in := range p.Inputs {
			src := &lt{dims: p.Shapes[k]}
			sidx := make([]int, len(in))
			for a, l := range in {
				if !p.Broadcast[k][a] {
					sidx[a] = lidx[l]
				}
			}
			prod *= data[k][src.offset(sidx)]
		}
		for a, l := range p.Output {
			oidx[a] = lidx[l]
		}
		o := out.offset(oidx)
		val[o] += prod
		mag[o] += math.Abs(prod)
	})
	return val, mag
}

func randomData(rng *rand.Rand, p *Problem) [][]float64 {
	data := make([][]float64, len(p.Shapes))
	for k, s := range p.Shapes {
		data[k] = make([]float64, prodDims(s))
		for i := range data[k] {
			data[k][i] = rng.Float64()*2 - 1
		}
	}
	return data
}

// checkPlan executes pl and compares with the naive loop. Each output
// element is a sum of at most T = prod(extents) products of n factors;
// the error of any summation order is bounded by (T + n) * eps * sum|terms|.
func checkPlan(t *testing.T, pl *Plan, data [][]float64) {
	t.Helper()
	p := pl.Problem
	got := runPlan(t, pl, data)
	want, mag := naive(p, data)
	terms := float64(prodDims(p.Extents) + len(p.Inputs))
	for i := range want {
		if d := math.Abs(got.data[i] - want[i]); d > terms*0x1p-52*mag[i] {
			t.Fatalf("%s (%s): element %d = %g, want %g (|diff| %g)", p, pl.Strategy, i, got.data[i], want[i], d)
		}
	}
}

func TestExecuteTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		s      string
		shapes [][]int
	}{
		{"ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
		{"ij,jk", [][]int{{3, 4}, {4, 5}}},
		{"ij,kj->ik", [][]int{{3, 4}, {5, 4}}},
		{"ji,jk->ki", [][]int{{4, 3}, {4, 5}}},
		{"ii->i", [][]int{{3, 3}}},
		{"iii->i", [][]int{{3, 3, 3}}},
		{"jii->ij", [][]int{{2, 3, 3}}},
		{"ii", [][]int{{4, 4}}},
		{"i->ii", [][]int{{3}}},
		{"ij->iji", [][]int{{2, 3}}},
		{"ij->ji", [][]int{{2, 3}}},
		{"ij->", [][]int{{2, 3}}},
		{"ij->ij", [][]int{{2, 3}}},
		{"->", [][]int{{}}},
		{",->", [][]int{{}, {}}},
		{",i->i", [][]int{{}, {4}}},
		{"i,i->", [][]int{{5}, {5}}},
		{"i,i->i", [][]int{{5}, {5}}},
		{"i,j->ij", [][]int{{2}, {3}}},
		{"i,j->ji", [][]int{{2}, {3}}},
		{"bij,bjk->bik", [][]int{{2, 3, 4}, {2, 4, 5}}},
		{"ijb,jkb->ikb", [][]int{{3, 4, 2}, {4, 5, 2}}},
		{"ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 5}}},
		{"ea,fb,abcd,gc,hd->efgh", [][]int{{2, 3}, {2, 2}, {3, 2, 2, 3}, {2, 2}, {1, 3}}},
		{"ijk,jl,kl->il", [][]int{{2, 3, 4}, {3, 5}, {4, 5}}},
		{"iij,jkk,l->il", [][]int{{3, 3, 2}, {2, 4, 4}, {2}}}, // diagonals and a pre-reduced operand
		{"ab,ab,ab->", [][]int{{2, 3}, {2, 3}, {2, 3}}},
		{"ij,jk->ik", [][]int{{3, 1}, {4, 5}}},             // broadcast contracted label
		{"ij,jk->ik", [][]int{{3, 1}, {0, 5}}},             // 1 against 0
		{"ij,jk->ik", [][]int{{0, 4}, {4, 5}}},             // empty output
		{"...ij,...jk", [][]int{{2, 1, 3, 4}, {5, 4, 2}}},  // broadcast ellipsis
		{"...ij,...jk->ik", [][]int{{2, 3, 4}, {2, 4, 2}}}, // summed ellipsis
		{"i...,...->...", [][]int{{2, 3}, {3}}},
		{"abc,cd,de,ea->b", [][]int{{2, 3, 2}, {2, 3}, {3, 2}, {2, 2}}},
		{"ab,bc,cd,de,ef,fa->", [][]int{{2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}, {3, 2}}},
	}
	for _, c := range cases {
		p := mustBind(t, c.s, c.shapes...)
		data := randomData(rng, p)
		for _, s := range []Strategy{Auto, Greedy, Optimal, RandomGreedy, Search} {
			pl, err := NewPlan(p, Options{Strategy: s, Restarts: 8})
			if err != nil {
				t.Fatalf("%s: %v", c.s, err)
			}
			checkPlan(t, pl, data)
		}
	}
}
