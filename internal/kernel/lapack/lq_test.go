package lapack

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// reflRows returns an r×c test matrix in layout l whose first k rows are
// those of a (the LQ reflectors), the rest random.
func reflRows[T Scalar](rng *rand.Rand, a testMat[T], r, c, k int, l layout) testMat[T] {
	return newMat[T](r, c, l, func(i, j int) complex128 {
		if i < k {
			return a.c128(i, j)
		}
		return rnd[T](rng)
	})
}

func checkLQ[T Scalar](t *testing.T, rng *rand.Rand, ws *Workspace, name string, ref dense128, a testMat[T], tau []T) {
	t.Helper()
	m, n := ref.r, ref.c
	k := min(m, n)
	tol := 8 * float64(max(m, n, 1)) * eps[T]()
	ld := lowerL(a, k)
	q := reflRows(rng, a, k, n, k, layout((m+n)%int(nLayouts)))
	Orglq(ws, nil, k, n, k, q.Mat, tau)
	checkGuards(t, q)
	qd := toDense(q)
	if res := sub(ref, mul(ld, qd)).norm(); !(res <= tol*ref.norm()) {
		t.Fatalf("%s: ‖A − LQ‖/‖A‖ = %.3g > %.3g", name, res/ref.norm(), tol)
	}
	if res := orthErr(qd.op(ConjTrans)); !(res <= tol) {
		t.Fatalf("%s: ‖QQᴴ − I‖ = %.3g > %.3g", name, res, tol)
	}
	qf := reflRows(rng, a, n, n, k, layout((m+n+1)%int(nLayouts)))
	Unglq(ws, nil, n, n, k, qf.Mat, tau)
	checkGuards(t, qf)
	qfd := toDense(qf)
	if res := orthErr(qfd); !(res <= tol) {
		t.Fatalf("%s: full ‖QᴴQ − I‖ = %.3g > %.3g", name, res, tol)
	}
	for i := 0; i < k; i++ {
		for j := 0; j < n; j++ {
			if d := cmplx.Abs(qfd.at(i, j) - qd.at(i, j)); !(d <= tol) {
				t.Fatalf("%s: full Q(%d,%d) = %v, thin %v", name, i, j, qfd.at(i, j), qd.at(i, j))
			}
		}
	}
	for _, side := range []Side{Left, Right} {
		for _, op := range []Op{NoTrans, ConjTrans} {
			nc := 1 + (n+int(op))%5
			cm, cn := n, nc
			if side == Right {
				cm, cn = nc, n
			}
			c := newMat[T](cm, cn, layout((cm+int(op)+int(side))%int(nLayouts)), func(i, j int) complex128 { return rnd[T](rng) })
			c0 := toDense(c)
			a0 := append([]T(nil), a.Data...)
			f := Ormlq[T]
			if op == ConjTrans {
				f = Unmlq[T]
			}
			f(ws, nil, side, op, cm, cn, k, a.Mat, tau, c.Mat)
			checkGuards(t, c)
			for i := range a0 {
				if a0[i] != a.Data[i] {
					t.Fatalf("%s: Ormlq modified a", name)
				}
			}
			var want dense128
			if side == Left {
				want = mul(qfd.op(op), c0)
			} else {
				want = mul(c0, qfd.op(op))
			}
			if res := sub(toDense(c), want).norm(); !(res <= tol*c0.norm()) {
				t.Fatalf("%s side=%d op=%d: Ormlq error %.3g", name, side, op, res/c0.norm())
			}
		}
	}
	lg := newMat[T](m, k, padded, func(i, j int) complex128 { return ld.at(i, j) })
	PositiveDiag(n, m, k, transpose(q.Mat), transpose(lg.Mat))
	checkGuards(t, lg)
	for i := 0; i < k; i++ {
		if d := lg.c128(i, i); imag(d) != 0 || real(d) < 0 {
			t.Fatalf("%s: gauged L(%d,%d) = %v", name, i, i, d)
		}
	}
	if res := sub(ref, mul(toDense(lg), toDense(q))).norm(); !(res <= tol*ref.norm()) {
		t.Fatalf("%s: gauged ‖A − LQ‖/‖A‖ = %.3g > %.3g", name, res/ref.norm(), tol)
	}
}

func testGelqf[T Scalar](t *testing.T, shapes [][2]int) {
	rng := rand.New(rand.NewPCG(59, uint64(len(shapes))))
	var ws Workspace
	for _, s := range shapes {
		m, n := s[0], s[1]
		for l := range nLayouts {
			name := fmt.Sprintf("%s m=%d n=%d %v nb=%d", typeName[T](), m, n, l, QRBlock)
			ref := randDense[T](rng, m, n)
			a := store[T](ref, l)
			tau := make([]T, min(m, n))
			Gelqf(&ws, nil, m, n, a.Mat, tau)
			checkGuards(t, a)
			checkLQ(t, rng, &ws, name, ref, a, tau)
		}
	}
}

func TestGelqf(t *testing.T) {
	for _, c := range []struct{ nb, leaf int }{{4, 2}, {0, 8}} {
		nb, extra := c.nb, []int{31}
		if nb == 0 {
			nb, extra = 32, []int{67}
		}
		withQRBlock(c.nb, c.leaf, func() {
			t.Run(fmt.Sprintf("nb=%d", c.nb), func(t *testing.T) {
				t.Run("float64", func(t *testing.T) { testGelqf[float64](t, qrShapes(nb, extra...)) })
				t.Run("complex128", func(t *testing.T) { testGelqf[complex128](t, qrShapes(nb, extra...)) })
				t.Run("float32", func(t *testing.T) { testGelqf[float32](t, qrShapes(nb, extra...)) })
				t.Run("complex64", func(t *testing.T) { testGelqf[complex64](t, qrShapes(nb, extra...)) })
			})
		})
	}
}

// TestLQIsQRConj checks the LQ layout against LAPACK's: the LQ factors of
// A are the conjugate transposes of the QR factors of Aᴴ, with the same τ,
// and the reflector rows hold conj(v) (to rounding: the two run on
// different layouts).
func TestLQIsQRConj(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 1))
	var ws Workspace
	m, n := 9, 14
	ref := randDense[complex128](rng, m, n)
	a := store[complex128](ref, dense)
	b := store[complex128](ref.op(ConjTrans), padded)
	ta, tb := make([]complex128, m), make([]complex128, m)
	Gelqf(&ws, nil, m, n, a.Mat, ta)
	Geqrf(&ws, nil, n, m, b.Mat, tb)
	for i := range ta {
		if cmplx.Abs(ta[i]-tb[i]) > 1e-14 {
			t.Fatalf("τ[%d] = %v, QR of Aᴴ %v", i, ta[i], tb[i])
		}
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if cmplx.Abs(a.at(i, j)-cmplx.Conj(b.at(j, i))) > 1e-13 {
				t.Fatalf("A(%d,%d) = %v, conj of QR of Aᴴ %v", i, j, a.at(i, j), b.at(j, i))
			}
		}
	}
}
