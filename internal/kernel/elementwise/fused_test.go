package elementwise

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// randProg returns a random valid program over nin inputs.
func randProg[T strided.Scalar](rng *rand.Rand, nin int) []Instr[T] {
	var prog []Instr[T]
	sp := 0
	for len(prog) < 12 || sp != 1 {
		var in Instr[T]
		switch k := rng.IntN(10); {
		case sp < 4 && (k < 5 || len(prog) < 12):
			in = Instr[T]{Op: Load, Arg: rng.IntN(nin)}
			if k == 0 {
				in = Instr[T]{Op: Const, Scalar: st.Rand[T](rng)}
			}
			sp++
		case sp >= 2 && (k < 5 || len(prog) >= 12):
			in = Instr[T]{Op: AddOp + OpCode(rng.IntN(3))}
			sp--
		case sp >= 1:
			in = Instr[T]{Op: NegOp + OpCode(rng.IntN(4)), Scalar: st.Rand[T](rng)}
		default:
			continue
		}
		prog = append(prog, in)
	}
	return prog
}

// refEval evaluates prog on one element in complex128 and also on absolute
// values (the bound of the forward error analysis).
func refEval[T strided.Scalar](prog []Instr[T], x []complex128) (v complex128, mag float64) {
	var s []complex128
	var a []float64
	for _, in := range prog {
		switch in.Op {
		case Load:
			s, a = append(s, x[in.Arg]), append(a, cmplx.Abs(x[in.Arg]))
		case Const:
			s, a = append(s, st.C128(in.Scalar)), append(a, cmplx.Abs(st.C128(in.Scalar)))
		case AddOp, SubOp, MulOp:
			n := len(s)
			p, q := s[n-2], s[n-1]
			r := [...]complex128{p + q, p - q, p * q}[in.Op-AddOp]
			m := [...]float64{a[n-2] + a[n-1], a[n-2] + a[n-1], a[n-2] * a[n-1]}[in.Op-AddOp]
			s, a = append(s[:n-2], r), append(a[:n-2], m)
		case NegOp:
			s[len(s)-1] = -s[len(s)-1]
		case ConjOp:
			s[len(s)-1] = cmplx.Conj(s[len(s)-1])
		case ScaleBy:
			s[len(s)-1] *= st.C128(in.Scalar)
			a[len(a)-1] *= cmplx.Abs(st.C128(in.Scalar))
		case AddScalar:
			s[len(s)-1] += st.C128(in.Scalar)
			a[len(a)-1] += cmplx.Abs(st.C128(in.Scalar))
		}
	}
	return s[0], a[0]
}

func checkEval[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(11, uint64(strided.Kind[T]())))
	var s Scratch[T]
	eps := st.Eps[T]()
	shapes := append([][]int{{}, {0}, {1}, {600}, {257, 3}, {3, 257}, {3, 1000}, {5, 7, 11}, {129, 5}}, testShapes(rng)...)
	for _, shape := range shapes {
		nin := 1 + rng.IntN(MaxInputs)
		prog := randProg[T](rng, nin)
		in := make([]strided.Ref[T], nin)
		for i := range in {
			in[i] = st.RandView[T](rng, shape, st.ViewOpts{Permute: true, Negative: true, Gaps: i%2 == 0, Zero: i%3 == 0})
		}
		dst := st.RandView[T](rng, shape, st.All)
		if err := Eval(r, &s, prog, shape, dst, in); err != nil {
			t.Fatal(err)
		}
		x := make([]complex128, nin)
		st.ForEach(shape, func(idx []int) {
			for i, v := range in {
				x[i] = st.C128(v.Data[st.At(v, idx)])
			}
			want, mag := refEval(prog, x)
			if !st.IsComplex[T]() {
				want = complex(real(want), 0)
			}
			got := st.C128(dst.Data[st.At(dst, idx)])
			if tol := 4 * float64(len(prog)) * eps * mag; !st.Close(got, want, tol) {
				t.Fatalf("%T shape %v prog %v idx %v: got %v want %v (tol %g)", *new(T), shape, prog, idx, got, want, tol)
			}
		})
		if i := st.CheckGuards(dst, shape); i >= 0 {
			t.Fatalf("%T shape %v: guard %d overwritten", *new(T), shape, i)
		}
	}
}

func TestEval(t *testing.T) {
	r := st.NewRunner(3)
	defer r.Close()
	for _, run := range []par.Runner{nil, r} {
		old := ParallelBytes
		if run != nil {
			ParallelBytes = 64
		}
		checkEval[float32](t, run)
		checkEval[float64](t, run)
		checkEval[complex64](t, run)
		checkEval[complex128](t, run)
		ParallelBytes = old
	}
}

func TestEvalErrors(t *testing.T) {
	var s Scratch[float64]
	v := strided.Ref[float64]{Data: make([]float64, 4), Strides: []int{1}}
	for _, prog := range [][]Instr[float64]{
		nil,
		{{Op: Load, Arg: 1}},
		{{Op: Load}, {Op: AddOp}},
		{{Op: Load}, {Op: Load}},
		{{Op: 200}},
	} {
		if err := Eval(nil, &s, prog, []int{4}, v, []strided.Ref[float64]{v}); err == nil {
			t.Errorf("program %v: no error", prog)
		}
	}
	ok := []Instr[float64]{{Op: Load}}
	bad := strided.Ref[float64]{Data: v.Data, Strides: []int{1, 1}}
	if err := Eval(nil, &s, ok, []int{4}, v, []strided.Ref[float64]{bad}); err == nil {
		t.Error("input with wrong stride count: no error")
	}
	if err := Eval(nil, &s, ok, []int{4}, bad, []strided.Ref[float64]{v}); err == nil {
		t.Error("dst with wrong stride count: no error")
	}
}

func TestEvalAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{40, 50, 3}
	a := strided.Ref[complex64]{Data: make([]complex64, 6000), Strides: []int{150, 3, 1}}
	b := strided.Ref[complex64]{Data: make([]complex64, 40), Strides: []int{1, 0, 0}}
	d := strided.Ref[complex64]{Data: make([]complex64, 6000), Strides: []int{1, 40, 2000}}
	in := []strided.Ref[complex64]{a, b}
	prog := []Instr[complex64]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: AddOp}, {Op: ScaleBy, Scalar: 2}, {Op: ConjOp}}
	var s Scratch[complex64]
	for _, run := range []par.Runner{nil, r} {
		_ = Eval(run, &s, prog, shape, d, in)
		if n := testing.AllocsPerRun(20, func() { _ = Eval(run, &s, prog, shape, d, in) }); n != 0 {
			t.Errorf("Eval: %v allocations, want 0", n)
		}
	}
}

func ExampleEval() {
	// out = conj(2*(a + b)) in one pass.
	a := []complex128{1 + 1i, 2 - 1i}
	b := []complex128{1i, 3}
	out := make([]complex128, 2)
	v := func(x []complex128) strided.Ref[complex128] {
		return strided.Ref[complex128]{Data: x, Strides: []int{1}}
	}
	prog := []Instr[complex128]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: AddOp}, {Op: ScaleBy, Scalar: 2}, {Op: ConjOp}}
	var s Scratch[complex128]
	if err := Eval(nil, &s, prog, []int{2}, v(out), []strided.Ref[complex128]{v(a), v(b)}); err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output: [(2-4i) (10+2i)]
}

// TestEvalDirect covers the blocks whose last instruction writes straight
// into a unit-stride destination: single- and multi-row blocks (an input
// transposed keeps the dimensions apart), an in-place update, and programs
// whose last instruction is a Load or a Const (which must still reach dst).
func TestEvalDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	var s Scratch[complex128]
	eps := st.Eps[complex128]()
	progs := [][]Instr[complex128]{
		{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: AddOp}, {Op: ScaleBy, Scalar: 2 - 1i}, {Op: ConjOp}},
		{{Op: Load, Arg: 1}, {Op: Load, Arg: 0}, {Op: MulOp}},
		{{Op: Load, Arg: 1}},
		{{Op: Const, Scalar: 3 + 4i}},
	}
	for _, shape := range [][]int{{600}, {3, 1000}, {5, 7, 11}, {300, 2}} {
		for pi, prog := range progs {
			for _, inPlace := range []bool{false, true} {
				dst := st.RandView[complex128](rng, shape, st.ViewOpts{})
				tr := st.RandView[complex128](rng, shape, st.ViewOpts{Permute: true, Negative: true})
				in := []strided.Ref[complex128]{dst, tr}
				if !inPlace {
					in[0] = st.RandView[complex128](rng, shape, st.ViewOpts{})
				}
				in0 := strided.Ref[complex128]{Data: append([]complex128(nil), in[0].Data...), Off: in[0].Off, Strides: in[0].Strides}
				if err := Eval(nil, &s, prog, shape, dst, in); err != nil {
					t.Fatal(err)
				}
				x := make([]complex128, 2)
				st.ForEach(shape, func(idx []int) {
					x[0], x[1] = in0.Data[st.At(in0, idx)], tr.Data[st.At(tr, idx)]
					want, mag := refEval(prog, x)
					got := dst.Data[st.At(dst, idx)]
					if tol := 4 * float64(len(prog)) * eps * mag; !st.Close(got, want, tol) {
						t.Fatalf("shape %v prog %d in place %v idx %v: got %v want %v", shape, pi, inPlace, idx, got, want)
					}
				})
				if i := st.CheckGuards(dst, shape); i >= 0 {
					t.Fatalf("shape %v prog %d: guard %d overwritten", shape, pi, i)
				}
			}
		}
	}
}
