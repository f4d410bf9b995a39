package op

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/tenferro-go/tenferro/einsum"
)

// The shape rules. Each checks its inputs and appends the output shape to
// buf (callers pass a stack array so that the success path allocates
// nothing); a fault names the argument with the names of Info.Args.

// DTypeWith is DTypeOf for operations whose result dtype is an attribute
// (Convert: a.Ints[0], checked here).
func (k Kind) DTypeWith(names []string, a *Attrs, in ...DType) (DType, *Fault) {
	dt, f := k.DTypeOf(names, in...)
	if f != nil || k.Info().Attr != DTypeAttr {
		return dt, f
	}
	if len(a.Ints) != 1 {
		return InvalidDType, faultf(ErrDType, "to", "one dtype", "%v", a.Ints)
	}
	if to := DType(a.Ints[0]); !to.Valid() {
		return InvalidDType, fault(ErrDType, "to", "a valid dtype", to.String())
	}
	return DType(a.Ints[0]), nil
}

// DTypeOf checks the dtypes of k's tensor arguments: all equal to the
// first (arguments named by names), and in k's accepted set. It returns
// the output dtype.
func (k Kind) DTypeOf(names []string, in ...DType) (DType, *Fault) {
	info := k.Info()
	if len(in) == 0 {
		return InvalidDType, nil
	}
	if info.Category == Indexing {
		return indexDTypes(k, names, in)
	}
	if k == GaugeCheck && len(in) == 3 {
		// x of any number dtype; g and scale of its real dtype.
		if !in[0].In(info.Accept) {
			return InvalidDType, fault(ErrDType, argName(names, 0), info.Accept.String(), in[0].String())
		}
		for i := 1; i < 3; i++ {
			if in[i] != in[0].Real() {
				return InvalidDType, fault(ErrDType, argName(names, i), in[0].Real().String(), in[i].String())
			}
		}
		return in[0], nil
	}
	if info.Category == Select {
		// Where: a bool mask, then two values of one dtype.
		if in[0] != Bool {
			return InvalidDType, fault(ErrDType, argName(names, 0), "bool", in[0].String())
		}
		if len(in) < 3 {
			return InvalidDType, nil
		}
		in, names = in[1:], names[1:]
	}
	for i := 1; i < len(in); i++ {
		if in[i] != in[0] {
			return InvalidDType, fault(ErrDType, argName(names, i), in[0].String()+" like "+argName(names, 0), in[i].String())
		}
	}
	if !in[0].In(info.Accept) {
		return InvalidDType, fault(ErrDType, argName(names, 0), info.Accept.String(), in[0].String())
	}
	return info.Result.Of(in[0]), nil
}

func argName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "operands[" + strconv.Itoa(i) + "]"
}

// OperandName is the argument name of operand k of a variadic operation.
func OperandName(k int) string { return "operands[" + strconv.Itoa(k) + "]" }

// UnaryShape checks the input of an elementwise unary operation; the
// output has its shape.
func UnaryShape(a []int) *Fault {
	_, f := Numel("a", a)
	return f
}

// BroadcastShape is NumPy's broadcasting rule, the rule of binary
// elementwise operations: the shapes are aligned on their last axes, a
// missing leading axis counts as extent 1, and an extent of 1 stretches to
// the other operand's extent (1 against 0 gives 0). The result has the
// larger rank. Faults name the operands a and b.
func BroadcastShape(a, b, buf []int) ([]int, *Fault) {
	return BroadcastArgs("a", "b", a, b, buf)
}

// BroadcastArgs is BroadcastShape for operands named an and bn (Complex's
// re and im) in its faults.
func BroadcastArgs(an, bn string, a, b, buf []int) ([]int, *Fault) {
	for i, s := range [2][]int{a, b} {
		if len(s) > MaxRank {
			return nil, faultf(ErrShape, [2]string{an, bn}[i], "rank <= "+strconv.Itoa(MaxRank), "rank %d", len(s))
		}
	}
	r := max(len(a), len(b))
	for d := range r {
		x, y := extentFromEnd(a, r-d), extentFromEnd(b, r-d)
		switch {
		case x == y, y == 1:
			buf = append(buf, x)
		case x == 1:
			buf = append(buf, y)
		default:
			return nil, broadcastFault(an, bn, a, b, x, y, d-r)
		}
	}
	if _, f := Numel(bn, buf); f != nil {
		return nil, f
	}
	return buf, nil
}

// extentFromEnd returns the extent of axis len(s)-k of s, 1 when s has
// fewer than k axes.
func extentFromEnd(s []int, k int) int {
	if k > len(s) {
		return 1
	}
	return s[len(s)-k]
}

// broadcastFault reports shapes a and b (of the operands named an and bn)
// that do not broadcast: extents x and y meet at axis ax (negative,
// counted from the end).
func broadcastFault(an, bn string, a, b []int, x, y, ax int) *Fault {
	return faultf(ErrShape, bn, "a shape that broadcasts with "+an+"'s "+FmtInts(a)+" (extents equal or 1, aligned on the last axis)",
		"%s (%d against %d at axis %d)", FmtInts(b), y, x, ax)
}

// WhereShape is the rule of Where: mask, a and b broadcast together
// (NumPy's rule, as BroadcastShape).
func WhereShape(mask, a, b, buf []int) ([]int, *Fault) {
	ab, f := BroadcastShape(a, b, buf)
	if f != nil {
		return nil, f
	}
	var tmp [MaxRank]int
	n := copy(tmp[:], ab)
	out, f := BroadcastShape(tmp[:n], mask, ab[:0])
	if f != nil {
		f.Arg = "mask"
		return nil, f
	}
	return out, nil
}

// stretch appends the broadcast of axes from.. of a and b to buf (equal
// extents, or 1 against any) and checks the element count of the result.
// what names the extents in the fault ("extent ", "batch extent ").
func stretch(a, b []int, from int, what string, buf []int) ([]int, *Fault) {
	for d := from; d < len(a); d++ {
		x, y := a[d], b[d]
		switch {
		case x == y, y == 1:
			buf = append(buf, x)
		case x == 1:
			buf = append(buf, y)
		default:
			return nil, faultf(ErrShape, "b", what+strconv.Itoa(x)+" or 1 at axis "+strconv.Itoa(d)+" (a is "+FmtInts(a)+")", "%d (b is %s)", y, FmtInts(b))
		}
	}
	if _, f := Numel("b", buf); f != nil {
		return nil, f
	}
	return buf, nil
}

// ReduceShape is the rule of reductions: axes (any order, negative from the
// end, no repeats; none means all) are removed from a's shape. It returns
// the output shape and the set of reduced axes.
func ReduceShape(a, axes, buf []int) ([]int, uint64, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, 0, f
	}
	m, f := AxisMask("axes", axes, len(a))
	if f != nil {
		return nil, 0, f
	}
	for d, n := range a {
		if m&(1<<uint(d)) == 0 {
			buf = append(buf, n)
		}
	}
	return buf, m, nil
}

// ReductionShape is the rule of reduction k of a over axes (one axis for
// the AxisAttr reductions ArgMax and ArgMin): the result has a's shape
// without the reduced axes, whose set it returns as a mask. Reductions
// without an identity (Info.NonEmpty) refuse an empty reduced set; p is
// the attribute: Norm's order (> 0 or +Inf) or the ddof of Var and Std
// (>= 0), ignored otherwise.
func ReductionShape(k Kind, a, axes []int, p float64, buf []int) ([]int, uint64, *Fault) {
	info := k.Info()
	if info.Attr == AxisAttr && len(axes) != 1 {
		return nil, 0, faultf(ErrArgument, "axis", "one axis", "%d axes", len(axes))
	}
	arg := "axes"
	if info.Attr == AxisAttr {
		arg = "axis"
	}
	if _, f := Numel("a", a); f != nil {
		return nil, 0, f
	}
	m, f := AxisMask(arg, axes, len(a))
	if f != nil {
		return nil, 0, f
	}
	switch info.Attr {
	case OrdAttr:
		if p != p {
			return nil, 0, faultf(ErrArgument, "ord", "an order (a number or ±Inf)", "%v", p)
		}
	case DdofAttr:
		if !(p >= 0) || p != float64(int64(p)) {
			return nil, 0, faultf(ErrArgument, "ddof", "an integer >= 0", "%v", p)
		}
	}
	for d, n := range a {
		switch {
		case m&(1<<uint(d)) == 0:
			buf = append(buf, n)
		case n == 0 && info.NonEmpty:
			return nil, 0, faultf(ErrShape, "a", "a non-empty reduced set ("+info.Name+" has no identity)", "extent 0 along axis %d", d)
		case n == 0 && info.Attr == OrdAttr && math.IsInf(p, -1):
			return nil, 0, faultf(ErrShape, "a", "a non-empty reduced set (Norm of order -Inf, the least |a|, has no identity)", "extent 0 along axis %d", d)
		}
	}
	return buf, m, nil
}

// ScanShape is the rule of CumSum and CumProd along one axis of a; the
// result has a's shape. It returns the axis, normalized.
func ScanShape(a, axes []int) (int, *Fault) {
	if len(axes) != 1 {
		return 0, faultf(ErrArgument, "axis", "one axis", "%d axes", len(axes))
	}
	if _, f := Numel("a", a); f != nil {
		return 0, f
	}
	return Axis("axis", axes[0], len(a))
}

// MaskAxes lists the axes of a mask in increasing order.
func MaskAxes(m uint64, r int) []int {
	var axes []int
	for d := range r {
		if m&(1<<uint(d)) != 0 {
			axes = append(axes, d)
		}
	}
	return axes
}

// MatmulShape is the rule of Matmul: a is (m, k, batch...), b is (k, n,
// batch...) with equal ranks; batch extents are equal or 1 (broadcast).
// The output is (m, n, batch...).
func MatmulShape(a, b, buf []int) ([]int, *Fault) {
	if len(a) < 2 {
		return nil, faultf(ErrShape, "a", "rank >= 2 (m, k, batch...)", "rank %d", len(a))
	}
	if len(a) > MaxRank {
		return nil, faultf(ErrShape, "a", "rank <= "+strconv.Itoa(MaxRank), "rank %d", len(a))
	}
	if len(b) != len(a) {
		return nil, faultf(ErrShape, "b", "rank "+strconv.Itoa(len(a))+" like a", "rank %d", len(b))
	}
	if a[1] != b[0] {
		return nil, faultf(ErrShape, "b", strconv.Itoa(a[1])+" rows (a is "+FmtInts(a)+")", "%d rows (b is %s)", b[0], FmtInts(b))
	}
	return stretch(a, b, 2, "batch extent ", append(buf, a[0], b[1]))
}

// PermuteShape is the rule of Permute: perm is a permutation of a's axes
// (negative entries count from the end). It writes the normalized
// permutation to norm (len(a) entries) and appends the output shape.
func PermuteShape(a, perm, norm, buf []int) ([]int, *Fault) {
	if f := Perm("perm", perm, len(a), norm); f != nil {
		return nil, f
	}
	for _, p := range norm {
		buf = append(buf, a[p])
	}
	return buf, nil
}

// ReshapeShape is the rule of Reshape: shape has the element count of a,
// with at most one extent -1 inferred from it.
func ReshapeShape(a, shape, buf []int) ([]int, *Fault) {
	n := Count(a)
	if len(shape) > MaxRank {
		return nil, faultf(ErrShape, "shape", "rank <= "+strconv.Itoa(MaxRank), "rank %d", len(shape))
	}
	infer, known := -1, 1
	for d, e := range shape {
		switch {
		case e == -1 && infer < 0:
			infer = d
		case e < 0:
			return nil, fault(ErrShape, "shape", "non-negative extents and at most one -1", FmtInts(shape))
		case e > MaxElements || e != 0 && known > MaxElements/e:
			return nil, fault(ErrShape, "shape", "a shape of "+strconv.Itoa(n)+" elements", FmtInts(shape))
		default:
			known *= e
		}
	}
	buf = append(buf, shape...)
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return nil, fault(ErrShape, "shape", "a shape of "+strconv.Itoa(n)+" elements", FmtInts(shape))
		}
		buf[len(buf)-len(shape)+infer] = n / known
		return buf, nil
	}
	if known != n {
		return nil, faultf(ErrShape, "shape", "a shape of "+strconv.Itoa(n)+" elements", "%s (%d elements)", FmtInts(shape), known)
	}
	return buf, nil
}

// EinsumShape parses subscripts and binds them to the operand shapes. It
// returns the bound problem and the output shape.
func EinsumShape(subscripts string, shapes [][]int) (*einsum.Problem, []int, *Fault) {
	if len(shapes) == 0 {
		return nil, nil, fault(ErrArgument, "operands", "at least one operand", "none")
	}
	for k, s := range shapes {
		if _, f := Numel(OperandName(k), s); f != nil {
			return nil, nil, f
		}
	}
	expr, err := einsum.Parse(subscripts)
	if err != nil {
		return nil, nil, EinsumFault(err)
	}
	prob, err := expr.Bind(shapes)
	if err != nil {
		return nil, nil, EinsumFault(err)
	}
	out := make([]int, len(prob.Output))
	for i, l := range prob.Output {
		out[i] = prob.Extents[l]
	}
	if _, f := Numel("subscripts", out); f != nil {
		return nil, nil, f
	}
	return prob, out, nil
}

// EinsumFault turns an error of package einsum (parsing, binding,
// planning) into a fault that keeps its message: syntax, option and path
// errors are ErrArgument, binding errors ErrShape, a memory limit no path
// respects ErrMemory; the argument is the operand the error names, else
// the subscripts (the options for planning errors).
func EinsumFault(err error) *Fault {
	f := &Fault{Arg: "subscripts", Kind: ErrArgument, Err: err}
	var ee *einsum.Error
	if errors.As(err, &ee) {
		if ee.Operand >= 0 && !errors.Is(err, einsum.ErrSyntax) {
			f.Arg = OperandName(ee.Operand)
		}
		if errors.Is(err, einsum.ErrShape) || errors.Is(err, einsum.ErrRank) {
			f.Kind = ErrShape
		}
		if errors.Is(err, einsum.ErrPath) || errors.Is(err, einsum.ErrOption) || errors.Is(err, einsum.ErrMemoryLimit) {
			f.Arg = "options"
		}
		if errors.Is(err, einsum.ErrMemoryLimit) {
			f.Kind = ErrMemory
		}
	}
	return f
}

// Shape applies k's shape rule to the input shapes and attributes,
// normalizing a in place (sorted non-negative axes, a permutation with
// negative entries resolved, a target shape with -1 resolved). It is the
// rule a trace records with; eager operations call the rule functions
// above directly with stack buffers.
func (k Kind) Shape(a *Attrs, in [][]int) ([]int, *Fault) {
	info := k.Info()
	if info.Args != nil && len(in) != len(info.Args) { // nil Args: variadic
		return nil, faultf(ErrArgument, "operands", strconv.Itoa(len(info.Args))+" tensors", "%d", len(in))
	}
	switch info.Category {
	case Linalg:
		return linalgShape(k, a, in)
	case Data, Unary:
		if f := UnaryShape(in[0]); f != nil {
			return nil, f
		}
		return slices.Clone(in[0]), nil
	case Binary:
		return BroadcastArgs(info.Args[0], info.Args[1], in[0], in[1], nil)
	case Select:
		return WhereShape(in[0], in[1], in[2], nil)
	case Reduction:
		out, m, f := ReductionShape(k, in[0], a.Axes, real(a.Alpha), nil)
		if f != nil {
			return nil, f
		}
		a.Axes = MaskAxes(m, len(in[0]))
		return out, nil
	case Scan:
		d, f := ScanShape(in[0], a.Axes)
		if f != nil {
			return nil, f
		}
		a.Axes = []int{d}
		return slices.Clone(in[0]), nil
	}
	if out, f, ok := structuralShape(k, a, in); ok {
		return out, f
	}
	switch k {
	case Matmul:
		return MatmulShape(in[0], in[1], nil)
	case Einsum:
		_, out, f := EinsumShape(a.Subscripts, in)
		return out, f
	case Permute:
		norm := make([]int, len(in[0]))
		out, f := PermuteShape(in[0], a.Axes, norm, nil)
		if f != nil {
			return nil, f
		}
		a.Axes = norm
		return out, nil
	case Reshape:
		out, f := ReshapeShape(in[0], a.Shape, nil)
		if f != nil {
			return nil, f
		}
		a.Shape = slices.Clone(out)
		return out, nil
	}
	return nil, faultf(ErrArgument, "op", "an operation of the catalog", "%v", k)
}
