package elementwise

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// randProg returns a random valid program over nin inputs whose Apply
// instructions run the catalog operations unary and binary (each drawn
// with a random Scalar, the attribute of the unary operations that take
// one and ignored by the others).
func randProg[T strided.Scalar](rng *rand.Rand, nin int, unary, binary []op.Kind) []Instr[T] {
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
			in = Instr[T]{Op: Apply, Kind: binary[rng.IntN(len(binary))], Scalar: st.Rand[T](rng)}
			sp--
		case sp >= 1:
			in = Instr[T]{Op: Apply, Kind: unary[rng.IntN(len(unary))], Scalar: st.Rand[T](rng)}
		default:
			continue
		}
		prog = append(prog, in)
	}
	return prog
}

// fusedKinds returns the operations a fused program may apply for T: the
// catalog's unary and binary operations with kernels.
func fusedKinds[T strided.Scalar](t testing.TB) (unary, binary []op.Kind) {
	return kernelKinds[T](t, op.Unary), kernelKinds[T](t, op.Binary)
}

// arithKinds are fusedKinds restricted to the arithmetic operations, whose
// error refEval's magnitude model bounds.
func arithKinds[T strided.Scalar](t testing.TB) (unary, binary []op.Kind) {
	u, b := fusedKinds[T](t)
	return slices.DeleteFunc(u, func(k op.Kind) bool { return !arithmetic(k) }), slices.DeleteFunc(b, func(k op.Kind) bool { return !arithmetic(k) })
}

// refEval evaluates prog on one element with the catalog's references (in
// complex128, or in float64 for real T; see ref) and also on absolute
// values, each operation combining the magnitudes of its operands by mag
// (the bound of the forward error analysis).
func refEval[T strided.Scalar](prog []Instr[T], x []complex128) (v complex128, m float64) {
	var s []complex128
	var a []float64
	for _, in := range prog {
		switch in.Op {
		case Load:
			s, a = append(s, x[in.Arg]), append(a, cmplx.Abs(x[in.Arg]))
		case Const:
			s, a = append(s, st.C128(in.Scalar)), append(a, cmplx.Abs(st.C128(in.Scalar)))
		case Apply:
			p := Params[T]{in.Scalar, in.Beta}
			n := len(s)
			if in.Kind.Category() == op.Binary {
				r := ref[T](in.Kind, s[n-2], s[n-1], p)
				mm := mag[T](in.Kind, a[n-2], a[n-1], cmplx.Abs(st.C128(p.A)))
				s, a = append(s[:n-2], r), append(a[:n-2], mm)
				break
			}
			s[n-1] = ref[T](in.Kind, s[n-1], 0, p)
			a[n-1] = mag[T](in.Kind, a[n-1], 0, cmplx.Abs(st.C128(p.A)))
		}
	}
	return s[0], a[0]
}

// seqEval evaluates prog on one element in T, one instruction at a time
// with the unfused vector kernels: the fused evaluator must give the same
// result, since it performs the same roundings in the same order. (The
// kernels themselves are checked against the catalog's references by the
// single-operation tests; a long program with divisions amplifies rounding
// beyond what a bound on magnitudes could predict.)
func seqEval[T strided.Scalar](prog []Instr[T], x []T) T {
	var s []T
	for _, in := range prog {
		switch in.Op {
		case Load:
			s = append(s, x[in.Arg])
		case Const:
			s = append(s, in.Scalar)
		case Apply:
			n := len(s)
			if in.Kind.Category() == op.Binary {
				z := []T{0}
				binaryVV(in.Kind, z, s[n-2:n-1], s[n-1:])
				s = append(s[:n-2], z[0])
				break
			}
			unaryVec(in.Kind, s[n-1:], s[n-1:], Params[T]{in.Scalar, in.Beta})
		}
	}
	return s[0]
}

// progString renders prog for failure messages.
func progString[T strided.Scalar](prog []Instr[T]) string {
	var b strings.Builder
	for i, in := range prog {
		if i > 0 {
			b.WriteString("; ")
		}
		switch in.Op {
		case Load:
			fmt.Fprintf(&b, "load %d", in.Arg)
		case Const:
			fmt.Fprintf(&b, "const %v", in.Scalar)
		case Apply:
			fmt.Fprintf(&b, "%v", in.Kind)
			if in.Kind.Info().Attr == op.AlphaAttr {
				fmt.Fprintf(&b, " %v", in.Scalar)
			}
		default:
			fmt.Fprintf(&b, "op %d", in.Op)
		}
	}
	return b.String()
}

// checkProg evaluates prog over shape into dst from in and checks every
// element against seqEval (to a few units of roundoff, in case the compiler
// fuses a multiply and an add) and, for programs without division, against
// refEval within 4 len(prog) eps times the magnitude bound; and dst's guard
// elements.
func checkProg[T strided.Scalar](t *testing.T, r par.Runner, s *Scratch[T], prog []Instr[T], shape []int, dst strided.Ref[T], in []strided.Ref[T]) {
	t.Helper()
	// Inputs as they were: dst may be one of them.
	in0 := make([]strided.Ref[T], len(in))
	for i, v := range in {
		in0[i] = clone(v)
	}
	if err := Eval(r, s, prog, shape, dst, in); err != nil {
		t.Fatalf("%T shape %v prog [%s]: %v", *new(T), shape, progString(prog), err)
	}
	eps := st.Eps[T]()
	// Divisions amplify rounding beyond the magnitude bound, and the other
	// functions are outside the magnitude model: such programs are checked
	// against the unfused kernels only.
	unbounded := slices.ContainsFunc(prog, func(in Instr[T]) bool {
		return in.Op == Apply && (in.Kind == op.Div || !arithmetic(in.Kind))
	})
	x := make([]complex128, len(in))
	xt := make([]T, len(in))
	st.ForEach(shape, func(idx []int) {
		for i, v := range in0 {
			xt[i] = v.Data[st.At(v, idx)]
			x[i] = st.C128(xt[i])
		}
		got := st.C128(dst.Data[st.At(dst, idx)])
		seq := st.C128(seqEval(prog, xt))
		if !close(got, seq, 4*eps*cmplx.Abs(seq)) {
			t.Fatalf("%T shape %v prog [%s] idx %v: got %v, the unfused kernels give %v", *new(T), shape, progString(prog), idx, got, seq)
		}
		if unbounded {
			return
		}
		want, mag := refEval(prog, x)
		if tol := 4 * float64(len(prog)) * eps * mag; !st.Close(got, want, tol) {
			t.Fatalf("%T shape %v prog [%s] idx %v: got %v want %v (tol %g)", *new(T), shape, progString(prog), idx, got, want, tol)
		}
	})
	if i := st.CheckGuards(dst, shape); i >= 0 {
		t.Fatalf("%T shape %v prog [%s]: guard %d overwritten", *new(T), shape, progString(prog), i)
	}
}

func checkEval[T strided.Scalar](t *testing.T, r par.Runner) {
	unary, binary := fusedKinds[T](t)
	rng := rand.New(rand.NewPCG(11, uint64(strided.Kind[T]())))
	var s Scratch[T]
	applied := map[op.Kind]bool{}
	shapes := append([][]int{{}, {0}, {1}, {600}, {257, 3}, {3, 257}, {3, 1000}, {5, 7, 11}, {129, 5}}, testShapes(rng)...)
	for _, shape := range shapes {
		for range 4 {
			nin := 1 + rng.IntN(MaxInputs)
			prog := randProg[T](rng, nin, unary, binary)
			for _, in := range prog {
				if in.Op == Apply {
					applied[in.Kind] = true
				}
			}
			in := make([]strided.Ref[T], nin)
			for i := range in {
				in[i] = st.RandView[T](rng, shape, st.ViewOpts{Permute: true, Negative: true, Gaps: i%2 == 0, Zero: i%3 == 0})
			}
			dst := st.RandView[T](rng, shape, st.All)
			checkProg(t, r, &s, prog, shape, dst, in)
		}
	}
	for _, k := range append(slices.Clone(unary), binary...) {
		if !applied[k] {
			t.Errorf("%T: no random program applied %v", *new(T), k)
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

// checkEvalKinds runs every unary and binary operation of the catalog as a
// program of its own (and applied to a Const, and the last of a longer
// program) over strided, reversed and broadcast views.
func checkEvalKinds[T strided.Scalar](t *testing.T, r par.Runner) {
	unary, binary := fusedKinds[T](t)
	rng := rand.New(rand.NewPCG(29, uint64(strided.Kind[T]())))
	var s Scratch[T]
	alpha := st.Rand[T](rng)
	var progs [][]Instr[T]
	for _, k := range unary {
		progs = append(progs,
			[]Instr[T]{{Op: Load, Arg: 0}, {Op: Apply, Kind: k, Scalar: alpha}},
			[]Instr[T]{{Op: Const, Scalar: alpha}, {Op: Apply, Kind: k, Scalar: alpha}},
			[]Instr[T]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: Apply, Kind: binary[0]}, {Op: Apply, Kind: k, Scalar: alpha}})
	}
	for _, k := range binary {
		progs = append(progs,
			[]Instr[T]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: Apply, Kind: k}},
			[]Instr[T]{{Op: Load, Arg: 1}, {Op: Const, Scalar: alpha}, {Op: Apply, Kind: k}},
			[]Instr[T]{{Op: Const, Scalar: alpha}, {Op: Load, Arg: 0}, {Op: Apply, Kind: k}},
			[]Instr[T]{{Op: Load, Arg: 0}, {Op: Load, Arg: 0}, {Op: Apply, Kind: k}})
	}
	for _, shape := range [][]int{{}, {7}, {600}, {3, 1000}, {17, 5, 3}} {
		for _, prog := range progs {
			in := []strided.Ref[T]{
				st.RandView[T](rng, shape, st.ViewOpts{Permute: true, Negative: true, Gaps: true}),
				st.RandView[T](rng, shape, st.ViewOpts{Permute: true, Negative: true, Zero: true}),
			}
			checkProg(t, r, &s, prog, shape, st.RandView[T](rng, shape, st.All), in)
			// In place: dst is input 0.
			d := clone(in[0])
			checkProg(t, r, &s, prog, shape, d, []strided.Ref[T]{d, in[1]})
		}
	}
}

func TestEvalKinds(t *testing.T) {
	for _, run := range []par.Runner{nil, st.Parallel(t, 3, &ParallelBytes, 64)} {
		checkEvalKinds[float32](t, run)
		checkEvalKinds[float64](t, run)
		checkEvalKinds[complex64](t, run)
		checkEvalKinds[complex128](t, run)
	}
}

func TestEvalErrors(t *testing.T) {
	var s Scratch[float64]
	v := strided.Ref[float64]{Data: make([]float64, 4), Strides: []int{1}}
	ld := Instr[float64]{Op: Load}
	deep := make([]Instr[float64], 0, 2*MaxStack+2)
	for range MaxStack + 1 {
		deep = append(deep, ld)
	}
	for range MaxStack {
		deep = append(deep, Instr[float64]{Op: Apply, Kind: op.Add})
	}
	type errCase struct {
		name string
		prog []Instr[float64]
	}
	cases := []errCase{
		{"empty program", nil},
		{"load of a missing input", []Instr[float64]{{Op: Load, Arg: 1}}},
		{"load of a negative input", []Instr[float64]{{Op: Load, Arg: -1}}},
		{"binary underflow", []Instr[float64]{ld, {Op: Apply, Kind: op.Add}}},
		{"unary underflow", []Instr[float64]{{Op: Apply, Kind: op.Negate}, ld}},
		{"two values left", []Instr[float64]{ld, ld}},
		{"stack deeper than MaxStack", deep},
		{"unknown opcode", []Instr[float64]{{Op: 200}}},
		{"Apply of no operation", []Instr[float64]{ld, {Op: Apply, Kind: op.None}}},
		{"Apply of NumKinds", []Instr[float64]{ld, {Op: Apply, Kind: op.NumKinds}}},
		{"Apply of a kind out of range", []Instr[float64]{ld, {Op: Apply, Kind: 1000}}},
		{"Apply of Sum", []Instr[float64]{ld, {Op: Apply, Kind: op.Sum}}},
		{"Apply of Matmul", []Instr[float64]{ld, ld, {Op: Apply, Kind: op.Matmul}}},
	}
	// And every other operation that is not elementwise (reductions,
	// contractions, structural operations), with one and two operands.
	for _, k := range op.Kinds() {
		if !k.Category().IsElementwise() && k != op.Sum && k != op.Matmul {
			cases = append(cases,
				errCase{"Apply of " + k.String(), []Instr[float64]{ld, {Op: Apply, Kind: k}}},
				errCase{"Apply of " + k.String() + " to two values", []Instr[float64]{ld, ld, {Op: Apply, Kind: k}}})
		}
	}
	for _, c := range cases {
		if _, err := Check(c.prog, 1); err == nil {
			t.Errorf("Check, %s [%s]: no error", c.name, progString(c.prog))
		}
		v.Data[0] = 42
		if err := Eval(nil, &s, c.prog, []int{4}, v, []strided.Ref[float64]{v}); err == nil {
			t.Errorf("Eval, %s [%s]: no error", c.name, progString(c.prog))
		} else if v.Data[0] != 42 {
			t.Errorf("Eval, %s: wrote dst despite the error", c.name)
		}
	}
	// Too many inputs.
	many := make([]strided.Ref[float64], MaxInputs+1)
	for i := range many {
		many[i] = v
	}
	if _, err := Check([]Instr[float64]{ld}, MaxInputs+1); err == nil {
		t.Errorf("Check with %d inputs: no error", MaxInputs+1)
	}
	if err := Eval(nil, &s, []Instr[float64]{ld}, []int{4}, v, many); err == nil {
		t.Errorf("Eval with %d inputs: no error", MaxInputs+1)
	}
	ok := []Instr[float64]{ld}
	bad := strided.Ref[float64]{Data: v.Data, Strides: []int{1, 1}}
	if err := Eval(nil, &s, ok, []int{4}, v, []strided.Ref[float64]{bad}); err == nil {
		t.Error("input with wrong stride count: no error")
	}
	if err := Eval(nil, &s, ok, []int{4}, bad, []strided.Ref[float64]{v}); err == nil {
		t.Error("dst with wrong stride count: no error")
	}
}

// TestCheckDepth checks the depth Check reports, up to MaxStack.
func TestCheckDepth(t *testing.T) {
	ld := Instr[float64]{Op: Load}
	for depth := 1; depth <= MaxStack; depth++ {
		var prog []Instr[float64]
		for range depth {
			prog = append(prog, ld)
		}
		for range depth - 1 {
			prog = append(prog, Instr[float64]{Op: Apply, Kind: op.Mul}, Instr[float64]{Op: Apply, Kind: op.Negate})
		}
		got, err := Check(prog, 1)
		if err != nil || got != depth {
			t.Errorf("program of depth %d: Check = %d, %v", depth, got, err)
		}
	}
}

func TestEvalAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{40, 50, 3}
	a := strided.Ref[complex64]{Data: make([]complex64, 6000), Strides: []int{150, 3, 1}}
	b := strided.Ref[complex64]{Data: make([]complex64, 40), Strides: []int{1, 0, 0}}
	d := strided.Ref[complex64]{Data: make([]complex64, 6000), Strides: []int{1, 40, 2000}}
	in := []strided.Ref[complex64]{a, b}
	unary, binary := fusedKinds[complex64](t)
	// Every operation once: load a, then each binary operation with b and
	// each unary one.
	prog := []Instr[complex64]{{Op: Load, Arg: 0}}
	for _, k := range binary {
		prog = append(prog, Instr[complex64]{Op: Load, Arg: 1}, Instr[complex64]{Op: Apply, Kind: k})
	}
	for _, k := range unary {
		prog = append(prog, Instr[complex64]{Op: Apply, Kind: k, Scalar: 2})
	}
	var s Scratch[complex64]
	for _, run := range []par.Runner{nil, r} {
		if err := Eval(run, &s, prog, shape, d, in); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() { _ = Eval(run, &s, prog, shape, d, in) }); n != 0 {
			t.Errorf("Eval (runner %v): %v allocations, want 0", run != nil, n)
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
	prog := []Instr[complex128]{
		{Op: Load, Arg: 0},
		{Op: Load, Arg: 1},
		{Op: Apply, Kind: op.Add},
		{Op: Apply, Kind: op.Scale, Scalar: 2},
		{Op: Apply, Kind: op.Conj},
	}
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
	progs := [][]Instr[complex128]{
		{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: Apply, Kind: op.Add}, {Op: Apply, Kind: op.Scale, Scalar: 2 - 1i}, {Op: Apply, Kind: op.Conj}},
		{{Op: Load, Arg: 1}, {Op: Load, Arg: 0}, {Op: Apply, Kind: op.Mul}},
		{{Op: Load, Arg: 1}, {Op: Const, Scalar: 0.5 + 2i}, {Op: Apply, Kind: op.Sub}},
		{{Op: Load, Arg: 1}, {Op: Apply, Kind: op.Negate}},
		{{Op: Load, Arg: 1}},
		{{Op: Const, Scalar: 3 + 4i}},
	}
	for _, shape := range [][]int{{600}, {3, 1000}, {5, 7, 11}, {300, 2}} {
		for _, prog := range progs {
			for _, inPlace := range []bool{false, true} {
				dst := st.RandView[complex128](rng, shape, st.ViewOpts{})
				tr := st.RandView[complex128](rng, shape, st.ViewOpts{Permute: true, Negative: true})
				in := []strided.Ref[complex128]{dst, tr}
				if !inPlace {
					in[0] = st.RandView[complex128](rng, shape, st.ViewOpts{})
				}
				checkProg(t, nil, &s, prog, shape, dst, in)
			}
		}
	}
}
