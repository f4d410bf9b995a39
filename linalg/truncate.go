package linalg

// Truncation chooses how many singular values a truncated SVD keeps: the
// fewest that satisfy every cutoff that is set, within [MinRank, MaxRank],
// and never a cut inside a multiplet. With σ₀ ≥ σ₁ ≥ … ≥ σₖ₋₁ the
// singular values, keeping r of them discards the weight
// Σ_{i ≥ r} σᵢ², and its share of the total Σ σᵢ² is the truncation
// error (the squared relative Frobenius error ‖A − Aᵣ‖²/‖A‖², the
// quantity tensor-network codes bound).
//
// The zero value keeps everything (a thin SVD).
type Truncation struct {
	// MaxRank keeps at most this many values (0: no limit).
	MaxRank int
	// MinRank keeps at least this many values, or all there are when
	// fewer (0 counts as 1, so that a bond never vanishes).
	MinRank int
	// Cutoff drops the values σᵢ ≤ Cutoff (absolute; 0: none).
	Cutoff float64
	// RelCutoff drops the values σᵢ ≤ RelCutoff·σ₀ (0: none).
	RelCutoff float64
	// DiscardedWeight keeps the fewest values whose discarded share
	// Σ_{i ≥ r} σᵢ² / Σ σᵢ² is at most DiscardedWeight (0: none).
	DiscardedWeight float64
	// Degeneracy is the relative gap below which neighbouring values form
	// one multiplet, σᵢ − σᵢ₊₁ ≤ Degeneracy·σᵢ: a cut never falls inside
	// one, because the truncated factors are not defined there (any basis
	// of the multiplet's space is as good) and their derivatives are
	// singular. 0 means the default, 1e-10 for float64 and complex128
	// inputs and 1e-4 for float32 and complex64; a negative value turns
	// the rule off.
	Degeneracy float64
	// ShrinkMultiplets makes a cut that would fall inside a multiplet
	// move to the multiplet's start (fewer values kept) instead of its
	// end. A cut also moves to the start when its end would exceed
	// MaxRank; MinRank is kept even inside a multiplet.
	ShrinkMultiplets bool
}

// TruncationInfo reports what a truncated SVD kept.
type TruncationInfo struct {
	// Rank is the number of values kept, the extent of the new bond.
	Rank int
	// Discarded is the discarded weight Σ_{i ≥ Rank} σᵢ².
	Discarded float64
	// Error is the truncation error Discarded / Σ σᵢ² (0 for a zero
	// matrix).
	Error float64
}

// truncate returns the rank t keeps of the descending values s (read
// through at) and what it discards; single is the precision of the input
// (float32 or complex64), which sets the default multiplet tolerance.
func (t Truncation) truncate(k int, at func(int) float64, single bool) TruncationInfo {
	total := 0.0
	for i := range k {
		total += at(i) * at(i)
	}
	r := k
	if t.MaxRank > 0 {
		r = min(r, t.MaxRank)
	}
	if k > 0 {
		s0 := at(0)
		for r > 0 && (t.Cutoff > 0 && at(r-1) <= t.Cutoff || t.RelCutoff > 0 && at(r-1) <= t.RelCutoff*s0) {
			r--
		}
	}
	if t.DiscardedWeight > 0 && total > 0 {
		// Drop values from the end while the discarded share stays within
		// the bound.
		tail := 0.0
		for i := k - 1; i >= r; i-- {
			tail += at(i) * at(i)
		}
		for r > 0 && (tail+at(r-1)*at(r-1))/total <= t.DiscardedWeight {
			r--
			tail += at(r) * at(r)
		}
	}
	lo := min(max(t.MinRank, 1), k)
	r = max(r, lo)
	r = t.multiplet(k, r, lo, at, single)
	disc := 0.0
	for i := r; i < k; i++ {
		disc += at(i) * at(i)
	}
	info := TruncationInfo{Rank: r, Discarded: disc}
	if total > 0 {
		info.Error = disc / total
	}
	return info
}

// multiplet moves a cut at r (0 < r < k) out of a multiplet: to its end,
// or to its start with ShrinkMultiplets or when the end passes MaxRank,
// but never below lo.
func (t Truncation) multiplet(k, r, lo int, at func(int) float64, single bool) int {
	tol := t.Degeneracy
	if tol == 0 {
		tol = 1e-10
		if single {
			tol = 1e-4
		}
	}
	same := func(i int) bool { // σᵢ₋₁ and σᵢ in one multiplet (zeros form none)
		a, b := at(i-1), at(i)
		return a > 0 && a-b <= tol*a
	}
	if tol < 0 || r <= 0 || r >= k || !same(r) {
		return r
	}
	end := r
	for end < k && same(end) {
		end++
	}
	start := r
	for start > 0 && same(start) {
		start--
	}
	if !t.ShrinkMultiplets && (t.MaxRank <= 0 || end <= t.MaxRank) {
		return end
	}
	return max(start, lo)
}
