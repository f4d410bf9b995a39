package elementwise

import (
	"fmt"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// OpCode is the kind of an instruction of a fused element-wise program.
type OpCode uint8

// The instructions of a fused program run on a stack of values, one value
// per element of the output: Load pushes input Arg, Const pushes Scalar,
// and Apply runs the catalog's elementwise operation Kind on the top of the
// stack (unary operations replace it, with Scalar as their attribute;
// binary ones pop b then a and push a op b).
const (
	Load OpCode = iota
	Const
	Apply
)

// Instr is one instruction of a fused program. Scalar is Const's value
// and a unary operation's first attribute, Beta its second (Clip's upper
// bound).
type Instr[T strided.Scalar] struct {
	Op     OpCode
	Kind   op.Kind
	Arg    int
	Scalar T
	Beta   T
}

// Limits of fused programs.
const (
	MaxInputs = strided.MaxOps - 1 // inputs of one program
	MaxStack  = 8                  // stack depth of one program
	// EvalBlock is the number of elements evaluated per instruction
	// dispatch.
	EvalBlock = 256
)

// Scratch holds the evaluation stacks of Eval so that repeated evaluation
// allocates nothing once the scratch has grown. A Scratch is used by one
// call at a time; the zero value is ready to use.
type Scratch[T strided.Scalar] struct {
	buf []T
}

// Check validates prog for nin inputs: every Load names an input in [0,
// nin), no instruction pops an empty stack, the depth stays within MaxStack
// and exactly one value remains. It returns the maximum depth.
func Check[T strided.Scalar](prog []Instr[T], nin int) (depth int, err error) {
	if nin > MaxInputs {
		return 0, fmt.Errorf("elementwise.Eval: %d inputs, at most %d supported", nin, MaxInputs)
	}
	sp := 0
	for i, in := range prog {
		need, push := 0, 0
		switch in.Op {
		case Load:
			if in.Arg < 0 || in.Arg >= nin {
				return 0, fmt.Errorf("elementwise.Eval: instruction %d loads input %d, expected 0 <= input < %d", i, in.Arg, nin)
			}
			push = 1
		case Const:
			push = 1
		case Apply:
			switch {
			case in.Kind.Category() == op.Binary && Supports(in.Kind):
				need, push = 2, 1
			case (in.Kind.Category() == op.Unary || in.Kind.Category() == op.Data) && Supports(in.Kind):
				need, push = 1, 1
			default:
				return 0, fmt.Errorf("elementwise.Eval: instruction %d applies %v, which is not an elementwise operation with a kernel", i, in.Kind)
			}
		default:
			return 0, fmt.Errorf("elementwise.Eval: instruction %d has unknown op %d", i, in.Op)
		}
		if sp < need {
			return 0, fmt.Errorf("elementwise.Eval: instruction %d (op %d) needs %d operands, stack has %d", i, in.Op, need, sp)
		}
		sp += push - need
		if sp > MaxStack {
			return 0, fmt.Errorf("elementwise.Eval: instruction %d exceeds the stack depth %d", i, MaxStack)
		}
		depth = max(depth, sp)
	}
	if sp != 1 {
		return 0, fmt.Errorf("elementwise.Eval: program leaves %d values, expected 1", sp)
	}
	return depth, nil
}

type evalTask[T strided.Scalar] struct {
	l     strided.Layout
	prog  []Instr[T]
	d     []T
	in    [MaxInputs][]T
	buf   []T
	depth int
	split int
}

func (t *evalTask[T]) RunPart(p, parts int) {
	l := t.l
	lo, hi := par.Split(l.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	l.Restrict(t.split, lo, hi)
	w := t.depth * EvalBlock
	evalRun(&l, t.prog, t.d, &t.in, t.buf[p*w:(p+1)*w])
}

var evalPools [4]sync.Pool

// Eval sets dst[i] = prog(in[0][i], ..., in[n-1][i]) for every multi-index i
// of shape in one pass: the program runs on blocks of up to EvalBlock
// elements of the inputs (read in place where a block is one unit-stride
// run of the input, else gathered into s; inputs may broadcast by zero
// strides), and the result is written straight into dst where the block is
// one unit-stride run there, else scattered from s. prog is checked
// first (see Check), and every view must have len(shape) strides; that the
// views stay inside their Data is the caller's to validate (package
// comment). dst may coincide exactly with an input but must not otherwise
// overlap one. Steady-state calls allocate nothing.
func Eval[T strided.Scalar](r par.Runner, s *Scratch[T], prog []Instr[T], shape []int, dst strided.Ref[T], in []strided.Ref[T]) error {
	depth, err := Check(prog, len(in))
	if err != nil {
		return err
	}
	if len(dst.Strides) != len(shape) {
		return fmt.Errorf("elementwise.Eval: dst has %d strides, expected %d (the rank of shape %v)", len(dst.Strides), len(shape), shape)
	}
	for i, x := range in {
		if len(x.Strides) != len(shape) {
			return fmt.Errorf("elementwise.Eval: input %d has %d strides, expected %d (the rank of shape %v)", i, len(x.Strides), len(shape), shape)
		}
	}
	var l strided.Layout
	if !l.Init(shape) {
		return fmt.Errorf("elementwise.Eval: shape %v has more than %d extents other than 1", shape, strided.MaxRank)
	}
	if l.Empty {
		return nil
	}
	l.Add(dst.Off, dst.Strides)
	for _, x := range in {
		l.Add(x.Off, x.Strides)
	}
	l.Normalize()
	split := splitDim(&l, par.Width(r))
	parts := 1
	if split >= 0 {
		parts = strided.Parts(r, (1+len(in))*l.Size()*strided.ElemSize[T](), ParallelBytes, l.Shape[split])
	}
	w := depth * EvalBlock
	if len(s.buf) < parts*w {
		s.buf = make([]T, parts*w)
	}
	if parts <= 1 {
		var data [MaxInputs][]T
		for i, x := range in {
			data[i] = x.Data
		}
		evalRun(&l, prog, dst.Data, &data, s.buf[:w])
		return nil
	}
	pool := &evalPools[strided.Kind[T]()]
	t, _ := pool.Get().(*evalTask[T])
	if t == nil {
		t = new(evalTask[T])
	}
	t.l, t.prog, t.d, t.buf, t.depth, t.split = l, prog, dst.Data, s.buf, depth, split
	for i, x := range in {
		t.in[i] = x.Data
	}
	r.Run(t, parts)
	*t = evalTask[T]{}
	pool.Put(t)
	return nil
}

// evalRun evaluates prog over the normalised layout l (operand 0 the
// destination, operand 1+k input k) with stack buffer buf (depth*EvalBlock
// elements). Blocks follow the fastest dimension; when it is shorter than
// EvalBlock/2, a block spans several steps of the second dimension so that
// the per-instruction dispatch stays amortised.
func evalRun[T strided.Scalar](l *strided.Layout, prog []Instr[T], d []T, in *[MaxInputs][]T, buf []T) {
	if l.Rank == 0 {
		evalBlock(l.Off[:], 1, 1, l, prog, d, in, buf)
		return
	}
	n := l.Shape[0]
	if l.Rank >= 2 && n <= EvalBlock/2 {
		rows, n1 := EvalBlock/n, l.Shape[1]
		l.Outer(2, func() {
			off := l.Cur
			for lo := 0; lo < n1; lo += rows {
				k := min(rows, n1-lo)
				evalBlock(off[:], n, k, l, prog, d, in, buf)
				for o := 0; o < l.NOps; o++ {
					off[o] += k * l.Strides[o][1]
				}
			}
		})
		return
	}
	l.Outer(1, func() {
		off := l.Cur
		for lo := 0; lo < n; lo += EvalBlock {
			m := min(EvalBlock, n-lo)
			evalBlock(off[:], m, 1, l, prog, d, in, buf)
			for o := 0; o < l.NOps; o++ {
				off[o] += m * l.Strides[o][0]
			}
		}
	})
}

// strides01 returns operand o's strides along dimensions 0 and 1 (zero
// where l has fewer dimensions).
func strides01(l *strided.Layout, o int) (s0, s1 int) {
	if l.Rank > 0 {
		s0 = l.Strides[o][0]
	}
	if l.Rank > 1 {
		s1 = l.Strides[o][1]
	}
	return s0, s1
}

// gather sets x[r*n0+i] = src[o+i*s0+r*s1] for i < n0, r < k.
func gather[T strided.Scalar](x, src []T, o, s0, s1, n0, k int) {
	for r := 0; r < k; r++ {
		p := o + r*s1
		row := x[r*n0 : (r+1)*n0]
		switch s0 {
		case 1:
			copy(row, src[p:p+n0])
		case 0:
			v := src[p]
			for i := range row {
				row[i] = v
			}
		default:
			for i := range row {
				row[i] = src[p]
				p += s0
			}
		}
	}
}

// scatter sets d[o+i*s0+r*s1] = x[r*n0+i] for i < n0, r < k.
func scatter[T strided.Scalar](d, x []T, o, s0, s1, n0, k int) {
	for r := 0; r < k; r++ {
		p := o + r*s1
		row := x[r*n0 : (r+1)*n0]
		if s0 == 1 {
			copy(d[p:p+n0], row)
			continue
		}
		for i := range row {
			d[p] = row[i]
			p += s0
		}
	}
}

// evalBlock evaluates the n0 x k elements at operand offsets off: n0 along
// dimension 0 and, when k > 1, k steps along dimension 1. Stack level j
// holds the slice vals[j]: a unit-stride input is used where it lies, other
// values live in buffer slot j. An input constant over the block (stride 0
// along dimension 0, one step of dimension 1: a broadcast operand) stays a
// scalar, which the binary operations take as such; it is spread over its
// slot only when an operation needs it as a vector.
func evalBlock[T strided.Scalar](off []int, n0, k int, l *strided.Layout, prog []Instr[T], d []T, in *[MaxInputs][]T, buf []T) {
	var vals [MaxStack][]T
	var scal [MaxStack]bool // level j holds the scalar sv[j]
	var sv [MaxStack]T
	sp := 0
	m := n0 * k
	// The last instruction writes straight into dst when the block is one
	// unit-stride run there (no scatter pass). Exact aliasing of dst with
	// an input is harmless: every instruction reads and writes index i
	// only.
	ds0, ds1 := strides01(l, 0)
	last := len(prog) - 1
	direct := ds0 == 1 && (k == 1 || ds1 == n0) && prog[last].Op != Load && prog[last].Op != Const
	slot := func(j int) []T { return buf[j*EvalBlock : j*EvalBlock+m] }
	spread := func(j int) { // level j as a vector
		if scal[j] {
			x := slot(j)
			for i := range x {
				x[i] = sv[j]
			}
			vals[j], scal[j] = x, false
		}
	}
	for pc, ins := range prog {
		final := direct && pc == last
		switch ins.Op {
		case Load:
			s0, s1 := strides01(l, 1+ins.Arg)
			o := off[1+ins.Arg]
			switch {
			case s0 == 1 && k == 1:
				vals[sp] = in[ins.Arg][o : o+m]
			case s0 == 0 && k == 1:
				sv[sp], scal[sp] = in[ins.Arg][o], true
			default:
				vals[sp] = slot(sp)
				gather(vals[sp], in[ins.Arg], o, s0, s1, n0, k)
			}
			sp++
		case Const:
			sv[sp], scal[sp] = ins.Scalar, true
			sp++
		case Apply:
			if ins.Kind.Category() == op.Binary {
				sp--
				if scal[sp-1] && scal[sp] {
					spread(sp - 1)
				}
				z := slot(sp - 1)
				if final {
					z = d[off[0] : off[0]+m]
				}
				switch {
				case scal[sp]:
					binaryVS(ins.Kind, z, vals[sp-1][:len(z)], sv[sp])
				case scal[sp-1]:
					binarySV(ins.Kind, z, sv[sp-1], vals[sp][:len(z)])
				default:
					binaryVV(ins.Kind, z, vals[sp-1][:len(z)], vals[sp][:len(z)])
				}
				vals[sp-1], scal[sp-1], scal[sp] = z, false, false
				break
			}
			spread(sp - 1)
			x, z := vals[sp-1], slot(sp-1)
			if final {
				z = d[off[0] : off[0]+m]
			}
			unaryVec(ins.Kind, z, x[:len(z)], Params[T]{ins.Scalar, ins.Beta})
			vals[sp-1] = z
		}
	}
	spread(0)
	if direct {
		return
	}
	scatter(d, vals[0], off[0], ds0, ds1, n0, k)
}
