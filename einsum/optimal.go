package einsum

import (
	"math"
	"math/bits"
)

// optimal finds a contraction sequence of minimal FLOPs by dynamic
// programming over subsets of operands:
//
//	cost(S) = min over splits S = A ∪ B of cost(A) + cost(B) + flops(A, B)
//
// where the tensor of a subset S keeps the labels of S that occur in the
// output or outside S (a single operand keeps all its labels). Every split
// is tried, outer products included, so the result is exact for the cost
// model. Subsets whose tensor exceeds the memory limit are excluded
// (except the full set). It visits about 3^n/2 splits; callers cap n at
// OptimalMax.
func (nw *network) optimal() ([][2]int, error) { return nw.dp(false, nil) }

// dpScratch holds the subset tables of dp for reuse across calls.
type dpScratch struct {
	U, R     []uint64
	cost, P  []float64
	split    []int
	out, tmp []uint64
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// dp is the subset search; with connected set, only splits whose halves
// share a label are tried (no outer products), which is much faster on
// sparse networks and exact among paths without outer products.
func (nw *network) dp(connected bool, sc *dpScratch) ([][2]int, error) {
	n := nw.n
	if n <= 1 {
		return nil, nil
	}
	L := len(nw.ext)
	W := max((L+63)/64, 1)
	full := 1<<n - 1
	if sc == nil {
		sc = &dpScratch{}
	}
	sc.U, sc.R = grow(sc.U, (full+1)*W), grow(sc.R, (full+1)*W)
	sc.cost, sc.P, sc.split = grow(sc.cost, full+1), grow(sc.P, full+1), grow(sc.split, full+1)
	sc.out, sc.tmp = grow(sc.out, W), grow(sc.tmp, W)
	U, R, out := sc.U, sc.R, sc.out
	for l, o := range nw.inOut {
		if o {
			out[l/64] |= 1 << (l % 64)
		}
	}
	for i, ls := range nw.inputs {
		s := 1 << i
		for _, l := range ls {
			U[s*W+l/64] |= 1 << (l % 64)
		}
		copy(R[s*W:(s+1)*W], U[s*W:(s+1)*W])
	}
	for s := 1; s <= full; s++ {
		if s&(s-1) == 0 {
			continue
		}
		low := s & -s
		r := s ^ low
		for w := range W {
			U[s*W+w] = U[r*W+w] | U[low*W+w]
		}
	}
	prod := func(words []uint64) float64 {
		p := 1.0
		for w, x := range words {
			for x != 0 {
				t := bits.TrailingZeros64(x)
				p *= nw.ext[w*64+t]
				x &= x - 1
			}
		}
		return p
	}
	cost := sc.cost
	P := sc.P // prod of extents of R[s]
	for i := range n {
		P[1<<i] = prod(R[(1<<i)*W : (1<<i+1)*W])
	}
	split, tmp := sc.split, sc.tmp
	for s := 1; s <= full; s++ {
		if s&(s-1) == 0 {
			continue
		}
		c := full ^ s
		for w := range W {
			R[s*W+w] = U[s*W+w] & (out[w] | U[c*W+w])
		}
		cost[s] = math.Inf(1)
		P[s] = prod(R[s*W : (s+1)*W])
		if nw.limit > 0 && s != full && P[s] > nw.limit {
			continue
		}
		low := s & -s
		best, bestA := math.Inf(1), 0
		for a := (s - 1) & s; a > 0; a = (a - 1) & s {
			if a&low == 0 {
				continue
			}
			b := s ^ a
			base := cost[a] + cost[b]
			if !(base < best) {
				continue
			}
			removed, shared := false, false
			for w := range W {
				x := R[a*W+w] | R[b*W+w]
				tmp[w] = x
				if x&^R[s*W+w] != 0 {
					removed = true
				}
				if R[a*W+w]&R[b*W+w] != 0 {
					shared = true
				}
			}
			if connected && !shared {
				continue
			}
			var f float64
			if P[a] > 0 && P[b] > 0 {
				// prod(R[a] ∪ R[b]) = prod(R[a]) prod(R[b]) / prod(R[a] ∩ R[b])
				for w := range W {
					tmp[w] = R[a*W+w] & R[b*W+w]
				}
				f = P[a] * P[b] / prod(tmp)
			} else {
				f = prod(tmp)
			}
			if removed {
				f *= 2
			}
			if base+f < best {
				best, bestA = base+f, a
			}
		}
		cost[s], split[s] = best, bestA
	}
	if math.IsInf(cost[full], 1) {
		return nil, newErr("plan", ErrMemoryLimit, -1, "",
			"no contraction path keeps every intermediate within the memory limit of %g elements", nw.limit)
	}
	var ssa [][2]int
	var build func(s int) int
	build = func(s int) int {
		if s&(s-1) == 0 {
			return bits.TrailingZeros(uint(s))
		}
		a := build(split[s])
		b := build(s ^ split[s])
		ssa = append(ssa, [2]int{a, b})
		return n + len(ssa) - 1
	}
	build(full)
	return ssa, nil
}
