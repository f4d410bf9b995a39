package main

import (
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"gonum.org/v1/gonum/mat"
)

func TestLinalgCmdQR(t *testing.T) {
	t.Run("f32", testLinalgCmdQR[float32])
	t.Run("f64", testLinalgCmdQR[float64])
	t.Run("c64", testLinalgCmdQR[complex64])
	t.Run("c128", testLinalgCmdQR[complex128])
}

// testLinalgCmdQR checks qr and lq in every mode on tall, wide and square
// matrices and batches: A = Q·R (L·Q), orthonormal Q, triangular R (L),
// the shapes of numpy.linalg.qr, and a non-negative diagonal with
// --positive.
func testLinalgCmdQR[T tf.Scalar](t *testing.T) {
	eps, _ := epsOf[T]()
	dt := tf.DTypeOf[T]()
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	out := func(name string) []cm { return numpyMats(t, readOut(t, pre, name, dt), false) }
	for si, shape := range [][]int{{0, 3}, {1, 1}, {7, 4}, {4, 7}, {13, 13}, {3, 5, 2}, {2, 2, 2, 6}} {
		r := len(shape)
		m, n := shape[r-2], shape[r-1]
		k := min(m, n)
		tol := 30 * float64(max(m, n)+1) * eps
		a := drawNumPy[T](uint64(si+1), rhsIn, shape...)
		fa := writeIn(t, dir, "a", a)
		am := numpyMats(t, c128(t, a), false)
		for _, mode := range []string{"reduced", "complete", "tri"} {
			for _, pos := range []bool{false, true} {
				name := fmt.Sprint(shape, mode, pos)
				// qr: Q (m, k|m), R (k|m, n); lq: L (m, k|n), Q (k|n, n).
				for _, lq := range []bool{false, true} {
					op, tri, uni := "qr", "r", "q"
					if lq {
						op, tri = "lq", "l"
					}
					args := []string{op, "-o", pre, fa}
					if mode == "tri" {
						args = append(args, "--mode", tri)
					} else {
						args = append(args, "--mode", mode)
					}
					if pos {
						args = append(args, "--positive")
					}
					os.Remove(pre + ".q.npy")
					runLinalg(t, args...)
					ts := out(tri)
					for q := range am {
						f := ts[q]
						wantRows, wantCols := k, n
						if lq {
							wantRows, wantCols = m, k
						}
						if mode == "complete" {
							if lq {
								wantCols = n
							} else {
								wantRows = m
							}
						}
						if f.m != wantRows || f.n != wantCols || !triangular(f, !lq) {
							t.Fatalf("%s %s: %s is %dx%d (want %dx%d), triangular %v", op, name, tri, f.m, f.n, wantRows, wantCols, triangular(f, !lq))
						}
						for i := range min(f.m, f.n) {
							if d := f.at(i, i); pos && (real(d) < 0 || imag(d) != 0) {
								t.Errorf("%s %s: %s[%d, %d] = %v with --positive", op, name, tri, i, i, d)
							}
						}
					}
					if mode == "tri" {
						if _, err := os.Stat(pre + ".q.npy"); err == nil {
							t.Errorf("%s %s: wrote Q with --mode %s", op, name, tri)
						}
						continue
					}
					for q, u := range out(uni) {
						var prod cm
						var ortho float64
						if lq {
							prod, ortho = cmMul(ts[q], u), cmOrtho(cmAdj(u))
						} else {
							prod, ortho = cmMul(u, ts[q]), cmOrtho(u)
						}
						if res := cmRel(cmDiff(prod, am[q]), cmFro(am[q])); res > tol || ortho > tol {
							t.Errorf("%s %s item %d: ‖A − QR‖/‖A‖ = %g, orthogonality %g", op, name, q, res, ortho)
						}
					}
				}
			}
		}
	}
}

func TestLinalgCmdSpectral(t *testing.T) {
	t.Run("f32", testLinalgCmdSpectral[float32])
	t.Run("f64", testLinalgCmdSpectral[float64])
	t.Run("c64", testLinalgCmdSpectral[complex64])
	t.Run("c128", testLinalgCmdSpectral[complex128])
}

// testLinalgCmdSpectral checks svd (thin, full, values alone, truncated),
// pinv (the four Penrose conditions) and lstsq (X = A⁺·B, rank and
// singular values) on tall, wide and square matrices and batches, and
// eigh (both triangles, values alone) on Hermitian ones; the singular and
// eigenvalues of float64 inputs also against gonum.
func testLinalgCmdSpectral[T tf.Scalar](t *testing.T) {
	eps, _ := epsOf[T]()
	dt, rdt := tf.DTypeOf[T](), tf.DTypeOf[T]().Real()
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	outT := func(name string, d tf.DType) []cm { return numpyMats(t, readOut(t, pre, name, d), false) }
	vecs := func(name string, d tf.DType) []cm { return numpyMats(t, readOut(t, pre, name, d), true) }
	for si, shape := range [][]int{{0, 3}, {1, 1}, {7, 4}, {4, 7}, {13, 13}, {3, 5, 2}, {2, 2, 2, 6}} {
		r := len(shape)
		m, n := shape[r-2], shape[r-1]
		k := min(m, n)
		tol := 30 * float64(max(m, n)+1) * eps
		name := fmt.Sprint(shape)
		a := drawNumPy[T](uint64(si+1), rhsIn, shape...)
		bshape := append(slices.Clone(shape[:r-1]), 3)
		b := drawNumPy[T](uint64(si+31), rhsIn, bshape...)
		fa, fb := writeIn(t, dir, "a", a), writeIn(t, dir, "b", b)
		am, bm := numpyMats(t, c128(t, a), false), numpyMats(t, c128(t, b), false)

		runLinalg(t, "svd", "-o", pre, fa)
		us, ss, vhs := outT("u", dt), vecs("s", rdt), outT("vh", dt)
		for q := range am {
			s := ss[q]
			if us[q].m != m || us[q].n != k || s.m != k || vhs[q].m != k || vhs[q].n != n {
				t.Fatalf("%s svd: U %dx%d, S %d, Vᴴ %dx%d", name, us[q].m, us[q].n, s.m, vhs[q].m, vhs[q].n)
			}
			us2 := cmMul(us[q], diagCM(s))
			if res := cmRel(cmDiff(cmMul(us2, vhs[q]), am[q]), cmFro(am[q])); res > tol || cmOrtho(us[q]) > tol || cmOrtho(cmAdj(vhs[q])) > tol {
				t.Errorf("%s svd item %d: residual %g, ‖UᴴU − I‖ %g, ‖VᴴV − I‖ %g", name, q, res, cmOrtho(us[q]), cmOrtho(cmAdj(vhs[q])))
			}
			for i := range k {
				if imag(s.d[i]) != 0 || real(s.d[i]) < 0 || i > 0 && real(s.d[i]) > real(s.d[i-1]) {
					t.Errorf("%s svd item %d: S %v not descending and ≥ 0", name, q, s.d)
					break
				}
			}
			if dt == tf.Float64 && k > 0 {
				var g mat.SVD
				if !g.Factorize(denseOf(am[q]), mat.SVDNone) {
					t.Fatal("gonum SVD failed")
				}
				for i, v := range g.Values(nil) {
					if math.Abs(v-real(s.d[i])) > tol*real(s.d[0]) {
						t.Errorf("%s svd item %d: σ%d = %v, gonum %v", name, q, i, real(s.d[i]), v)
					}
				}
			}
		}
		checkNorms(t, name, pre, fa, am, ss, tol, dt)
		runLinalg(t, "qr", "--pivoting", "-o", pre, fa)
		perms := numpyMats(t, readOut(t, pre, "perm", tf.Int64), true)
		for q, qq := range outT("q", dt) {
			rr, p := outT("r", dt)[q], perms[q]
			ap := newCM(m, n)
			seen := make([]bool, n)
			for j := range n {
				c := int(real(p.d[j]))
				if c < 0 || c >= n || seen[c] {
					t.Fatalf("%s qr --pivoting item %d: perm %v", name, q, p.d)
				}
				seen[c] = true
				for i := range m {
					ap.set(i, j, am[q].at(i, c))
				}
			}
			res := cmRel(cmDiff(cmMul(qq, rr), ap), cmFro(am[q]))
			for j := 1; j < k; j++ {
				if cmplx.Abs(rr.at(j, j)) > cmplx.Abs(rr.at(j-1, j-1))*(1+tol) {
					t.Errorf("%s qr --pivoting item %d: |R[%d, %d]| increases", name, q, j, j)
				}
			}
			if res > tol || cmOrtho(qq) > tol || !triangular(rr, true) {
				t.Errorf("%s qr --pivoting item %d: ‖A[:, perm] − QR‖/‖A‖ = %g, orthogonality %g", name, q, res, cmOrtho(qq))
			}
		}
		runLinalg(t, "svd", "--full", "-o", pre, fa)
		for q, u := range outT("u", dt) {
			vh := outT("vh", dt)[q]
			if u.m != m || u.n != m || vh.m != n || vh.n != n || cmOrtho(u) > tol || cmOrtho(vh) > tol {
				t.Errorf("%s svd --full item %d: U %dx%d, Vᴴ %dx%d, orthogonality %g, %g", name, q, u.m, u.n, vh.m, vh.n, cmOrtho(u), cmOrtho(vh))
			}
		}
		runLinalg(t, "svd", "--values-only", "-o", pre, fa)
		for q, s := range vecs("s", rdt) {
			if d := cmDiff(s, ss[q]); d > tol*cmFro(ss[q]) {
				t.Errorf("%s svd --values-only item %d: %v, the thin SVD's %v", name, q, s.d, ss[q].d)
			}
		}
		if r == 2 {
			runLinalg(t, "svd", "--max-rank", "2", "-o", pre, fa)
			u, s, vh := outT("u", dt)[0], vecs("s", rdt)[0], outT("vh", dt)[0]
			kk := min(k, 2)
			if u.m != m || u.n != kk || s.m != kk || vh.m != kk || vh.n != n || cmDiff(s, cm{kk, 1, ss[0].d[:kk]}) > tol*cmFro(ss[0]) {
				t.Errorf("%s svd --max-rank 2: U %dx%d, S %v, Vᴴ %dx%d", name, u.m, u.n, s.d, vh.m, vh.n)
			}
		}

		runLinalg(t, "pinv", "-o", pre, fa)
		ps := outT("pinv", dt)
		for q, p := range ps {
			a := am[q]
			ap := cmMul(a, p)
			pa := cmMul(p, a)
			sc := cmFro(a) * cmFro(p)
			errs := []float64{cmRel(cmDiff(cmMul(ap, a), a), cmFro(a)*sc), cmRel(cmDiff(cmMul(pa, p), p), cmFro(p)*sc),
				cmRel(cmDiff(cmAdj(ap), ap), sc), cmRel(cmDiff(cmAdj(pa), pa), sc)}
			if p.m != n || p.n != m || slices.Max(errs) > tol {
				t.Errorf("%s pinv item %d: %dx%d, Penrose residuals %v", name, q, p.m, p.n, errs)
			}
		}
		runLinalg(t, "lstsq", "-o", pre, fa, fb)
		ranks := scalars(t, readOut(t, pre, "rank", tf.Int64))
		for q, x := range outT("x", dt) {
			want := cmMul(ps[q], bm[q])
			if d := cmDiff(x, want); d > tol*(cmFro(ps[q])*cmFro(bm[q])+1e-300) || ranks[q] != complex(float64(k), 0) {
				t.Errorf("%s lstsq item %d: ‖X − A⁺B‖ = %g, rank %v", name, q, d, ranks[q])
			}
		}
		for q, s := range vecs("s", rdt) {
			if cmDiff(s, ss[q]) > tol*cmFro(ss[q]) {
				t.Errorf("%s lstsq item %d: s %v, svd's %v", name, q, s.d, ss[q].d)
			}
		}

		if m != n {
			continue
		}
		h := drawNumPy[T](uint64(si+61), hermitianIn, shape...)
		fh := writeIn(t, dir, "h", h)
		hm := numpyMats(t, c128(t, h), false)
		for _, args := range [][]string{nil, {"--upper"}, {"--lower"}} {
			runLinalg(t, append([]string{"eigh", "-o", pre, fh}, args...)...)
			ws, vs := vecs("w", rdt), outT("v", dt)
			runLinalg(t, append([]string{"eigh", "--values-only", "-o", pre, fh}, args...)...)
			wv := vecs("w", rdt)
			for q, hq := range hm {
				w, v := ws[q], vs[q]
				res := cmRel(cmDiff(cmMul(hq, v), cmMul(v, diagCM(w))), cmFro(hq))
				if res > tol || cmOrtho(v) > tol || cmDiff(w, wv[q]) > tol*cmFro(w) {
					t.Errorf("%s eigh %v item %d: ‖HV − VW‖/‖H‖ = %g, orthogonality %g, values alone differ by %g", name, args, q, res, cmOrtho(v), cmDiff(w, wv[q]))
				}
				for i := 1; i < n; i++ {
					if real(w.d[i]) < real(w.d[i-1]) {
						t.Errorf("%s eigh item %d: W %v not ascending", name, q, w.d)
						break
					}
				}
				if dt == tf.Float64 && n > 0 {
					var es mat.EigenSym
					if !es.Factorize(mat.NewSymDense(n, denseOf(hq).RawMatrix().Data), false) {
						t.Fatal("gonum EigenSym failed")
					}
					for i, g := range es.Values(nil) {
						if math.Abs(g-real(w.d[i])) > tol*cmFro(hq) {
							t.Errorf("%s eigh item %d: λ%d = %v, gonum %v", name, q, i, real(w.d[i]), g)
						}
					}
				}
			}
		}
	}
}

// checkNorms runs norm in every order, cond (2-norm) and matrix_rank on
// the file fa holding the matrices am, whose singular values ss the svd
// command returned, and checks them against sums of moduli computed here
// and against the singular values.
func checkNorms(t *testing.T, name, pre, fa string, am, ss []cm, tol float64, dt tf.DType) {
	t.Helper()
	sums := func(a cm, cols bool) []float64 {
		var v []float64
		outer, inner := a.m, a.n
		if cols {
			outer, inner = a.n, a.m
		}
		for o := range outer {
			s := 0.0
			for i := range inner {
				if cols {
					s += cmplx.Abs(a.at(i, o))
				} else {
					s += cmplx.Abs(a.at(o, i))
				}
			}
			v = append(v, s)
		}
		return v
	}
	ext := func(v []float64, big bool) float64 {
		if len(v) == 0 {
			return 0
		}
		if big {
			return slices.Max(v)
		}
		return slices.Min(v)
	}
	sv := func(s cm, i int) float64 {
		if s.m == 0 {
			return 0
		}
		return real(s.d[(i+s.m)%s.m])
	}
	for _, c := range []struct {
		ord  string
		want func(a, s cm) float64
	}{
		{"fro", func(a, _ cm) float64 { return cmFro(a) }},
		{"nuc", func(_, s cm) float64 { return real(sumCM(s)) }},
		{"1", func(a, _ cm) float64 { return ext(sums(a, true), true) }},
		{"-1", func(a, _ cm) float64 { return ext(sums(a, true), false) }},
		{"2", func(_, s cm) float64 { return sv(s, 0) }},
		{"-2", func(_, s cm) float64 { return sv(s, -1) }},
		{"inf", func(a, _ cm) float64 { return ext(sums(a, false), true) }},
		{"-inf", func(a, _ cm) float64 { return ext(sums(a, false), false) }},
	} {
		runLinalg(t, "norm", "--ord", c.ord, "-o", pre, fa)
		for q, got := range scalars(t, readOut(t, pre, "norm", dt.Real())) {
			if want := c.want(am[q], ss[q]); math.Abs(real(got)-want) > tol*(cmFro(am[q])+1e-300) {
				t.Errorf("%s norm --ord %s item %d: %v, want %v", name, c.ord, q, real(got), want)
			}
		}
	}
	runLinalg(t, "cond", "-o", pre, fa)
	for q, got := range scalars(t, readOut(t, pre, "cond", dt.Real())) {
		if want := sv(ss[q], 0) / sv(ss[q], -1); ss[q].m > 0 && math.Abs(real(got)-want) > 10*tol*want {
			t.Errorf("%s cond item %d: %v, want σ₀/σₖ₋₁ = %v", name, q, real(got), want)
		}
	}
	runLinalg(t, "matrix_rank", "-o", pre, fa)
	for q, got := range scalars(t, readOut(t, pre, "rank", tf.Int64)) {
		if want := ss[q].m; got != complex(float64(want), 0) {
			t.Errorf("%s matrix_rank item %d: %v, want %d", name, q, got, want)
		}
	}
}

func sumCM(a cm) complex128 {
	var s complex128
	for _, v := range a.d {
		s += v
	}
	return s
}

// diagCM is the diagonal matrix of the vector (k×1) s.
func diagCM(s cm) cm {
	d := newCM(s.m, s.m)
	for i := range s.m {
		d.set(i, i, s.d[i])
	}
	return d
}

// denseOf is the real part of a as a gonum matrix.
func denseOf(a cm) *mat.Dense {
	d := mat.NewDense(max(a.m, 1), max(a.n, 1), nil)
	for i := range a.m {
		for j := range a.n {
			d.Set(i, j, real(a.at(i, j)))
		}
	}
	return d
}
