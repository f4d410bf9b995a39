package linalg_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// spectrum returns n values of a named kind: the singular values (or, for
// eigenproblems, the moduli of the eigenvalues) of the conformance
// matrices. cond is the condition number of the "ill" kind.
func spectrum(r *rand.Rand, n int, kind string, cond float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		f := float64(i) / float64(max(n-1, 1))
		switch kind {
		case "random":
			s[i] = 0.5 + r.Float64()
		case "ill": // geometric from 1 to 1/cond
			s[i] = math.Pow(cond, -f)
		case "graded": // 1, 1e-1, 1e-2, ...
			s[i] = math.Pow(10, -float64(i))
		case "clustered": // 1 ± 1e-10
			s[i] = 1 + 1e-10*r.Float64()
		case "repeated": // three exactly repeated values
			s[i] = float64(1 + i%3)
		case "rank-deficient":
			if i < n/2 {
				s[i] = 1 + r.Float64()
			}
		case "identity":
			s[i] = 1
		}
	}
	return s
}

// designed returns U·diag(s)·Vᴴ for random unitary U (m×m) and V (n×n),
// or, when hermitian, Q·diag(±s)·Qᴴ.
func designed[T tf.Scalar](r *rand.Rand, m, n int, s []float64, hermitian bool) mat {
	u := unitary[T](r, m)
	v := unitary[T](r, n)
	if hermitian {
		v = u
	}
	d := newMat(m, n)
	for i, x := range s {
		if hermitian && i%2 == 1 {
			x = -x
		}
		d.v[i+i*m] = complex(x, 0)
	}
	a := round[T](mul(mul(u, d), adj(v)))
	if hermitian {
		for j := range n {
			a.v[j+j*n] = complex(real(a.v[j+j*n]), 0)
			for i := j + 1; i < n; i++ {
				a.v[j+i*n] = conj(a.v[i+j*n])
			}
		}
	}
	return a
}

// TestSpectrumNumPy compares singular values and eigenvalues with NumPy's
// (LAPACK's gesdd and syevd) on the conformance spectra, all dtypes.
func TestSpectrumNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	type input struct {
		M, N      int
		Re, Im    []float64 // column-major
		DType     string
		Hermitian bool
	}
	r := rand.New(rand.NewPCG(91, 92))
	var ins []input
	var as []mat
	for _, dt := range []string{"float32", "float64", "complex64", "complex128"} {
		cond := 1e12
		if dt == "float32" || dt == "complex64" {
			cond = 1e5
		}
		for _, sz := range [][2]int{{1, 1}, {6, 6}, {17, 17}, {40, 25}, {25, 40}} {
			for _, kind := range []string{"random", "ill", "graded", "clustered", "repeated", "rank-deficient", "identity"} {
				for _, herm := range []bool{false, true} {
					m, n := sz[0], sz[1]
					if herm && m != n {
						continue
					}
					s := spectrum(r, min(m, n), kind, cond)
					var a mat
					switch dt {
					case "float32":
						a = designed[float32](r, m, n, s, herm)
					case "float64":
						a = designed[float64](r, m, n, s, herm)
					case "complex64":
						a = designed[complex64](r, m, n, s, herm)
					default:
						a = designed[complex128](r, m, n, s, herm)
					}
					in := input{M: m, N: n, DType: dt, Hermitian: herm}
					for _, v := range a.v {
						in.Re, in.Im = append(in.Re, real(v)), append(in.Im, imag(v))
					}
					ins = append(ins, in)
					as = append(as, a)
				}
			}
		}
	}
	js, _ := json.Marshal(ins)
	const script = `
import json, sys, numpy as np
out = []
for c in json.load(sys.stdin):
    m, n = c["M"], c["N"]
    v = np.array(c["Re"]) + 1j*np.array(c["Im"]) if c["DType"][0] == "c" else np.array(c["Re"])
    a = v.astype(c["DType"]).reshape(n, m).T
    w = np.linalg.eigvalsh(a) if c["Hermitian"] else np.linalg.svd(a, compute_uv=False)
    out.append([float(x) for x in w])
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
	var want [][]float64
	if err := json.Unmarshal(res, &want); err != nil {
		t.Fatal(err)
	}
	for i, in := range ins {
		var got []float64
		var ep float64
		switch in.DType {
		case "float32":
			got, ep = values[float32, float32](t, as[i], in.Hermitian), eps[float32]()
		case "float64":
			got, ep = values[float64, float64](t, as[i], in.Hermitian), eps[float64]()
		case "complex64":
			got, ep = values[float32, complex64](t, as[i], in.Hermitian), eps[complex64]()
		default:
			got, ep = values[float64, complex128](t, as[i], in.Hermitian), eps[complex128]()
		}
		big := 0.0
		for _, w := range want[i] {
			big = math.Max(big, math.Abs(w))
		}
		// Both are backward stable: each value is within c·n·eps·‖A‖₂ of the
		// exact one (Weyl), so they agree to twice that.
		tol := 20 * float64(max(in.M, in.N)) * ep * big
		for j, w := range want[i] {
			if d := math.Abs(got[j] - w); !(d <= tol) {
				t.Errorf("%s %dx%d hermitian=%v case %d: value %d = %v, NumPy %v (|Δ| = %.3g > %.3g)", in.DType, in.M, in.N, in.Hermitian, i, j, got[j], w, d, tol)
				break
			}
		}
	}
}

// values returns the eigenvalues (hermitian) or singular values of a.
func values[R tf.Float, T tf.Scalar](t *testing.T, a mat, hermitian bool) []float64 {
	t.Helper()
	e := engine(t)
	x := place[T](t, []mat{a}, a.m, a.n, nil, "transposed")
	var w *tf.Tensor[R]
	var err error
	if hermitian {
		w, err = linalg.Eigvalsh[R](e, x)
	} else {
		w, err = linalg.SVDVals[R](e, x)
	}
	if err != nil {
		t.Fatal(err)
	}
	d := mustData(t, w)
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = float64(v)
	}
	return out
}
