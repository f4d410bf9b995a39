package linalg_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

func TestLU(t *testing.T) {
	forTypes(t, testLU[float32], testLU[float64], testLU[complex64], testLU[complex128])
}

// permute applies the 0-based interchanges piv to the rows of a: P·A.
func permute(a mat, piv []int64) mat {
	p := mat{a.m, a.n, append([]complex128(nil), a.v...)}
	for i, r := range piv {
		for j := range a.n {
			p.v[i+j*a.m], p.v[int(r)+j*a.m] = p.v[int(r)+j*a.m], p.v[i+j*a.m]
		}
	}
	return p
}

// unpack splits packed LU factors into L (m×k, unit lower) and U (k×n).
func unpack(f mat) (l, u mat) {
	k := min(f.m, f.n)
	l, u = newMat(f.m, k), newMat(k, f.n)
	for j := range f.n {
		for i := range f.m {
			switch {
			case i > j && j < k:
				l.v[i+j*f.m] = f.at(i, j)
			case i <= j && i < k:
				u.v[i+j*k] = f.at(i, j)
			}
			if i == j && i < k {
				l.v[i+j*f.m] = 1
			}
		}
	}
	return l, u
}

// testLU checks ‖P·A − L·U‖/‖A‖ ≤ c·n·eps on square and rectangular
// inputs, and Det and SlogDet against the LU diagonal, over sizes,
// batches and layouts.
func testLU[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range sizes {
		for _, batch := range batches {
			if n > 33 && batch != nil {
				continue
			}
			nb := tf.Numel(batch)
			for _, m := range []int{n, n + 2} {
				as := many(nb, func() mat { return randMat[T](r, m, n) })
				for li, layout := range layouts {
					a := place[T](t, as, m, n, batch, layout)
					lu, piv := place[T](t, many(nb, func() mat { return newMat(m, n) }), m, n, batch, layouts[(li+1)%len(layouts)]), (*tf.Tensor[int64])(nil)
					var err error
					if li%2 == 0 {
						lu, piv, err = linalg.LU(e, a)
					} else {
						piv, _ = tf.Zeros[int64](append([]int{min(m, n)}, batch...)...)
						err = linalg.LUInto(e, lu, piv, a)
					}
					if err != nil {
						t.Fatalf("LU m=%d n=%d %s: %v", m, n, layout, err)
					}
					pd, _ := piv.Data()
					k := min(m, n)
					checkUnpack[T](t, e, lu, piv, as, li)
					for q, f := range items(t, lu) {
						l, u := unpack(f)
						pq := pd[q*k : (q+1)*k]
						for i, r := range pq {
							if int(r) < i || int(r) >= m {
								t.Fatalf("pivot %d = %d out of [%d, %d)", i, r, i, m)
							}
						}
						if m*n > 0 {
							bound(t, "‖PA−LU‖/‖A‖", fro(sub(permute(as[q], pq), mul(l, u)))/fro(as[q]), 4, n, eps[T]())
						}
						if m != n {
							continue
						}
						// det = (−1)^swaps · Π U[i, i], against Det and SlogDet.
						want := complex(1, 0)
						for i := range n {
							want *= u.at(i, i)
							if int(pq[i]) != i {
								want = -want
							}
						}
						checkDet[T](t, e, a, q, want, n)
					}
				}
			}
		}
	}
}

// checkDet compares item q of Det(a) and SlogDet(a) with want.
func checkDet[T tf.Scalar](t *testing.T, e tf.Engine, a *tf.Tensor[T], q int, want complex128, n int) {
	t.Helper()
	d, err := linalg.Det(e, a)
	if err != nil {
		t.Fatal(err)
	}
	got := scalars(t, d)[q]
	overflow := tf.DTypeOf[T]().Real() == tf.Float32 && cmplx.Abs(want) > math.MaxFloat32/2
	if !overflow && !(cmplx.Abs(got-want) <= 8*float64(max(n, 1))*eps[T]()*cmplx.Abs(want)+1e-300) {
		t.Errorf("n=%d Det = %v, want %v", n, got, want)
	}
	var sign complex128
	var logabs float64
	if tf.DTypeOf[T]().Real() == tf.Float32 {
		s, l, err := linalg.SlogDet[float32](e, a)
		if err != nil {
			t.Fatal(err)
		}
		sign, logabs = scalars(t, s)[q], real(scalars(t, l)[q])
	} else {
		s, l, err := linalg.SlogDet[float64](e, a)
		if err != nil {
			t.Fatal(err)
		}
		sign, logabs = scalars(t, s)[q], real(scalars(t, l)[q])
	}
	if want == 0 {
		return
	}
	if !(math.Abs(cmplx.Abs(sign)-1) <= 8*eps[T]()) || !(cmplx.Abs(sign-want/complex(cmplx.Abs(want), 0)) <= 8*float64(max(n, 1))*eps[T]()) {
		t.Errorf("n=%d SlogDet sign = %v, want the phase of %v", n, sign, want)
	}
	if !(math.Abs(logabs-math.Log(cmplx.Abs(want))) <= 8*float64(max(n, 1))*eps[T]()*(1+math.Abs(logabs))) {
		t.Errorf("n=%d SlogDet logabs = %v, want %v", n, logabs, math.Log(cmplx.Abs(want)))
	}
}

// naiveDet is the Laplace expansion along the first column.
func naiveDet(a mat) complex128 {
	if a.n == 0 {
		return 1
	}
	var d complex128
	for i := range a.n {
		minor := newMat(a.n-1, a.n-1)
		for j := 1; j < a.n; j++ {
			r := 0
			for k := range a.n {
				if k != i {
					minor.v[r+(j-1)*(a.n-1)] = a.at(k, j)
					r++
				}
			}
		}
		s := complex(1, 0)
		if i%2 == 1 {
			s = -1
		}
		d += s * a.at(i, 0) * naiveDet(minor)
	}
	return d
}

func TestDetNaive(t *testing.T) {
	forTypes(t, testDetNaive[float32], testDetNaive[float64], testDetNaive[complex64], testDetNaive[complex128])
}

func testDetNaive[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(11, 12))
	for n := 0; n <= 5; n++ {
		as := many(6, func() mat { return randMat[T](r, n, n) })
		a := place[T](t, as, n, n, []int{2, 3}, "transposed")
		for q := range as {
			checkDet[T](t, e, a, q, naiveDet(as[q]), n)
		}
	}
}

// TestDetNumPy compares Det and SlogDet with numpy.linalg on random
// batched inputs of the four dtypes (skipped without /usr/bin/python3 and
// NumPy).
func TestDetNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	type input struct {
		N, Items int
		Re, Im   []float64 // column-major, item after item
		DType    string
	}
	r := rand.New(rand.NewPCG(13, 14))
	var ins []input
	var ts []func(want [][3]float64)
	for _, n := range []int{0, 1, 3, 7, 20} {
		for _, dt := range []string{"float32", "float64", "complex64", "complex128"} {
			in := input{N: n, Items: 6, DType: dt, Re: []float64{}, Im: []float64{}}
			for range n * n * 6 {
				in.Re = append(in.Re, r.NormFloat64())
				im := 0.0
				if dt[0] == 'c' {
					im = r.NormFloat64()
				}
				in.Im = append(in.Im, im)
			}
			ins = append(ins, in)
			ts = append(ts, func(want [][3]float64) { detAgainst(t, in.DType, n, in.Re, in.Im, want) })
		}
	}
	js, _ := json.Marshal(ins)
	const script = `
import json, sys, numpy as np
out = []
for c in json.load(sys.stdin):
    n, k = c["N"], c["Items"]
    v = (np.array(c["Re"]) + 1j*np.array(c["Im"])).astype(c["DType"]) if c["DType"][0] == "c" else np.array(c["Re"]).astype(c["DType"])
    a = v.reshape(k, n, n).transpose(0, 2, 1)  # column-major items
    d = np.linalg.det(a); s, l = np.linalg.slogdet(a)
    out.append([[float(np.real(d[i])), float(np.imag(d[i])), float(l[i])] for i in range(k)])
json.dump(out, sys.stdout)
`
	cmd := exec.Command(python, "-c", script)
	cmd.Stdin = bytes.NewReader(js)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	var want [][][3]float64
	if err := json.Unmarshal(res, &want); err != nil {
		t.Fatal(err)
	}
	for i, f := range ts {
		f(want[i])
	}
}

func detAgainst(t *testing.T, dt string, n int, re, im []float64, want [][3]float64) {
	switch dt {
	case "float32":
		detAgainstT[float32](t, n, re, im, want)
	case "float64":
		detAgainstT[float64](t, n, re, im, want)
	case "complex64":
		detAgainstT[complex64](t, n, re, im, want)
	default:
		detAgainstT[complex128](t, n, re, im, want)
	}
}

func detAgainstT[T tf.Scalar](t *testing.T, n int, re, im []float64, want [][3]float64) {
	e := engine(t)
	data := make([]T, len(re))
	for i := range re {
		data[i] = from[T](complex(re[i], im[i]))
	}
	a, err := tf.FromSlice(data, n, n, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	d, err := linalg.Det(e, a)
	if err != nil {
		t.Fatal(err)
	}
	got := scalars(t, d)
	var logabs []complex128
	if tf.DTypeOf[T]().Real() == tf.Float32 {
		_, l, err := linalg.SlogDet[float32](e, a)
		if err != nil {
			t.Fatal(err)
		}
		logabs = scalars(t, l)
	} else {
		_, l, err := linalg.SlogDet[float64](e, a)
		if err != nil {
			t.Fatal(err)
		}
		logabs = scalars(t, l)
	}
	for q, w := range want {
		if !(math.Abs(real(logabs[q])-w[2]) <= 100*8*float64(max(n, 1))*eps[T]()*(1+math.Abs(w[2]))) {
			t.Errorf("%s n=%d item %d: SlogDet logabs = %v, NumPy %v", tf.DTypeOf[T](), n, q, logabs[q], w[2])
		}
		wd := complex(w[0], w[1])
		// Error relative to the Hadamard-type scale exp(logabs) times n·eps·κ
		// (κ ≤ 100 on these random inputs).
		if lim := 100 * 8 * float64(max(n, 1)) * eps[T]() * math.Max(cmplx.Abs(wd), 1e-30); !(cmplx.Abs(got[q]-wd) <= lim) {
			t.Errorf("%s n=%d item %d: Det = %v, NumPy %v", tf.DTypeOf[T](), n, q, got[q], wd)
		}
	}
}

func TestLUErrors(t *testing.T) {
	e := engine(t)
	a, _ := tf.FromSlice([]float64{1, 2, math.Inf(1), 4}, 2, 2)
	if _, _, err := linalg.LU(e, a); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("Inf: got %v", err)
	}
	v, _ := tf.Zeros[float64](3)
	if _, err := linalg.Det(e, v); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("vector: got %v", err)
	}
	c, _ := tf.Zeros[complex64](2, 2)
	if _, _, err := linalg.SlogDet[float64](e, c); !errors.Is(err, tf.ErrDType) {
		t.Fatalf("logabs dtype: got %v", err)
	}
	lu, _ := tf.Zeros[float64](2, 2)
	piv, _ := tf.Zeros[int64](3)
	if err := linalg.LUInto(e, lu, piv, a); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("piv shape: got %v", err)
	}
	// Empty matrices: det 1, sign 1, logabs 0.
	z, _ := tf.Zeros[complex128](0, 0, 2)
	d, err := linalg.Det(e, z)
	if err != nil || !equalC(scalars(t, d), []complex128{1, 1}) {
		t.Fatalf("empty det: %v %v", scalars(t, d), err)
	}
	s, l, err := linalg.SlogDet[float64](e, z)
	if err != nil || !equalC(scalars(t, s), []complex128{1, 1}) || !equalC(scalars(t, l), []complex128{0, 0}) {
		t.Fatalf("empty slogdet: %v", err)
	}
}

// checkUnpack checks ‖A − P·L·U‖/‖A‖ ≤ c·n·eps for LUUnpack (allocating
// or, for odd li, into strided destinations) and the shapes of P, L, U.
func checkUnpack[T tf.Scalar](t *testing.T, e tf.Engine, lu *tf.Tensor[T], piv *tf.Tensor[int64], as []mat, li int) {
	t.Helper()
	s := lu.Shape()
	m, n, batch := s[0], s[1], s[2:]
	r := min(m, n)
	nb := tf.Numel(batch)
	var p, l, u *tf.Tensor[T]
	var err error
	if li%2 == 0 {
		p, l, u, err = linalg.LUUnpack(e, lu, piv)
	} else {
		p = place[T](t, many(nb, func() mat { return newMat(m, m) }), m, m, batch, "strided")
		l = place[T](t, many(nb, func() mat { return newMat(m, r) }), m, r, batch, "transposed")
		u = place[T](t, many(nb, func() mat { return newMat(r, n) }), r, n, batch, "reversed")
		err = linalg.LUUnpackInto(e, p, l, u, lu, piv)
	}
	if err != nil {
		t.Fatalf("LUUnpack: %v", err)
	}
	ps, ls, us := items(t, p), items(t, l), items(t, u)
	for q := range as {
		if m*n == 0 {
			continue
		}
		bound(t, "‖A−PLU‖/‖A‖", fro(sub(as[q], mul(ps[q], mul(ls[q], us[q]))))/fro(as[q]), 4, n, eps[T]())
	}
}

func TestLUUnpackErrors(t *testing.T) {
	e := engine(t)
	lu, _ := tf.Zeros[float64](3, 3)
	piv, _ := tf.FromSlice([]int64{0, 3, 2}, 3)
	p, _ := tf.Zeros[float64](3, 3)
	l, _ := tf.Zeros[float64](3, 3)
	u, _ := tf.Zeros[float64](3, 3)
	if err := linalg.LUUnpackInto(e, p, l, u, lu, piv); !errors.Is(err, tf.ErrArgument) || !strings.Contains(err.Error(), "piv[1] = 3") {
		t.Fatalf("bad pivot: %v", err)
	}
	if err := linalg.LUUnpackInto(e, p, p, u, lu, piv); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("p and l alias: %v", err)
	}
	short, _ := tf.Zeros[int64](2)
	if _, _, _, err := linalg.LUUnpack(e, lu, short); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("piv shape: %v", err)
	}
}
