package lapack

import (
	"math"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Expm computes the matrix exponential of the n×n matrix A,
//
//	X = exp(A) = Σₖ Aᵏ/k!,
//
// by scaling and squaring with a diagonal Padé approximant (Higham, "The
// scaling and squaring method for the matrix exponential revisited", SIAM
// J. Matrix Anal. Appl. 26(4), 2005): with the 1-norm ‖A‖₁ against
// Higham's bounds θₘ, the lowest degree m ∈ {3, 5, 7, 9, 13} whose
// θₘ ≥ ‖A‖₁ is taken; above θ₁₃, A is scaled by 2⁻ˢ with the least s that
// brings ‖2⁻ˢA‖₁ under θ₁₃ and the result squared s times,
// X = r₁₃(2⁻ˢA)^(2ˢ). The approximant rₘ = qₘ(A)⁻¹·pₘ(A) is formed as
// pₘ = V + U, qₘ = V − U from the even part V and odd part U of the
// numerator, and the denominator solved by [Getrf] and [Getrs]. float32 and
// complex64 use the single-precision bounds and degrees 3, 5 and 7 only.
// The backward error of the approximant is then below the unit roundoff of
// T (in exact arithmetic); the forward error is that times the condition of
// exp at A, which grows with ‖A‖ for non-normal A.
//
// It returns 0 on success, 1 when A holds a NaN or an infinity (checked
// first: X is then not written), and 2 when the result overflowed (X holds
// an infinity or NaN, as when exp of an eigenvalue exceeds the range of T).
//
// X may be A itself (the same Data, Off and strides: A is read in full
// before X is written) but must not overlap A otherwise. Any strides are
// accepted for A; X's must address distinct elements. The products run
// through gemm.Gemm with ws and r; ws's scratch holds 7·n² elements of T.
// The pivots of the solve live on the stack for n ≤ 160 and in a pool
// above, so a warm call allocates nothing. The cost is (πₘ + s + 4/3)·n³
// multiply-adds with πₘ = 2, 3, 4, 5, 6 products for m = 3 … 13.
func Expm[T Scalar](ws *Workspace, r par.Runner, n int, a, x gemm.Mat[T]) int {
	if n <= 0 {
		return 0
	}
	norm := 0.0
	for j := 0; j < n; j++ {
		col := 0.0
		for i := 0; i < n; i++ {
			col += abs(a.Data[a.Off+i*a.RS+j*a.CS])
		}
		if col != col || math.IsInf(col, 0) {
			return 1
		}
		norm = max(norm, col)
	}
	if n == 1 {
		v := toC128(a.Data[a.Off])
		x.Data[x.Off] = fromC128[T](expScalar(v))
		if !finite(x.Data[x.Off]) {
			return 2
		}
		return 0
	}

	theta, deg := expmTheta64[:], [...]int{3, 5, 7, 9, 13}
	if isSingle[T]() {
		theta, deg = expmTheta32[:], [...]int{3, 5, 7, 7, 7}
	}
	top := theta[len(theta)-1]
	m, s := deg[len(theta)-1], 0
	for k, th := range theta {
		if norm <= th {
			m = deg[k]
			break
		}
	}
	if norm > top {
		// The least s ≥ 0 with norm/2ˢ ≤ top.
		fr, e := math.Frexp(norm / top) // norm/top = fr·2ᵉ, fr ∈ [½, 1)
		s = e
		if fr == 0.5 {
			s--
		}
		s = max(s, 0)
	}

	nn := n * n
	buf := scratch[T](ws, 7*nn)
	mat := func(k int) gemm.Mat[T] { return gemm.Mat[T]{Data: buf[k*nn : (k+1)*nn], RS: 1, CS: n} }
	as, a2, a4, a6, tm, u, v := mat(0), mat(1), mat(2), mat(3), mat(4), mat(5), mat(6)

	scale := fromReal[T](math.Ldexp(1, -s))
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			as.Data[i+j*n] = a.Data[a.Off+i*a.RS+j*a.CS] * scale
		}
	}
	gw := &ws.Gemm
	gemm.Gemm(gw, r, n, n, n, 1, as, as, 0, a2)
	c := padeCoef[T](m)
	switch m {
	case 13:
		gemm.Gemm(gw, r, n, n, n, 1, a2, a2, 0, a4)
		gemm.Gemm(gw, r, n, n, n, 1, a4, a2, 0, a6)
		// U = A·(A6·(b13·A6 + b11·A4 + b9·A2) + b7·A6 + b5·A4 + b3·A2 + b1·I)
		combine(n, tm.Data, 0, c[13], a6.Data, c[11], a4.Data, c[9], a2.Data)
		combine(n, v.Data, c[1], c[7], a6.Data, c[5], a4.Data, c[3], a2.Data)
		gemm.Gemm(gw, r, n, n, n, 1, a6, tm, 1, v)
		gemm.Gemm(gw, r, n, n, n, 1, as, v, 0, u)
		// V = A6·(b12·A6 + b10·A4 + b8·A2) + b6·A6 + b4·A4 + b2·A2 + b0·I
		combine(n, tm.Data, 0, c[12], a6.Data, c[10], a4.Data, c[8], a2.Data)
		combine(n, v.Data, c[0], c[6], a6.Data, c[4], a4.Data, c[2], a2.Data)
		gemm.Gemm(gw, r, n, n, n, 1, a6, tm, 1, v)
	default:
		// U = A·Σ b₂ₖ₊₁·A²ᵏ and V = Σ b₂ₖ·A²ᵏ over 2k ≤ m; A⁸ lives in tm.
		var p4, p6, p8 []T
		var c4, c6, c8, d4, d6, d8 T
		if m >= 5 {
			gemm.Gemm(gw, r, n, n, n, 1, a2, a2, 0, a4)
			p4, c4, d4 = a4.Data, c[5], c[4]
		}
		if m >= 7 {
			gemm.Gemm(gw, r, n, n, n, 1, a4, a2, 0, a6)
			p6, c6, d6 = a6.Data, c[7], c[6]
		}
		if m >= 9 {
			gemm.Gemm(gw, r, n, n, n, 1, a6, a2, 0, tm)
			p8, c8, d8 = tm.Data, c[9], c[8]
		}
		combine4(n, v.Data, c[1], c[3], a2.Data, c4, p4, c6, p6, c8, p8)
		gemm.Gemm(gw, r, n, n, n, 1, as, v, 0, u)
		combine4(n, v.Data, c[0], c[2], a2.Data, d4, p4, d6, p6, d8, p8)
	}

	// p = V + U goes to X, q = V − U stays in v; X = q⁻¹·p.
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			k := i + j*n
			x.Data[x.Off+i*x.RS+j*x.CS] = v.Data[k] + u.Data[k]
			v.Data[k] -= u.Data[k]
		}
	}
	var stack [160]int
	var ipiv []int
	var pooled *[]int
	if n <= len(stack) {
		ipiv = stack[:n]
	} else {
		pooled = pivPool.Get().(*[]int)
		if cap(*pooled) < n {
			*pooled = make([]int, n)
		}
		ipiv = (*pooled)[:n]
	}
	// Getrf and Getrs use ws's GEMM buffers only, not its scratch array
	// that holds v.
	Getrf(ws, r, n, n, v, ipiv)
	Getrs(ws, r, NoTrans, n, n, v, ipiv, x)
	if pooled != nil {
		pivPool.Put(pooled)
	}

	// Squaring, alternating between X and tm.
	src, dst := x, tm
	for k := 0; k < s; k++ {
		gemm.Gemm(gw, r, n, n, n, 1, src, src, 0, dst)
		src, dst = dst, src
	}
	if s%2 == 1 {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				x.Data[x.Off+i*x.RS+j*x.CS] = tm.Data[i+j*n]
			}
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if !finite(x.Data[x.Off+i*x.RS+j*x.CS]) {
				return 2
			}
		}
	}
	return 0
}

// pivPool holds pivot arrays for Expm orders above its stack array.
var pivPool = sync.Pool{New: func() any { return new([]int) }}

// Higham's θₘ for m = 3, 5, 7, 9, 13 in double precision and m = 3, 5, 7
// in single precision: the largest ‖A‖₁ for which the degree-m Padé
// approximant has a backward error below the unit roundoff.
var (
	expmTheta64 = [...]float64{1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1, 2.097847961257068, 5.371920351148152}
	expmTheta32 = [...]float64{4.258730016922831e-1, 1.880152677804762, 3.925724783138660}
)

// padeCoef returns the coefficients b₀ … bₘ of the numerator of the
// degree-m diagonal Padé approximant of eˣ, scaled to integers:
// bⱼ ∝ (2m−j)!·m! / ((2m)!·j!·(m−j)!).
func padeCoef[T Scalar](m int) [14]T {
	var b [14]float64
	switch m {
	case 3:
		b = [14]float64{120, 60, 12, 1}
	case 5:
		b = [14]float64{30240, 15120, 3360, 420, 30, 1}
	case 7:
		b = [14]float64{17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1}
	case 9:
		b = [14]float64{17643225600, 8821612800, 2075673600, 302702400, 30270240,
			2162160, 110880, 3960, 90, 1}
	case 13:
		b = [14]float64{64764752532480000, 32382376266240000, 7771770303897600,
			1187353796428800, 129060195264000, 10559470521600, 670442572800,
			33522128640, 1323241920, 40840800, 960960, 16380, 182, 1}
	}
	var c [14]T
	for i, v := range b {
		c[i] = fromReal[T](v)
	}
	return c
}

// combine sets the compact n×n dst = id·I + c1·p1 + c2·p2 + c3·p3.
func combine[T Scalar](n int, dst []T, id, c1 T, p1 []T, c2 T, p2 []T, c3 T, p3 []T) {
	for k := range dst[:n*n] {
		dst[k] = c1*p1[k] + c2*p2[k] + c3*p3[k]
	}
	for i := 0; i < n; i++ {
		dst[i+i*n] += id
	}
}

// combine4 sets the compact dst = id·I + c2·p2 + c4·p4 + c6·p6 + c8·p8,
// skipping the terms whose p is nil.
func combine4[T Scalar](n int, dst []T, id, c2 T, p2 []T, c4 T, p4 []T, c6 T, p6 []T, c8 T, p8 []T) {
	for k := range dst[:n*n] {
		dst[k] = c2 * p2[k]
	}
	for _, t := range [...]struct {
		c T
		p []T
	}{{c4, p4}, {c6, p6}, {c8, p8}} {
		if t.p == nil {
			continue
		}
		for k := range dst[:n*n] {
			dst[k] += t.c * t.p[k]
		}
	}
	for i := 0; i < n; i++ {
		dst[i+i*n] += id
	}
}

// isSingle reports whether T has single-precision parts.
func isSingle[T Scalar]() bool {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return true
	}
	return false
}

// finite reports whether x has no NaN or infinite part.
func finite[T Scalar](x T) bool {
	z := toC128(x)
	return !math.IsNaN(real(z)) && !math.IsInf(real(z), 0) && !math.IsNaN(imag(z)) && !math.IsInf(imag(z), 0)
}

// expScalar returns eᶻ.
func expScalar(z complex128) complex128 {
	if imag(z) == 0 {
		return complex(math.Exp(real(z)), 0)
	}
	e := math.Exp(real(z))
	sn, cs := math.Sincos(imag(z))
	return complex(e*cs, e*sn)
}
