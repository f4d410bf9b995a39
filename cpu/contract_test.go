package cpu_test

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/team"
)

// This file checks the engine's side of the contract that the other tests
// do not: unusable engines, Close racing with operations, accumulating
// contractions and copies of the non-arithmetic dtypes.

// noPanic runs f and turns a panic into a test error.
func noPanic(t *testing.T, name string, f func() error) (err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v", name, p)
			err = nil
		}
	}()
	return f()
}

// TestUnusableEngines passes a zero cpu.Engine and a nil *cpu.Engine to
// the operations: each must fail with an ErrArgument error naming the
// operation, without panicking and without writing its destination.
func TestUnusableEngines(t *testing.T) {
	var nilEngine *cpu.Engine
	engines := []struct {
		name string
		e    tf.Engine
	}{
		{"zero cpu.Engine", new(cpu.Engine)},
		{"nil *cpu.Engine", nilEngine},
		{"nil tf.Engine", nil},
	}
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	ints, _ := tf.FromSlice([]int64{1, 2, 3, 4}, 2, 2)
	plan, err := tf.PrepareEinsum(tf.Float64, "ij,jk->ik", [][]int{{2, 2}, {2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range engines {
		e := en.e
		dst, _ := tf.Full(7.0, 2, 2)
		sdst, _ := tf.Full(7.0, 2)
		idst, _ := tf.Full(int64(7), 2, 2)
		calls := []struct {
			op  string
			run func() error
		}{
			{"Matmul", func() error { _, err := tf.Matmul(e, a, a); return err }},
			{"MatmulInto", func() error { return tf.MatmulInto(e, dst, a, a) }},
			{"MatmulInto", func() error { return tf.MatmulInto(e, dst, a, a, tf.Accumulate(2, 1)) }},
			{"Einsum", func() error { _, err := tf.Einsum(e, "ij,jk->ik", a, a); return err }},
			{"EinsumWith", func() error {
				_, err := tf.EinsumWith(e, "ij,jk->ik", []*tf.Tensor[float64]{a, a}, tf.WithStrategy(einsum.Greedy))
				return err
			}},
			{"EinsumInto", func() error { return tf.EinsumInto(e, dst, "ij,jk->ik", a, a) }},
			{"EinsumWithInto", func() error {
				return tf.EinsumWithInto(e, dst, "ij,jk->ik", []*tf.Tensor[float64]{a, a}, tf.Accumulate(1, 1))
			}},
			{"EinsumPlanned", func() error { _, err := tf.EinsumPlanned(e, plan, a, a); return err }},
			{"EinsumPlannedInto", func() error { return tf.EinsumPlannedInto(e, dst, plan, a, a) }},
			{"Add", func() error { _, err := tf.Add(e, a, a); return err }},
			{"AddInto", func() error { return tf.AddInto(e, dst, a, a) }},
			{"MulInto", func() error { return tf.MulInto(e, dst, dst, a) }},
			{"Scale", func() error { _, err := tf.Scale(e, 2, a); return err }},
			{"NegateInto", func() error { return tf.NegateInto(e, dst, a) }},
			{"Sum", func() error { _, err := tf.Sum(e, a, 0); return err }},
			{"SumInto", func() error { return tf.SumInto(e, sdst, a, -1) }},
			{"Copy", func() error { _, err := tf.Copy(e, a); return err }},
			{"CopyInto", func() error { return tf.CopyInto(e, dst, a) }},
			{"Copy", func() error { _, err := tf.Copy(e, ints); return err }},
			{"CopyInto", func() error { return tf.CopyInto(e, idst, ints) }},
			{"NewTensor", func() error { _, err := tf.NewTensor[bool](e, 3); return err }},
		}
		for _, c := range calls {
			name := en.name + " " + c.op
			err := noPanic(t, name, c.run)
			var te *tf.Error
			switch {
			case !errors.Is(err, tf.ErrArgument):
				t.Errorf("%s: %v, want an ErrArgument error", name, err)
			case !errors.As(err, &te) || te.Op != c.op || te.Arg != "e":
				t.Errorf("%s: %v, want a *tenferro.Error of %s about argument e", name, err, c.op)
			}
		}
		for i, x := range dst.Storage() {
			if x != 7 || sdst.Storage()[i%2] != 7 || idst.Storage()[i] != 7 {
				t.Fatalf("%s: a failed call wrote a destination", en.name)
			}
		}
	}
	// The zero engine's own methods work: one thread, an empty pool, no
	// plan cache.
	z := new(cpu.Engine)
	noPanic(t, "zero engine methods", func() error {
		if n := z.Threads(); n != 1 {
			t.Errorf("zero engine Threads = %d, want 1", n)
		}
		if st := z.BufferPoolStats(); st != (cpu.BufferPoolStats{}) {
			t.Errorf("zero engine pool: %+v", st)
		}
		if z.PlanCache() != nil {
			t.Error("zero engine has a plan cache")
		}
		_ = z.String()
		return nil
	})
	// A zero engine stays unusable after Close (which succeeds).
	if err := noPanic(t, "zero Close", z.Close); err != nil {
		t.Errorf("Close of a zero engine: %v", err)
	}
	if _, err := tf.Matmul(z, a, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Matmul on a closed zero engine: %v", err)
	}
}

// TestCloseRacesOperations closes an engine from one goroutine while
// another runs MatmulInto on it in a loop. Every call either succeeds (with
// the right result) or fails with ErrEngineBusy or ErrClosed; once Close
// has succeeded every operation fails with ErrClosed, and the first
// ErrClosed is final. Run with -race, this also proves there is no data race
// between Close and a running operation.
func TestCloseRacesOperations(t *testing.T) {
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		var e *cpu.Engine
		n := []int{8, 48, 96}[round%3]
		if round%2 == 1 {
			tm, err := team.New(team.Threads(2))
			if err != nil {
				t.Fatal(err)
			}
			if e, err = cpu.New(tm); err != nil {
				t.Fatal(err)
			}
		} else {
			e = cpu.Serial()
		}
		a, _ := tf.Ones[float64](n, n)
		dst, _ := tf.Zeros[float64](n, n)
		var (
			wg       sync.WaitGroup
			closed   atomic.Bool // set once Close has returned nil
			started  = make(chan struct{})
			okCalls  atomic.Int64
			busyRuns atomic.Int64
		)
		var startOnce sync.Once
		start := func() { startOnce.Do(func() { close(started) }) }
		wg.Add(2)
		go func() { // the operations
			defer wg.Done()
			defer start() // never leave the closer waiting
			seenClosed := false
			for i := 0; ; i++ {
				if i == 3 {
					start()
				}
				after := closed.Load() // Close returned before this call
				err := tf.MatmulInto(e, dst, a, a)
				switch {
				case err == nil:
					if after || seenClosed {
						t.Errorf("round %d: MatmulInto succeeded after Close", round)
						return
					}
					if v, _ := dst.At(n-1, n-1); v != float64(n) {
						t.Errorf("round %d: MatmulInto computed %v, want %d", round, v, n)
						return
					}
					okCalls.Add(1)
				case errors.Is(err, tf.ErrClosed):
					seenClosed = true
				case errors.Is(err, tf.ErrEngineBusy) && !after && !seenClosed:
					// A Close in progress may hold the engine.
					busyRuns.Add(1)
				default:
					t.Errorf("round %d: MatmulInto: %v, want nil, ErrEngineBusy or ErrClosed (ErrClosed after Close)", round, err)
					return
				}
				if seenClosed && i > 3 {
					// A few more calls after the first refusal: all
					// must fail too.
					for range 3 {
						if err := tf.MatmulInto(e, dst, a, a); !errors.Is(err, tf.ErrClosed) {
							t.Errorf("round %d: MatmulInto after Close: %v", round, err)
						}
					}
					return
				}
				if i > 1<<20 {
					t.Errorf("round %d: the engine never closed", round)
					return
				}
			}
		}()
		go func() { // Close, retried while the engine is busy
			defer wg.Done()
			<-started
			for {
				err := e.Close()
				if err == nil {
					closed.Store(true)
					return
				}
				if !errors.Is(err, tf.ErrEngineBusy) {
					t.Errorf("round %d: Close: %v, want nil or ErrEngineBusy", round, err)
					return
				}
				busyRuns.Add(1)
			}
		}()
		wg.Wait()
		if t.Failed() {
			return
		}
		if okCalls.Load() < 3 {
			t.Fatalf("round %d: %d successful calls before Close, want at least 3", round, okCalls.Load())
		}
		// After Close every operation fails with ErrClosed; Close again
		// is nil.
		if err := tf.MatmulInto(e, dst, a, a); !errors.Is(err, tf.ErrClosed) {
			t.Fatalf("round %d: MatmulInto on a closed engine: %v", round, err)
		}
		if _, err := tf.Matmul(e, a, a); !errors.Is(err, tf.ErrClosed) {
			t.Fatalf("round %d: Matmul on a closed engine: %v", round, err)
		}
		if _, err := tf.Einsum(e, "ij,jk->ik", a, a); !errors.Is(err, tf.ErrClosed) {
			t.Fatalf("round %d: Einsum on a closed engine: %v", round, err)
		}
		if err := e.Close(); err != nil {
			t.Fatalf("round %d: second Close: %v", round, err)
		}
		if round == rounds-1 {
			t.Logf("last round: %d successful calls, %d busy refusals", okCalls.Load(), busyRuns.Load())
		}
	}
}

// TestConcurrentClose closes one engine from several goroutines at once:
// every Close returns nil (the first closes, the others find it closed).
func TestConcurrentClose(t *testing.T) {
	for range 20 {
		tm, err := team.New(team.Threads(2))
		if err != nil {
			t.Fatal(err)
		}
		e, _ := cpu.New(tm)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := e.Close(); err != nil {
					t.Errorf("concurrent Close: %v", err)
				}
			}()
		}
		wg.Wait()
		a, _ := tf.Ones[float64](2, 2)
		if _, err := tf.Matmul(e, a, a); !errors.Is(err, tf.ErrClosed) {
			t.Fatalf("Matmul after concurrent Close: %v", err)
		}
	}
}

// ---------------------------------------------------------------------------
// Accumulating contractions.

// guarded is a destination view inside a larger host tensor, so that a test
// can check that nothing outside the view was written.
type guarded[T tf.Scalar] struct {
	dst, host *tf.Tensor[T]
	snap      []T   // host storage before the call
	inside    []int // sorted storage indices of dst's elements
}

// newGuarded returns a view of the given shape into a host with extra
// elements, filled by fill (called per storage index). With transposed
// set, a rank-2 destination is a transposed window.
func newGuarded[T tf.Scalar](t *testing.T, shape []int, transposed bool, fill func(i int) T) *guarded[T] {
	t.Helper()
	var dst, host *tf.Tensor[T]
	var err error
	switch {
	case len(shape) == 0:
		host, _ = tf.Zeros[T](3)
		if dst, err = host.Slice(0, 1, 2, 1); err == nil {
			dst, err = dst.Reshape()
		}
	case transposed && len(shape) == 2:
		host, _ = tf.Zeros[T](shape[1]+3, shape[0])
		if dst, err = host.Slice(0, 1, 1+shape[1], 1); err == nil {
			dst, err = dst.Transpose()
		}
	default:
		hs := slices.Clone(shape)
		hs[0] += 3
		host, _ = tf.Zeros[T](hs...)
		dst, err = host.Slice(0, 2, 2+shape[0], 1)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dst.Shape(), shape) {
		t.Fatalf("guarded view of shape %v, want %v", dst.Shape(), shape)
	}
	st := host.Storage()
	for i := range st {
		st[i] = fill(i)
	}
	g := &guarded[T]{dst: dst, host: host, snap: slices.Clone(st)}
	forEach(shape, func(idx []int) {
		off := dst.Offset()
		for d, x := range idx {
			off += x * dst.Strides()[d]
		}
		g.inside = append(g.inside, off)
	})
	slices.Sort(g.inside)
	return g
}

// before returns dst's element at idx before the call.
func (g *guarded[T]) before(idx []int) T {
	off := g.dst.Offset()
	for d, x := range idx {
		off += x * g.dst.Strides()[d]
	}
	return g.snap[off]
}

// checkOutside fails when an element of the host outside dst changed.
func (g *guarded[T]) checkOutside(t *testing.T, what string) {
	t.Helper()
	for i, v := range g.host.Storage() {
		if _, in := slices.BinarySearch(g.inside, i); in {
			continue
		}
		if !sameBits(v, g.snap[i]) {
			t.Fatalf("%s: element %d outside dst changed from %v to %v", what, i, g.snap[i], v)
		}
	}
}

// checkUntouched fails when any element of the host changed.
func (g *guarded[T]) checkUntouched(t *testing.T, what string) {
	t.Helper()
	for i, v := range g.host.Storage() {
		if !sameBits(v, g.snap[i]) {
			t.Fatalf("%s: element %d changed from %v to %v", what, i, g.snap[i], v)
		}
	}
}

// sameBits compares two elements, NaNs included.
func sameBits[T tf.Scalar](x, y T) bool {
	a, b := c128(x), c128(y)
	same := func(p, q float64) bool { return p == q || math.IsNaN(p) && math.IsNaN(q) }
	return same(real(a), real(b)) && same(imag(a), imag(b))
}

// naiveEinsum evaluates subscripts (letters only, explicit output) on ops
// by summing over every assignment of the labels in complex128. It
// returns the output shape, the result and Σ|term| per element (both in
// column-major order) and the number of terms per element.
func naiveEinsum[T tf.Scalar](sub string, ops []*tf.Tensor[T]) (shape []int, ref []complex128, mag []float64, terms int) {
	lhs, out, ok := strings.Cut(sub, "->")
	if !ok {
		panic("naiveEinsum needs an explicit output")
	}
	ins := strings.Split(lhs, ",")
	ext := map[rune]int{}
	var labels []rune
	for k, in := range ins {
		for d, l := range in {
			if _, seen := ext[l]; !seen {
				labels = append(labels, l)
			}
			ext[l] = ops[k].Shape()[d]
		}
	}
	for _, l := range out {
		shape = append(shape, ext[l])
	}
	ref = make([]complex128, tf.Numel(shape))
	mag = make([]float64, len(ref))
	lshape := make([]int, len(labels))
	for i, l := range labels {
		lshape[i] = ext[l]
	}
	val := map[rune]int{}
	forEach(lshape, func(li []int) {
		for i, l := range labels {
			val[l] = li[i]
		}
		p := complex128(1)
		for k, in := range ins {
			idx := make([]int, 0, len(in))
			for _, l := range in {
				idx = append(idx, val[l])
			}
			p *= c128(at(ops[k], idx...))
		}
		o, mul, d := 0, 1, 0
		for _, l := range out {
			o += val[l] * mul
			mul *= shape[d]
			d++
		}
		ref[o] += p
		mag[o] += cmplx.Abs(p)
	})
	if len(ref) > 0 {
		terms = tf.Numel(lshape) / len(ref)
	}
	return shape, ref, mag, terms
}

// checkAccumulated compares g.dst with alpha·ref + beta·dst0.
func checkAccumulated[T tf.Scalar](t *testing.T, what string, g *guarded[T], shape []int, ref []complex128, mag []float64, terms int, alpha, beta complex128) {
	t.Helper()
	lin := 0
	forEach(shape, func(idx []int) {
		want := alpha * ref[lin]
		bound := cmplx.Abs(alpha) * mag[lin]
		if beta != 0 {
			d0 := c128(g.before(idx))
			want += beta * d0
			bound += cmplx.Abs(beta) * cmplx.Abs(d0)
		}
		got := c128(at(g.dst, idx...))
		tol := 4*float64(terms+2)*eps[T]()*bound + 1e-300
		if d := cmplx.Abs(got - want); !(d <= tol) {
			t.Fatalf("%s: dst%v = %v, want %v (|diff| %.3g > tol %.3g)", what, idx, got, want, d, tol)
		}
		lin++
	})
	g.checkOutside(t, what)
}

// accCases are the (alpha, beta) pairs of the accumulation tests; the
// complex ones run for complex dtypes only.
var accCases = []struct {
	alpha, beta complex128
	nanDst      bool // fill dst with NaN (only with beta = 0)
}{
	{1, 0, true},
	{2.5, 0, true},
	{0, 0, true},
	{-1, 0, false},
	{0, 1, false},
	{0, -0.5, false},
	{1, 1, false},
	{-0.75, 1.5, false},
	{3, -1, false},
	{1 + 2i, 0, true},
	{0.5 - 1i, 2 + 0.5i, false},
	{1i, 1i, false},
	{0, 1 - 1i, false},
}

func randFill[T tf.Scalar](r *rand.Rand) func(int) T {
	return func(int) T {
		x := randTensor[T](r, 1).Storage()[0]
		return x
	}
}

func nanFill[T tf.Scalar](int) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(math.NaN())
	case *float64:
		*p = math.NaN()
	case *complex64:
		*p = complex(float32(math.NaN()), float32(math.NaN()))
	case *complex128:
		*p = complex(math.NaN(), math.NaN())
	}
	return z
}

// applicable reports whether Accumulate(alpha, beta) is valid for T (real
// dtypes need real alpha and beta).
func applicable[T tf.Scalar](alpha, beta complex128) bool {
	return tf.DTypeOf[T]().IsComplex() || imag(alpha) == 0 && imag(beta) == 0
}

func testMatmulAccumulate[T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	shapes := []struct {
		a, b   []int
		ta, tb bool // transposed operands (rank 2)
		td     bool // transposed destination (rank 2)
	}{
		{[]int{5, 7}, []int{7, 3}, false, false, false},
		{[]int{1, 1}, []int{1, 1}, false, false, false},
		{[]int{6, 4}, []int{4, 9}, true, false, true},
		{[]int{13, 0}, []int{0, 4}, false, false, false}, // k = 0: dst = beta·dst
		{[]int{40, 35}, []int{35, 33}, false, true, true},
		{[]int{4, 3, 2}, []int{3, 5, 2}, false, false, false},
		{[]int{4, 3, 1, 3}, []int{3, 2, 2, 1}, false, false, false}, // broadcast batch
	}
	for name, e := range engines(t) {
		for _, s := range shapes {
			for _, c := range accCases {
				if !applicable[T](c.alpha, c.beta) {
					continue
				}
				var a, b *tf.Tensor[T]
				if s.ta {
					a = operand[T](r, s.a[0], s.a[1], true)
				} else {
					a = randTensor[T](r, s.a...)
				}
				if s.tb {
					b = operand[T](r, s.b[0], s.b[1], true)
				} else {
					b = randTensor[T](r, s.b...)
				}
				sub := "ij,jk->ik"
				if len(s.a) == 3 {
					sub = "ijb,jkb->ikb"
				}
				var out []int
				var ref []complex128
				var mag []float64
				var terms int
				if len(s.a) == 4 {
					// Broadcast batch axes: the reference broadcasts
					// explicitly.
					ab, _ := a.Broadcast(4, 3, 2, 3)
					bb, _ := b.Broadcast(3, 2, 2, 3)
					out, ref, mag, terms = naiveEinsum("ijbc,jkbc->ikbc", []*tf.Tensor[T]{ab, bb})
				} else {
					out, ref, mag, terms = naiveEinsum(sub, []*tf.Tensor[T]{a, b})
				}
				fill := randFill[T](r)
				if c.nanDst {
					fill = nanFill[T]
				}
				g := newGuarded(t, out, s.td, fill)
				what := fmt.Sprintf("%s MatmulInto %v·%v Accumulate(%v, %v)", name, s.a, s.b, c.alpha, c.beta)
				if err := tf.MatmulInto(e, g.dst, a, b, tf.Accumulate(c.alpha, c.beta)); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				checkAccumulated(t, what, g, out, ref, mag, terms, c.alpha, c.beta)
			}
		}
		// No options is Accumulate(1, 0).
		a, b := randTensor[T](r, 3, 4), randTensor[T](r, 4, 2)
		out, ref, mag, terms := naiveEinsum("ij,jk->ik", []*tf.Tensor[T]{a, b})
		g := newGuarded(t, out, false, nanFill[T])
		if err := tf.MatmulInto(e, g.dst, a, b); err != nil {
			t.Fatal(err)
		}
		checkAccumulated(t, name+" MatmulInto", g, out, ref, mag, terms, 1, 0)
	}
}

func TestMatmulAccumulate(t *testing.T) {
	t.Run("f32", testMatmulAccumulate[float32])
	t.Run("f64", testMatmulAccumulate[float64])
	t.Run("c64", testMatmulAccumulate[complex64])
	t.Run("c128", testMatmulAccumulate[complex128])
}

// einsumAccCases cover every way the executor's last step writes dst:
// GEMM (in place, transposed, batched, packed), the element-wise product
// (outer, Hadamard), sum-of-products (dot, matrix-vector), the final copy
// (permutation, embedding into a diagonal) and the final reduction.
var einsumAccCases = []struct {
	sub    string
	shapes [][]int
	td     bool // transposed destination (rank 2)
}{
	{"ij,jk->ik", [][]int{{4, 5}, {5, 3}}, false},
	{"ij,jk->ik", [][]int{{4, 5}, {5, 3}}, true},
	{"ij,jk->ki", [][]int{{4, 5}, {5, 3}}, false},
	{"ijb,jkb->ikb", [][]int{{3, 4, 2}, {4, 5, 2}}, false},
	{"bij,bjk->bik", [][]int{{2, 3, 4}, {2, 4, 5}}, false},
	{"bij,bjk->bik", [][]int{{2, 24, 16}, {2, 16, 20}}, false},
	{"iij,jk->ik", [][]int{{3, 3, 4}, {4, 5}}, false},
	{"ij,jk,kl->il", [][]int{{3, 4}, {4, 5}, {5, 2}}, false},
	{"ij,jk,k->i", [][]int{{3, 4}, {4, 5}, {5}}, false},
	{"i,j->ij", [][]int{{4}, {3}}, false},
	{"i,j->ij", [][]int{{4}, {3}}, true},
	{"ij,ij->ij", [][]int{{3, 4}, {3, 4}}, false},
	{"ij,ij->iij", [][]int{{3, 4}, {3, 4}}, false},
	{"i,i->", [][]int{{7}, {7}}, false},
	{"ij,j->i", [][]int{{4, 6}, {6}}, false},
	{"i->ii", [][]int{{4}}, false},
	{"ij->ji", [][]int{{3, 4}}, false},
	{"ijk->i", [][]int{{3, 4, 5}}, false},
	{"ii->i", [][]int{{4, 4}}, false},
	{"ii->", [][]int{{4, 4}}, false},
	{"ij,jk->iik", [][]int{{3, 4}, {4, 5}}, false},
	{"ij,kl->i", [][]int{{3, 4}, {2, 5}}, false},
	{"ij,jk->i", [][]int{{3, 4}, {4, 5}}, false},
	{"ijk,jkl->li", [][]int{{3, 4, 2}, {4, 2, 5}}, false},
	// Results written in blocks: rows (i, j) split by k in dst; then
	// rows and columns both split; then blocks too narrow (compact copy).
	{"ija,ak->ikj", [][]int{{33, 2, 4}, {4, 5}}, false},
	{"iaj,akl->kilj", [][]int{{33, 4, 3}, {4, 34, 2}}, false},
	{"iaj,akl->kilj", [][]int{{5, 4, 3}, {4, 6, 2}}, false},
	{"ij,jk->ik", [][]int{{3, 0}, {0, 4}}, false}, // empty sum: dst = beta·dst
	{"ij,jk->ik", [][]int{{0, 4}, {4, 3}}, false}, // empty output
}

func testEinsumAccumulate[T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for name, e := range engines(t) {
		for _, ec := range einsumAccCases {
			for ci, c := range accCases {
				if !applicable[T](c.alpha, c.beta) {
					continue
				}
				var ops []*tf.Tensor[T]
				for k, s := range ec.shapes {
					if len(s) == 2 && (k+ci)%2 == 1 {
						ops = append(ops, operand[T](r, s[0], s[1], true))
						continue
					}
					ops = append(ops, randTensor[T](r, s...))
				}
				out, ref, mag, terms := naiveEinsum(ec.sub, ops)
				fill := randFill[T](r)
				if c.nanDst {
					fill = nanFill[T]
				}
				g := newGuarded(t, out, ec.td, fill)
				what := fmt.Sprintf("%s EinsumWithInto %q Accumulate(%v, %v)", name, ec.sub, c.alpha, c.beta)
				opts := []tf.Option{tf.Accumulate(c.alpha, c.beta)}
				if ci%3 == 2 {
					opts = append(opts, tf.WithStrategy(einsum.Greedy))
				}
				if err := tf.EinsumWithInto(e, g.dst, ec.sub, ops, opts...); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				checkAccumulated(t, what, g, out, ref, mag, terms, c.alpha, c.beta)
			}
		}
	}
}

func TestEinsumAccumulate(t *testing.T) {
	t.Run("f32", testEinsumAccumulate[float32])
	t.Run("f64", testEinsumAccumulate[float64])
	t.Run("c64", testEinsumAccumulate[complex64])
	t.Run("c128", testEinsumAccumulate[complex128])
}

// testAccumulateErrors: complex alpha or beta for a real dtype, and
// Accumulate where it does not apply, are ErrArgument errors that leave
// dst untouched.
func testAccumulateErrors[T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	e := cpu.Serial()
	defer e.Close()
	a, b := randTensor[T](r, 3, 4), randTensor[T](r, 4, 2)
	g := newGuarded(t, []int{3, 2}, true, randFill[T](r))
	check := func(what, op string, err error) {
		t.Helper()
		var te *tf.Error
		if !errors.Is(err, tf.ErrArgument) || !errors.As(err, &te) || te.Op != op {
			t.Errorf("%s: %v, want an ErrArgument error of %s", what, err, op)
		}
		g.checkUntouched(t, what)
	}
	if !tf.DTypeOf[T]().IsComplex() {
		for _, ab := range [][2]complex128{{1i, 0}, {1, 1i}, {2 + 1e-300i, 1}, {0, -1i}} {
			acc := tf.Accumulate(ab[0], ab[1])
			what := fmt.Sprintf("Accumulate(%v, %v) for %v", ab[0], ab[1], tf.DTypeOf[T]())
			check("MatmulInto "+what, "MatmulInto", tf.MatmulInto(e, g.dst, a, b, acc))
			check("EinsumWithInto "+what, "EinsumWithInto",
				tf.EinsumWithInto(e, g.dst, "ij,jk->ik", []*tf.Tensor[T]{a, b}, acc))
			check("EinsumWithInto "+what+" (second option)", "EinsumWithInto",
				tf.EinsumWithInto(e, g.dst, "ij,jk->ik", []*tf.Tensor[T]{a, b}, tf.WithStrategy(einsum.Greedy), acc))
		}
	}
	check("MatmulInto zero Option", "MatmulInto", tf.MatmulInto(e, g.dst, a, b, tf.Option{}))
	check("MatmulInto planning option", "MatmulInto", tf.MatmulInto(e, g.dst, a, b, tf.WithStrategy(einsum.Greedy)))
	check("EinsumWithInto zero Option", "EinsumWithInto",
		tf.EinsumWithInto(e, g.dst, "ij,jk->ik", []*tf.Tensor[T]{a, b}, tf.Option{}))
	for _, n := range []int{0, -2} {
		check(fmt.Sprintf("EinsumWithInto WithSliceWorkers(%d)", n), "EinsumWithInto",
			tf.EinsumWithInto(e, g.dst, "ij,jk->ik", []*tf.Tensor[T]{a, b}, tf.WithSliceWorkers(n)))
	}
	check("MatmulInto WithSliceWorkers", "MatmulInto", tf.MatmulInto(e, g.dst, a, b, tf.WithSliceWorkers(2)))
	_, err := tf.EinsumWith(e, "ij,jk->ik", []*tf.Tensor[T]{a, b}, tf.Accumulate(1, 1))
	check("EinsumWith Accumulate", "EinsumWith", err)
	_, err = tf.PrepareEinsum(tf.DTypeOf[T](), "ij,jk->ik", [][]int{{3, 4}, {4, 2}}, tf.Accumulate(1, 0))
	check("PrepareEinsum Accumulate", "PrepareEinsum", err)
	// A valid accumulating call still works after the failures.
	out, ref, mag, terms := naiveEinsum("ij,jk->ik", []*tf.Tensor[T]{a, b})
	if err := tf.MatmulInto(e, g.dst, a, b, tf.Accumulate(2, -1)); err != nil {
		t.Fatal(err)
	}
	checkAccumulated(t, "MatmulInto after failures", g, out, ref, mag, terms, 2, -1)
}

func TestAccumulateErrors(t *testing.T) {
	t.Run("f32", testAccumulateErrors[float32])
	t.Run("f64", testAccumulateErrors[float64])
	t.Run("c64", testAccumulateErrors[complex64])
	t.Run("c128", testAccumulateErrors[complex128])
}

// TestMatmulAccumulateAllocs: MatmulInto allocates nothing on a warm
// engine, with Accumulate too.
func TestMatmulAccumulateAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 48))
	for name, e := range engines(t) {
		a, b := randTensor[float64](r, 32, 24), randTensor[float64](r, 24, 16)
		c := randTensor[float64](r, 32, 16)
		for _, acc := range []tf.Option{tf.Accumulate(1, 0), tf.Accumulate(2, 0.5), tf.Accumulate(0, 1)} {
			run := func() {
				if err := tf.MatmulInto(e, c, a, b, acc); err != nil {
					t.Fatal(err)
				}
			}
			run()
			if n := testing.AllocsPerRun(20, run); n != 0 {
				t.Errorf("%s: MatmulInto with Accumulate allocates %v per call", name, n)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Copies of int64 and bool tensors.

func testCopyData[T int64 | bool](t *testing.T, val func(i int) T) {
	e := cpu.Serial()
	defer e.Close()
	buf := make([]T, 4*5*3)
	for i := range buf {
		buf[i] = val(i)
	}
	base, _ := tf.FromSlice(buf, 4, 5, 3)
	sq, _ := tf.FromSlice(buf[:16], 4, 4)
	row, _ := tf.FromSlice(buf[:5], 1, 5)
	views := map[string]func() (*tf.Tensor[T], error){
		"compact":    func() (*tf.Tensor[T], error) { return base, nil },
		"transposed": base.Transpose,
		"permuted":   func() (*tf.Tensor[T], error) { return base.Permute(1, 2, 0) },
		"negative permutation": func() (*tf.Tensor[T], error) {
			return base.Permute(-1, 0, -2)
		},
		"stepped":  func() (*tf.Tensor[T], error) { return base.Slice(1, 0, 5, 2) },
		"reversed": func() (*tf.Tensor[T], error) { return base.Reverse(-1) },
		"reversed step": func() (*tf.Tensor[T], error) {
			return base.Slice(0, 3, -1, -2)
		},
		"diagonal":  func() (*tf.Tensor[T], error) { return sq.Diagonal(0, 1) },
		"broadcast": func() (*tf.Tensor[T], error) { return row.Broadcast(2, 3, 5) },
		"empty":     func() (*tf.Tensor[T], error) { return base.Slice(1, 2, 2, 1) },
		"rank 0": func() (*tf.Tensor[T], error) {
			v, err := base.Slice(0, 1, 2, 1)
			if err != nil {
				return nil, err
			}
			if v, err = v.Slice(1, 3, 4, 1); err != nil {
				return nil, err
			}
			if v, err = v.Slice(2, 2, 3, 1); err != nil {
				return nil, err
			}
			return v.Reshape()
		},
	}
	for name, mk := range views {
		v, err := mk()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		shape := v.Shape()
		want := []T{}
		forEach(shape, func(idx []int) {
			x, err := v.At(idx...)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, x)
		})
		// Copy: a compact column-major tensor of the view's elements.
		c, err := tf.Copy(e, v)
		if err != nil {
			t.Fatalf("Copy %s: %v", name, err)
		}
		d, err := c.Data()
		if err != nil || !slices.Equal(c.Shape(), shape) || !slices.Equal(d, want) {
			t.Fatalf("Copy %s: shape %v data %v (%v), want shape %v data %v", name, c.Shape(), d, err, shape, want)
		}
		if c.Storage() != nil && len(want) > 0 && &c.Storage()[0] == &buf[0] {
			t.Fatalf("Copy %s shares the source's storage", name)
		}
		c.Release()
		// CopyInto a transposed window of a larger tensor, whose other
		// elements must stay as they were.
		var zero T
		hostShape := slices.Clone(shape)
		slices.Reverse(hostShape)
		if len(hostShape) > 0 {
			hostShape[0] += 2
		}
		host, _ := tf.Full(zero, hostShape...)
		hs := host.Storage()
		for i := range hs {
			hs[i] = val(1000 + i)
		}
		snap := slices.Clone(hs)
		dst := host
		if len(shape) > 0 {
			dst, _ = host.Slice(0, 1, 1+shape[len(shape)-1], 1)
			perm := make([]int, len(shape))
			for i := range perm {
				perm[i] = len(shape) - 1 - i
			}
			dst, _ = dst.Permute(perm...)
		}
		if err := tf.CopyInto(e, dst, v); err != nil {
			t.Fatalf("CopyInto %s: %v", name, err)
		}
		inside := map[int]bool{}
		i := 0
		forEach(shape, func(idx []int) {
			got, _ := dst.At(idx...)
			if got != want[i] {
				t.Fatalf("CopyInto %s at %v: %v, want %v", name, idx, got, want[i])
			}
			off := dst.Offset()
			for d, x := range idx {
				off += x * dst.Strides()[d]
			}
			inside[off] = true
			i++
		})
		for j, x := range hs {
			if !inside[j] && x != snap[j] {
				t.Fatalf("CopyInto %s wrote element %d outside dst", name, j)
			}
		}
	}
	// The destination rule holds for every dtype: the same view is a
	// no-op, a partial overlap and a broadcast destination are ErrAlias.
	snap := slices.Clone(buf)
	if err := tf.CopyInto(e, base, base); err != nil {
		t.Fatalf("CopyInto in place: %v", err)
	}
	lo, _ := base.Slice(0, 0, 3, 1)
	hi, _ := base.Slice(0, 1, 4, 1)
	if err := tf.CopyInto(e, hi, lo); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("CopyInto partial overlap: %v", err)
	}
	bdst, _ := row.Broadcast(3, 5)
	src, _ := tf.FromSlice(buf[20:35], 3, 5)
	if err := tf.CopyInto(e, bdst, src); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("CopyInto broadcast dst: %v", err)
	}
	if err := tf.CopyInto(e, src, base); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("CopyInto shape: %v", err)
	}
	if !slices.Equal(buf, snap) {
		t.Fatal("no-op or failed CopyInto calls changed the source")
	}
	// Outputs come from and return to the pool of their dtype.
	e.ClearBufferPool()
	c, err := tf.Copy(e, base)
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	want := cpu.BufferPoolStats{Buffers: 1, CapacityBytes: int64(len(buf) * tf.DTypeOf[T]().Size())}
	if got := e.BufferPoolStats(); got != want {
		t.Fatalf("pool after Copy + Release: %+v, want %+v", got, want)
	}
	c2, _ := tf.Copy(e, base)
	if got := e.BufferPoolStats(); got.Buffers != 0 {
		t.Fatalf("pool after reuse: %+v", got)
	}
	if d, _ := c2.Data(); !slices.Equal(d, buf) {
		t.Fatalf("Copy into recycled storage: %v, want %v", d, buf)
	}
	// CopyInto allocates nothing on a warm engine.
	tr, _ := base.Transpose()
	out, _ := tf.Full(val(0), 3, 5, 4)
	run := func() {
		if err := tf.CopyInto(e, out, tr); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("CopyInto allocates %v per call", n)
	}
}

func TestCopyInt64(t *testing.T) {
	testCopyData(t, func(i int) int64 { return int64(i*7-30) << 33 })
}

func TestCopyBool(t *testing.T) {
	testCopyData(t, func(i int) bool { return i%3 == 0 || i%5 == 1 })
}
