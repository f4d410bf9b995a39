package cpu_test

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

// eps returns the unit roundoff of T.
func eps[T tf.Scalar]() float64 {
	switch tf.DTypeOf[T]() {
	case tf.Float32, tf.Complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

func c128[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

// randTensor returns a compact tensor with values in [-1, 1).
func randTensor[T tf.Scalar](r *rand.Rand, shape ...int) *tf.Tensor[T] {
	n := tf.Numel(shape)
	buf := make([]T, n)
	for i := range buf {
		re, im := 2*r.Float64()-1, 2*r.Float64()-1
		switch p := any(&buf[i]).(type) {
		case *float32:
			*p = float32(re)
		case *float64:
			*p = re
		case *complex64:
			*p = complex(float32(re), float32(im))
		case *complex128:
			*p = complex(re, im)
		}
	}
	t, err := tf.FromSlice(buf, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

func at[T tf.Scalar](t *tf.Tensor[T], idx ...int) T {
	v, err := t.At(idx...)
	if err != nil {
		panic(err)
	}
	return v
}

// checkMatmul compares c with a naive complex128 reference of a·b (2-D or
// batched), with tolerance k·eps·Σ|a||b| per element (plus a tiny absolute
// floor), the standard forward error bound of a length-k dot product.
func checkMatmul[T tf.Scalar](t *testing.T, c, a, b *tf.Tensor[T]) {
	t.Helper()
	shape := c.Shape()
	k := a.Shape()[1]
	idx := make([]int, len(shape))
	ia := make([]int, len(shape))
	ib := make([]int, len(shape))
	n := tf.Numel(shape)
	for lin := 0; lin < n; lin++ {
		rem := lin
		for d := range shape {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		for d := 2; d < len(shape); d++ {
			ia[d], ib[d] = idx[d], idx[d]
			if a.Shape()[d] == 1 {
				ia[d] = 0
			}
			if b.Shape()[d] == 1 {
				ib[d] = 0
			}
		}
		var want complex128
		var mag float64
		for p := 0; p < k; p++ {
			ia[0], ia[1] = idx[0], p
			ib[0], ib[1] = p, idx[1]
			x, y := c128(at(a, ia...)), c128(at(b, ib...))
			want += x * y
			mag += cmplx.Abs(x) * cmplx.Abs(y)
		}
		got := c128(at(c, idx...))
		tol := 4*float64(k+1)*eps[T]()*mag + 1e-300
		if d := cmplx.Abs(got - want); !(d <= tol) {
			t.Fatalf("C%v = %v, want %v (|diff| %.3g > tol %.3g)", idx, got, want, d, tol)
		}
	}
}

var sizes = []int{0, 1, 2, 3, 5, 7, 13, 17, 31, 64, 97}

func engines(t *testing.T) map[string]*cpu.Engine {
	t.Helper()
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	par, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { par.Close() })
	return map[string]*cpu.Engine{"serial": cpu.Serial(), "team2": par}
}

func testMatmulDType[T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, e := range engines(t) {
		for trial := 0; trial < 40; trial++ {
			m, n, k := sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))]
			if trial == 0 {
				m, n, k = 150, 130, 170 // crosses blocking and the parallel threshold
			}
			ta, tb := r.IntN(2) == 1, r.IntN(2) == 1
			a := operand[T](r, m, k, ta)
			b := operand[T](r, k, n, tb)
			c, err := tf.Matmul(e, a, b)
			if err != nil {
				t.Fatalf("%s: Matmul(%dx%d, %dx%d): %v", name, m, k, k, n, err)
			}
			if got := c.Shape(); got[0] != m || got[1] != n {
				t.Fatalf("shape %v", got)
			}
			checkMatmul(t, c, a, b)
			c.Release()
		}
	}
}

// operand returns an m×n tensor, as a transposed view of an n×m tensor when
// trans is set.
func operand[T tf.Scalar](r *rand.Rand, m, n int, trans bool) *tf.Tensor[T] {
	if !trans {
		return randTensor[T](r, m, n)
	}
	v, err := randTensor[T](r, n, m).Transpose()
	if err != nil {
		panic(err)
	}
	return v
}

func TestMatmulAllDTypes(t *testing.T) {
	t.Run("f32", testMatmulDType[float32])
	t.Run("f64", testMatmulDType[float64])
	t.Run("c64", testMatmulDType[complex64])
	t.Run("c128", testMatmulDType[complex128])
}

func TestMatmulStridedViews(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	e := cpu.Serial()
	big := randTensor[float64](r, 20, 30)
	// a: every other row, reversed columns: 10 x 30 -> slice 10 x 11.
	a, _ := big.Slice(0, 0, 20, 2)
	a, _ = a.Reverse(1)
	a, _ = a.Slice(1, 3, 14, 1)
	b := randTensor[float64](r, 11, 7)
	bt, _ := b.Slice(1, 6, -1, -1) // reversed columns
	c, err := tf.Matmul(e, a, bt)
	if err != nil {
		t.Fatal(err)
	}
	checkMatmul(t, c, a, bt)

	// Into a transposed, sliced destination inside a larger tensor.
	host := randTensor[float64](r, 9, 14)
	before, _ := host.Clone()
	dstT, _ := host.Slice(1, 2, 12, 1) // 9x10 region
	dst, _ := dstT.Transpose()         // 10x9 view
	a2 := randTensor[float64](r, 10, 4)
	b2 := randTensor[float64](r, 4, 9)
	if err := tf.MatmulInto(e, dst, a2, b2); err != nil {
		t.Fatal(err)
	}
	checkMatmul(t, dst, a2, b2)
	// Elements outside the region are untouched.
	for i := 0; i < 9; i++ {
		for j := 0; j < 14; j++ {
			if j >= 2 && j < 12 {
				continue
			}
			if at(host, i, j) != at(before, i, j) {
				t.Fatalf("element (%d,%d) outside dst changed", i, j)
			}
		}
	}
}

func TestMatmulBatched(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for name, e := range engines(t) {
		cases := []struct{ a, b []int }{
			{[]int{3, 4, 5}, []int{4, 2, 5}},
			{[]int{7, 3, 2, 3}, []int{3, 5, 2, 3}},
			{[]int{7, 3, 1, 3}, []int{3, 5, 4, 1}}, // broadcast both ways
			{[]int{2, 2, 0}, []int{2, 2, 0}},
			{[]int{40, 50, 6}, []int{50, 30, 6}},
			{[]int{1, 1, 2, 2, 2, 2}, []int{1, 1, 2, 2, 2, 2}},
		}
		for _, tc := range cases {
			a := randTensor[complex128](r, tc.a...)
			b := randTensor[complex128](r, tc.b...)
			c, err := tf.Matmul(e, a, b)
			if err != nil {
				t.Fatalf("%s %v·%v: %v", name, tc.a, tc.b, err)
			}
			checkMatmul(t, c, a, b)
		}
		// Batch axes permuted so they do not fuse.
		a := randTensor[float32](r, 4, 3, 5, 6)
		ap, _ := a.Permute(0, 1, 3, 2)
		b := randTensor[float32](r, 3, 2, 6, 5)
		c, err := tf.Matmul(e, ap, b)
		if err != nil {
			t.Fatal(err)
		}
		checkMatmul(t, c, ap, b)
	}
}

func TestMatmulErrors(t *testing.T) {
	e := cpu.Serial()
	a, _ := tf.Zeros[float64](2, 3)
	b, _ := tf.Zeros[float64](4, 5)
	v, _ := tf.Zeros[float64](3)
	v2, _ := tf.Zeros[float64](2, 2)
	cases := []struct {
		name string
		err  error
		kind error
	}{}
	_, err := tf.Matmul(e, a, b)
	cases = append(cases, struct {
		name string
		err  error
		kind error
	}{"inner mismatch", err, tf.ErrShape})
	_, err = tf.Matmul(e, v, v)
	cases = append(cases, struct {
		name string
		err  error
		kind error
	}{"rank 1", err, tf.ErrShape})
	_, err = tf.Matmul(nil, v2, v2)
	cases = append(cases, struct {
		name string
		err  error
		kind error
	}{"nil engine", err, tf.ErrArgument})
	for _, tc := range cases {
		if !errors.Is(tc.err, tc.kind) {
			t.Errorf("%s: got %v, want kind %v", tc.name, tc.err, tc.kind)
		}
		var te *tf.Error
		if !errors.As(tc.err, &te) || te.Op == "" {
			t.Errorf("%s: %v is not a *tenferro.Error with an op", tc.name, tc.err)
		}
	}
}

// TestMatmulIntoLeavesDstOnError checks that every validation failure
// happens before a write.
func TestMatmulIntoLeavesDstOnError(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	e := cpu.Serial()
	a := randTensor[float64](r, 3, 4)
	b := randTensor[float64](r, 4, 5)
	dst := randTensor[float64](r, 3, 5)
	snap, _ := dst.Clone()
	same := func() bool {
		for i := 0; i < 3; i++ {
			for j := 0; j < 5; j++ {
				if at(dst, i, j) != at(snap, i, j) {
					return false
				}
			}
		}
		return true
	}
	wrong := randTensor[float64](r, 3, 6)
	if err := tf.MatmulInto(e, wrong, a, b); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("wrong dst shape: %v", err)
	}
	bad := randTensor[float64](r, 5, 5)
	if err := tf.MatmulInto(e, dst, a, bad); !errors.Is(err, tf.ErrShape) || !same() {
		t.Fatalf("bad b: %v (dst changed: %v)", err, !same())
	}
	// dst aliasing an input.
	sq := randTensor[float64](r, 4, 4)
	if err := tf.MatmulInto(e, sq, sq, sq); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("aliased dst: %v", err)
	}
	// A broadcast destination has repeated elements.
	// A broadcast destination has repeated elements: ErrAlias, and the
	// storage behind it is untouched.
	row := randTensor[float64](r, 1, 5)
	rowSnap, _ := row.Clone()
	bc, _ := row.Broadcast(3, 5)
	if err := tf.MatmulInto(e, bc, a, b); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("broadcast dst: %v", err)
	}
	for j := 0; j < 5; j++ {
		if at(row, 0, j) != at(rowSnap, 0, j) {
			t.Fatalf("broadcast dst: element %d written", j)
		}
	}
	// Released inputs.
	a2, _ := tf.Matmul(e, a, b)
	a2.Release()
	if err := tf.MatmulInto(e, dst, a2, randTensor[float64](r, 5, 5)); !errors.Is(err, tf.ErrReleased) || !same() {
		t.Fatalf("released a: %v", err)
	}
}

func TestMatmulZeroAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for name, e := range engines(t) {
		for _, n := range []int{8, 64, 200} {
			a := randTensor[float64](r, n, n)
			b := randTensor[float64](r, n, n)
			c := randTensor[float64](r, n, n)
			tf.MatmulInto(e, c, a, b)
			allocs := testing.AllocsPerRun(20, func() {
				if err := tf.MatmulInto(e, c, a, b); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s n=%d: MatmulInto allocates %v per call", name, n, allocs)
			}
			// Matmul + Release: storage comes from the pool; only the
			// tensor header may be allocated.
			allocs = testing.AllocsPerRun(20, func() {
				out, err := tf.Matmul(e, a, b)
				if err != nil {
					t.Fatal(err)
				}
				out.Release()
			})
			if allocs > 1 {
				t.Errorf("%s n=%d: Matmul+Release allocates %v per call, want <= 1 (the header)", name, n, allocs)
			}
		}
	}
}

func TestMatmulNaNPropagates(t *testing.T) {
	e := cpu.Serial()
	a, _ := tf.FromSlice([]float64{math.NaN(), 1, 2, 3}, 2, 2)
	b, _ := tf.FromSlice([]float64{1, 0, 0, 1}, 2, 2)
	c, err := tf.Matmul(e, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if v := at(c, 0, 0); !math.IsNaN(v) {
		t.Fatalf("NaN lost: %v", v)
	}
	if v := at(c, 1, 1); v != 3 {
		t.Fatalf("C(1,1) = %v, want 3", v)
	}
}

func ExampleEngine() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	b, _ := tf.FromRowMajor([]float64{5, 6, 7, 8}, 2, 2)
	c, _ := tf.Matmul(e, a, b)
	defer c.Release()
	fmt.Println(c.Shape(), at(c, 0, 0), at(c, 0, 1), at(c, 1, 0), at(c, 1, 1))
	// Output: [2 2] 19 22 43 50
}
