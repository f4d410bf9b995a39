package enginetest

import (
	"errors"
	"math"
	"math/cmplx"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// The linear algebra suite: package linalg's operations on the engine's
// Linalg capability, checked by backward errors that scale with n·eps
// (never golden values), on batched inputs of every layout, with the
// numerical errors (which batch item, which pivot), untouched
// destinations and zero allocations of the Into forms.

// lmat is one matrix in complex128, column-major.
type lmat struct {
	n, m int // rows, cols
	v    []complex128
}

func (a lmat) at(i, j int) complex128 { return a.v[i+j*a.n] }

// lmats reads the matrices of x (rows, cols, batch...) in column-major
// batch order.
func lmats[T tf.Scalar](t testing.TB, x *tf.Tensor[T]) []lmat {
	t.Helper()
	s := x.Shape()
	nb := tf.Numel(s[2:])
	idx := make([]int, len(s))
	out := make([]lmat, nb)
	for q := range nb {
		r := q
		for d := 2; d < len(s); d++ {
			idx[d], r = r%s[d], r/s[d]
		}
		a := lmat{s[0], s[1], make([]complex128, s[0]*s[1])}
		for j := range s[1] {
			for i := range s[0] {
				idx[0], idx[1] = i, j
				v, err := x.At(idx...)
				mustNil(t, "At", err)
				a.v[i+j*s[0]] = toC(v)
			}
		}
		out[q] = a
	}
	return out
}

// lresidual returns ‖A·X − B‖_F and ‖A‖_F·‖X‖_F + ‖B‖_F, with A's
// conjugate transpose when adj.
func lresidual(a, x, b lmat) (res, scale float64) {
	var na, nx, nb float64
	for _, v := range a.v {
		na += sq(v)
	}
	for _, v := range x.v {
		nx += sq(v)
	}
	for _, v := range b.v {
		nb += sq(v)
	}
	for j := range x.m {
		for i := range a.n {
			var s complex128
			for p := range a.m {
				s += a.at(i, p) * x.at(p, j)
			}
			res += sq(s - b.at(i, j))
		}
	}
	return math.Sqrt(res), math.Sqrt(na)*math.Sqrt(nx) + math.Sqrt(nb)
}

func sq(v complex128) float64 { return real(v)*real(v) + imag(v)*imag(v) }

func unitRoundoff[T tf.Scalar]() float64 {
	if tf.DTypeOf[T]().Real() == tf.Float32 {
		return 0x1p-24
	}
	return 0x1p-53
}

// shifted adds s to the diagonal of every matrix of x (rows = cols).
func shifted[T tf.Scalar](t testing.TB, x *tf.Tensor[T], s float64) {
	sh := x.Shape()
	idx := make([]int, len(sh))
	for q := range tf.Numel(sh[2:]) {
		r := q
		for d := 2; d < len(sh); d++ {
			idx[d], r = r%sh[d], r/sh[d]
		}
		for i := range sh[0] {
			idx[0], idx[1] = i, i
			v, _ := x.At(idx...)
			mustNil(t, "Set", x.Set(v+castC[T](complex(s, 0)), idx...))
		}
	}
}

func (suite[T]) linalg(t *testing.T, e tf.Engine) {
	r := rng(41)
	u := unitRoundoff[T]()
	for _, n := range []int{0, 1, 5, 40} {
		batch := []int{2, 3}
		if n > 5 {
			batch = []int{2, 1}
		}
		shape := append([]int{n, n}, batch...)
		for kind := range NumLayouts {
			what := name("n=", n, " ", LayoutName(kind))
			a := Operand[T](t, r, shape, kind)
			shifted(t, a, float64(n)+1) // well conditioned
			b := Operand[T](t, r, append([]int{n, 2}, batch...), (kind+1)%NumLayouts)
			as := lmats(t, a)
			// Solve, into a destination of another layout.
			x := Operand[T](t, r, append([]int{n, 2}, batch...), (kind+2)%NumLayouts)
			mustNil(t, what+" SolveInto", linalg.SolveInto(e, x, a, b))
			bs := lmats(t, b)
			for q, xq := range lmats(t, x) {
				if res, scale := lresidual(as[q], xq, bs[q]); scale > 0 && !(res <= 8*float64(n)*u*scale) {
					t.Errorf("%s Solve item %d: residual %.3g > 8·n·eps·%.3g", what, q, res, scale)
				}
			}
			// Inv: A·inv(A) = I.
			inv, err := linalg.Inv(e, a)
			mustNil(t, what+" Inv", err)
			for q, iq := range lmats(t, inv) {
				id := lmat{n, n, make([]complex128, n*n)}
				for i := range n {
					id.v[i+i*n] = 1
				}
				if res, scale := lresidual(as[q], iq, id); scale > 0 && !(res <= 8*float64(n)*u*scale) {
					t.Errorf("%s Inv item %d: residual %.3g", what, q, res)
				}
			}
			// Cholesky of A·Aᴴ-like Hermitian: H = (A + Aᴴ)/2 + n·I is
			// diagonally dominant for these entries, hence positive definite.
			h := lmats(t, a)
			hpd := Operand[T](t, r, shape, kind)
			hv := make([]lmat, len(h))
			for q, aq := range h {
				hq := lmat{n, n, make([]complex128, n*n)}
				for j := range n {
					for i := range n {
						hq.v[i+j*n] = castCC[T]((aq.at(i, j) + cmplx.Conj(aq.at(j, i))) / 2)
					}
					hq.v[j+j*n] = complex(real(hq.v[j+j*n])+float64(n), 0)
				}
				hv[q] = hq
			}
			setMats(t, hpd, hv)
			l, err := linalg.Cholesky(e, hpd)
			mustNil(t, what+" Cholesky", err)
			for q, lq := range lmats(t, l) {
				lh := lmat{n, n, make([]complex128, n*n)}
				for j := range n {
					for i := range n {
						lh.v[i+j*n] = cmplx.Conj(lq.at(j, i))
					}
				}
				if res, scale := lresidual(lq, lh, hv[q]); scale > 0 && !(res <= 8*float64(n)*u*scale) {
					t.Errorf("%s Cholesky item %d: ‖A − L·Lᴴ‖ = %.3g", what, q, res)
				}
			}
			// Det against the product of the LU diagonal.
			lu, piv, err := linalg.LU(e, a)
			mustNil(t, what+" LU", err)
			det, err := linalg.Det(e, a)
			mustNil(t, what+" Det", err)
			pd, _ := piv.Data()
			dets := lmats(t, mustReshape(t, det, append([]int{1, 1}, batch...)))
			for q, f := range lmats(t, lu) {
				want := complex(1, 0)
				for i := range n {
					want *= f.at(i, i)
					if int(pd[q*n+i]) != i {
						want = -want
					}
				}
				if u > 1e-10 && cmplx.Abs(want) > math.MaxFloat32/2 {
					continue // overflows T
				}
				if got := dets[q].v[0]; !(cmplx.Abs(got-want) <= 8*float64(n+1)*u*cmplx.Abs(want)) {
					t.Errorf("%s Det item %d = %v, LU diagonal gives %v", what, q, got, want)
				}
			}
		}
	}
	linalgErrors[T](t, e)
}

func castCC[T tf.Scalar](c complex128) complex128 { return toC(castC[T](c)) }

func mustReshape[T tf.Scalar](t testing.TB, x *tf.Tensor[T], shape []int) *tf.Tensor[T] {
	y, err := x.Reshape(shape...)
	mustNil(t, "Reshape", err)
	return y
}

// setMats writes ms into the matrices of x.
func setMats[T tf.Scalar](t testing.TB, x *tf.Tensor[T], ms []lmat) {
	s := x.Shape()
	idx := make([]int, len(s))
	for q, a := range ms {
		r := q
		for d := 2; d < len(s); d++ {
			idx[d], r = r%s[d], r/s[d]
		}
		for j := range a.m {
			for i := range a.n {
				idx[0], idx[1] = i, j
				mustNil(t, "Set", x.Set(castC[T](a.at(i, j)), idx...))
			}
		}
	}
}

// linalgErrors checks the numerical errors and the destination rule.
func linalgErrors[T tf.Scalar](t *testing.T, e tf.Engine) {
	r := rng(43)
	a := Operand[T](t, r, []int{3, 3, 2, 2}, 0)
	shifted(t, a, 4)
	// Item (1, 1) singular (a zero column), item (0, 1) indefinite.
	for i := range 3 {
		mustNil(t, "Set", a.Set(0, i, 1, 1, 1))
	}
	mustNil(t, "Set", a.Set(castC[T](-100), 2, 2, 0, 1))
	b := Operand[T](t, r, []int{3, 1, 2, 2}, 0)
	x, _ := tf.Zeros[T](3, 1, 2, 2)
	err := linalg.SolveInto(e, x, a, b)
	if !errors.Is(err, tf.ErrSingular) || !strings.Contains(err.Error(), "batch item (1, 1)") || !strings.Contains(err.Error(), "U[1, 1]") {
		t.Errorf("SolveInto of a singular item: %v", err)
	}
	l, _ := tf.Zeros[T](3, 3, 2, 2)
	err = linalg.CholeskyInto(e, l, a)
	if !errors.Is(err, tf.ErrNotPositiveDefinite) || !strings.Contains(err.Error(), "batch item (0, 1)") || !strings.Contains(err.Error(), "order 3") {
		t.Errorf("CholeskyInto of an indefinite item: %v", err)
	}
	for _, d := range []*tf.Tensor[T]{x, l} {
		for _, m := range lmats(t, d) {
			for _, v := range m.v {
				if v != 0 {
					t.Fatal("destination written on a numerical error")
				}
			}
		}
	}
	if err := linalg.InvInto(e, a, a); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("InvInto aliasing its input: %v", err)
	}
	if raceEnabled {
		return
	}
	shifted(t, a, 0)
	sp := Operand[T](t, r, []int{3, 3, 2, 2}, 1)
	det, _ := tf.Zeros[T](2, 2)
	c := Operand[T](t, r, []int{3, 3, 2, 2}, 2)
	shifted(t, c, 4)
	for name, f := range map[string]func() error{
		"SolveInto": func() error { return linalg.SolveInto(e, x, c, b) },
		"InvInto":   func() error { return linalg.InvInto(e, sp, c) },
		"DetInto":   func() error { return linalg.DetInto(e, det, c) },
	} {
		mustNil(t, name, f())
		if n := testing.AllocsPerRun(5, func() { _ = f() }); n != 0 {
			t.Errorf("%s: %v allocations on a warm engine", name, n)
		}
	}
}
