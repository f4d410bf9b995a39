package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/team"
)

// teamEngine returns a 2-worker engine, closed at the end of the test.
func teamEngine(t testing.TB) *cpu.Engine {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	e, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// linalgBatchInputs returns a batch of nb well-conditioned n×n matrices
// (R + n·I), their Hermitian positive definite products a·aᴴ + I, and a
// right-hand side, as (n, n, nb) tensors; with transposed, the matrices
// are the transposed views of compact storage.
func linalgBatchInputs[T tf.Scalar](t testing.TB, r *rand.Rand, n, nb int, transposed bool) (a, h, b *tf.Tensor[T]) {
	ad := make([]T, n*n*nb)
	hd := make([]T, n*n*nb)
	for q := range nb {
		x := ad[q*n*n : (q+1)*n*n]
		for i := range x {
			x[i] = randScalar[T](r)
		}
		for i := range n {
			x[i+i*n] += scal[T](float64(n))
		}
		y := hd[q*n*n : (q+1)*n*n]
		for i := range n {
			for j := range n {
				var s T
				for k := range n {
					s += x[i+k*n] * conj(x[j+k*n])
				}
				y[i+j*n] = s
			}
		}
	}
	mk := func(d []T) *tf.Tensor[T] {
		x, err := tf.FromSlice(d, n, n, nb)
		if err != nil {
			t.Fatal(err)
		}
		if transposed {
			if x, err = x.Permute(1, 0, 2); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	bd := make([]T, n*3*nb)
	for i := range bd {
		bd[i] = randScalar[T](r)
	}
	b, _ = tf.FromSlice(bd, n, 3, nb)
	return mk(ad), mk(hd), b
}

func randScalar[T tf.Scalar](r *rand.Rand) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(r.Float64()*2 - 1)
	case *float64:
		*p = r.Float64()*2 - 1
	case *complex64:
		*p = complex(float32(r.Float64()*2-1), float32(r.Float64()*2-1))
	case *complex128:
		*p = complex(r.Float64()*2-1, r.Float64()*2-1)
	}
	return v
}

// linalgBatchOps runs the batched operations of e on (a, h, b) and
// returns their results' data by name.
func linalgBatchOps[R tf.Float, T tf.Scalar](t *testing.T, e *cpu.Engine, a, h, b *tf.Tensor[T]) map[string][]T {
	n, nb := a.Shape()[0], a.Shape()[2]
	out := map[string][]T{}
	get := func(name string, x *tf.Tensor[T]) {
		d, err := x.Data()
		if err != nil {
			t.Fatal(err)
		}
		out[name] = slices.Clone(d)
	}
	getR := func(name string, x *tf.Tensor[R]) {
		d, err := x.Data()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range d {
			out[name] = append(out[name], scal[T](float64(v)))
		}
	}
	must := func(name string, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	q, r := zeros[T](n, n, nb), zeros[T](n, n, nb)
	must("QR", linalg.QRInto(e, q, r, a, linalg.PositiveDiagonal))
	get("QR q", q)
	get("QR r", r)
	u, vh, s := zeros[T](n, n, nb), zeros[T](n, n, nb), zeros[R](n, nb)
	must("SVD", linalg.SVDInto(e, u, s, vh, a))
	get("SVD u", u)
	get("SVD vh", vh)
	getR("SVD s", s)
	v, w := zeros[T](n, n, nb), zeros[R](n, nb)
	must("Eigh", linalg.EighInto(e, w, v, h))
	get("Eigh v", v)
	getR("Eigh w", w)
	x := zeros[T](n, 3, nb)
	must("Solve", linalg.SolveInto(e, x, a, b))
	get("Solve", x)
	inv := zeros[T](n, n, nb)
	must("Inv", linalg.InvInto(e, inv, a))
	get("Inv", inv)
	det := zeros[T](nb)
	must("Det", linalg.DetInto(e, det, a))
	get("Det", det)
	sign, la := zeros[T](nb), zeros[R](nb)
	must("SlogDet", linalg.SlogDetInto(e, sign, la, a))
	get("SlogDet sign", sign)
	getR("SlogDet log", la)
	l := zeros[T](n, n, nb)
	must("Cholesky", linalg.CholeskyInto(e, l, h))
	get("Cholesky", l)
	lu, piv := zeros[T](n, n, nb), zeros[int64](n, nb)
	must("LU", linalg.LUInto(e, lu, piv, a))
	get("LU", lu)
	pd, _ := piv.Data()
	for _, p := range pd {
		out["LU piv"] = append(out["LU piv"], scal[T](float64(p)))
	}
	return out
}

func zeros[T tf.Elem](shape ...int) *tf.Tensor[T] {
	x, err := tf.Zeros[T](shape...)
	if err != nil {
		panic(err)
	}
	return x
}

// TestLinalgBatchTeam checks that a batch spread over a team gives the
// serial engine's results bit for bit (every item runs the same serial
// kernels), at orders on both sides of the small-matrix crossovers, for
// compact and transposed items.
func TestLinalgBatchTeam(t *testing.T) {
	t.Run("f32", testLinalgBatchTeam[float32, float32])
	t.Run("f64", testLinalgBatchTeam[float64, float64])
	t.Run("c64", testLinalgBatchTeam[float32, complex64])
	t.Run("c128", testLinalgBatchTeam[float64, complex128])
}

func testLinalgBatchTeam[R tf.Float, T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	serial, par := cpu.Serial(), teamEngine(t)
	defer serial.Close()
	for _, n := range []int{3, 5, 8, 17} {
		nb := max(3, 70000/(n*n*n)+7) // above the parallel threshold
		for _, tr := range []bool{false, true} {
			a, h, b := linalgBatchInputs[T](t, r, n, nb, tr)
			want := linalgBatchOps[R](t, serial, a, h, b)
			got := linalgBatchOps[R](t, par, a, h, b)
			for name, w := range want {
				if !slices.Equal(w, got[name]) {
					t.Errorf("n=%d batch %d transposed=%v %s: team result differs from serial", n, nb, tr, name)
				}
			}
		}
	}
}

// TestLinalgBatchTeamFailure checks that a failing batch spread over a
// team names its lowest failing item and leaves the destination as it was.
func TestLinalgBatchTeamFailure(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, nb = 8, 400
	for name, e := range map[string]*cpu.Engine{"serial": cpu.Serial(), "team": teamEngine(t)} {
		a, h, _ := linalgBatchInputs[float64](t, r, n, nb, false)
		ad, _ := a.Data()
		hd, _ := h.Data()
		for _, q := range []int{390, 271} { // a zero matrix: singular and not positive definite
			clear(ad[q*n*n : (q+1)*n*n])
			clear(hd[q*n*n : (q+1)*n*n])
		}
		for op, f := range map[string]func(dst *tf.Tensor[float64]) error{
			"Inv":      func(dst *tf.Tensor[float64]) error { return linalg.InvInto(e, dst, a) },
			"Cholesky": func(dst *tf.Tensor[float64]) error { return linalg.CholeskyInto(e, dst, h) },
		} {
			dst := zeros[float64](n, n, nb)
			dd, _ := dst.Data()
			for i := range dd {
				dd[i] = 7
			}
			err := f(dst)
			if err == nil || !strings.Contains(err.Error(), "271") {
				t.Errorf("%s %s: error %v, want one naming batch item 271", name, op, err)
			}
			for i, v := range dd {
				if v != 7 {
					t.Fatalf("%s %s: destination written at %d", name, op, i)
				}
			}
		}
	}
}

// TestLinalgBatchTeamAllocs checks that warm batched operations spread
// over a team allocate nothing.
func TestLinalgBatchTeamAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled arguments")
	}
	r := rand.New(rand.NewPCG(7, 8))
	e := teamEngine(t)
	for _, n := range []int{4, 8} {
		nb := 256
		a, h, b := linalgBatchInputs[complex128](t, r, n, nb, true)
		q, rr, v := zeros[complex128](n, n, nb), zeros[complex128](n, n, nb), zeros[complex128](n, n, nb)
		s := zeros[float64](n, nb)
		x := zeros[complex128](n, 3, nb)
		det := zeros[complex128](nb)
		cases := map[string]func() error{
			"QRInto":       func() error { return linalg.QRInto(e, q, rr, a) },
			"SVDInto":      func() error { return linalg.SVDInto(e, q, s, rr, a) },
			"EighInto":     func() error { return linalg.EighInto(e, s, v, h) },
			"SolveInto":    func() error { return linalg.SolveInto(e, x, a, b) },
			"InvInto":      func() error { return linalg.InvInto(e, v, a) },
			"DetInto":      func() error { return linalg.DetInto(e, det, a) },
			"CholeskyInto": func() error { return linalg.CholeskyInto(e, v, h) },
		}
		for name, f := range cases {
			if err := f(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := testing.AllocsPerRun(5, func() { _ = f() }); got != 0 {
				t.Errorf("n=%d %s: %v allocations per warm call, want 0", n, name, got)
			}
		}
	}
}

// ExampleNew_batchedLinalg spreads a batch of small factorizations over a
// team: each worker factors a contiguous range of items.
func ExampleNew_batchedLinalg() {
	tm, _ := team.New(team.Threads(2))
	e, _ := cpu.New(tm)
	defer e.Close()
	const n, nb = 2, 1000
	d := make([]float64, n*n*nb)
	for q := range nb {
		d[q*4], d[q*4+1], d[q*4+2], d[q*4+3] = 4, 2, 2, 3 // [4 2; 2 3]
	}
	a, _ := tf.FromSlice(d, n, n, nb)
	det := zeros[float64](nb)
	_ = linalg.DetInto(e, det, a)
	dd, _ := det.Data()
	fmt.Printf("%.4g %.4g\n", dd[0], dd[nb-1])
	// Output: 8 8
}
