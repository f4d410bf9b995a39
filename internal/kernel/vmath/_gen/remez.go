package main

import (
	"fmt"
	"math"
	"math/big"
)

// fitPrec is the working precision of the fits, in bits.
const fitPrec = 200

func bf(x float64) *big.Float { return new(big.Float).SetPrec(fitPrec).SetFloat64(x) }

// fitSpec asks for the polynomial P of degree deg that minimizes
// max |w(t)·(P(t) - g(t))| over t in [lo, hi] (weighted minimax).
type fitSpec struct {
	name   string
	lo, hi float64
	deg    int
	g, w   func(t *big.Float) *big.Float
}

// fitResult holds P's coefficients (constant term first) rounded to the
// element type, and the weighted error of the rounded polynomial.
type fitResult struct {
	coef   []float64
	maxErr float64 // max |w·(P-g)| with the rounded coefficients
	c0Lo   float64 // the constant term's rounding remainder, rounded
	minmax float64 // the levelled error of the exact Remez solution
}

// series returns sum_{n>=0} a(n)·t^n for a term function whose terms
// decrease geometrically (|t| < 1 in all uses).
func series(t *big.Float, a func(n int) *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(fitPrec)
	pow := bf(1)
	for n := 0; ; n++ {
		term := new(big.Float).SetPrec(fitPrec).Mul(pow, a(n))
		sum.Add(sum, term)
		if term.Sign() == 0 && n > 0 || n > 4 && term.Sign() != 0 && term.MantExp(nil)-sum.MantExp(nil) < -fitPrec {
			return sum
		}
		if t.Sign() == 0 {
			return sum
		}
		pow.Mul(pow, t)
	}
}

// factorial returns n! as a big.Float.
func factorial(n int) *big.Float {
	f := bf(1)
	for i := 2; i <= n; i++ {
		f.Mul(f, bf(float64(i)))
	}
	return f
}

func inv(x *big.Float) *big.Float { return new(big.Float).SetPrec(fitPrec).Quo(bf(1), x) }

// remez runs the exchange algorithm on a dense Chebyshev grid and returns
// the coefficients rounded to float32 (elem 4) or float64 (elem 8).
func remez(s fitSpec, elem int) fitResult {
	const grid = 3000
	n := s.deg + 1 // unknown coefficients; n+1 reference points
	// Grid of Chebyshev-distributed points (dense near the ends), skipping
	// points of zero weight (where the error vanishes identically).
	var ts []float64
	var gs, ws []*big.Float
	for i := 0; i < grid; i++ {
		t := (s.lo+s.hi)/2 + (s.hi-s.lo)/2*math.Cos(math.Pi*float64(grid-1-i)/float64(grid-1))
		w := s.w(bf(t))
		if w.Sign() == 0 {
			continue
		}
		ts = append(ts, t)
		gs = append(gs, s.g(bf(t)))
		ws = append(ws, w)
	}
	m := len(ts)
	// Initial reference: Chebyshev extrema.
	ref := make([]int, n+1)
	for j := range ref {
		ref[j] = int(math.Round(float64(m-1) * (1 - math.Cos(math.Pi*float64(j)/float64(n))) / 2))
	}
	var coef []*big.Float
	var levelled float64
	errAt := func(c []*big.Float, i int) *big.Float {
		p := horner(c, bf(ts[i]))
		p.Sub(p, gs[i])
		return p.Mul(p, ws[i])
	}
	for iter := 0; iter < 60; iter++ {
		// Solve sum_j c_j t_i^j + (-1)^i E / w_i = g_i.
		a := make([][]*big.Float, n+1)
		for i := range a {
			a[i] = make([]*big.Float, n+2)
			t := bf(ts[ref[i]])
			pw := bf(1)
			for j := 0; j < n; j++ {
				a[i][j] = new(big.Float).Copy(pw)
				pw.Mul(pw, t)
			}
			e := inv(ws[ref[i]])
			if i%2 == 1 {
				e.Neg(e)
			}
			a[i][n] = e
			a[i][n+1] = new(big.Float).Copy(gs[ref[i]])
		}
		sol := gauss(a)
		coef = sol[:n]
		levelled, _ = new(big.Float).Abs(sol[n]).Float64()
		// Alternating extrema of the error on the grid.
		errs := make([]float64, m)
		for i := range ts {
			errs[i], _ = errAt(coef, i).Float64()
		}
		var ext []int
		for i := 0; i < m; {
			j := i
			best := i
			for j < m && (errs[j] >= 0) == (errs[i] >= 0) {
				if math.Abs(errs[j]) > math.Abs(errs[best]) {
					best = j
				}
				j++
			}
			ext = append(ext, best)
			i = j
		}
		for len(ext) > n+1 {
			if math.Abs(errs[ext[0]]) < math.Abs(errs[ext[len(ext)-1]]) {
				ext = ext[1:]
			} else {
				ext = ext[:len(ext)-1]
			}
		}
		maxE := 0.0
		for _, e := range errs {
			maxE = math.Max(maxE, math.Abs(e))
		}
		if len(ext) < n+1 {
			break // the fit is already optimal to the grid's resolution
		}
		ref = ext
		if maxE <= levelled*(1+1e-9) {
			break
		}
	}
	res := fitResult{minmax: levelled}
	rc := make([]*big.Float, n)
	for j, c := range coef {
		v, _ := c.Float64()
		if elem == 4 {
			f, _ := c.Float32()
			v = float64(f)
		}
		res.coef = append(res.coef, v)
		rc[j] = bf(v)
		if j == 0 {
			lo, _ := new(big.Float).SetPrec(fitPrec).Sub(c, rc[0]).Float64()
			if elem == 4 {
				lo = float64(float32(lo))
			}
			res.c0Lo = lo
		}
	}
	for i := range ts {
		e, _ := errAt(rc, i).Float64()
		res.maxErr = math.Max(res.maxErr, math.Abs(e))
	}
	return res
}

// horner evaluates sum c_j t^j.
func horner(c []*big.Float, t *big.Float) *big.Float {
	p := new(big.Float).SetPrec(fitPrec)
	for j := len(c) - 1; j >= 0; j-- {
		p.Mul(p, t)
		p.Add(p, c[j])
	}
	return p
}

// gauss solves the augmented system a (rows × rows+1) by elimination with
// partial pivoting and returns the solution.
func gauss(a [][]*big.Float) []*big.Float {
	n := len(a)
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if new(big.Float).Abs(a[r][col]).Cmp(new(big.Float).Abs(a[piv][col])) > 0 {
				piv = r
			}
		}
		a[col], a[piv] = a[piv], a[col]
		if a[col][col].Sign() == 0 {
			panic(fmt.Sprintf("remez: singular system at column %d", col))
		}
		for r := col + 1; r < n; r++ {
			f := new(big.Float).SetPrec(fitPrec).Quo(a[r][col], a[col][col])
			for c := col; c <= n; c++ {
				a[r][c].Sub(a[r][c], new(big.Float).SetPrec(fitPrec).Mul(f, a[col][c]))
			}
		}
	}
	x := make([]*big.Float, n)
	for r := n - 1; r >= 0; r-- {
		s := new(big.Float).SetPrec(fitPrec).Copy(a[r][n])
		for c := r + 1; c < n; c++ {
			s.Sub(s, new(big.Float).SetPrec(fitPrec).Mul(a[r][c], x[c]))
		}
		x[r] = s.Quo(s, a[r][r])
	}
	return x
}
