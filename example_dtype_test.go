package tenferro_test

import (
	"errors"
	"fmt"
	"io"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleDTypeOf() {
	fmt.Println(tf.DTypeOf[float32](), tf.DTypeOf[complex128](), tf.DTypeOf[int64](), tf.DTypeOf[bool]())
	// Output: f32 c128 i64 bool
}

func ExampleParseDType() {
	a, _ := tf.ParseDType("complex64")
	b, _ := tf.ParseDType("f64")
	_, err := tf.ParseDType("float16")
	fmt.Println(a, b)
	fmt.Println(err)
	// Output:
	// c64 f64
	// tenferro: ParseDType: dtype: dtype mismatch: expected one of f32, f64, c64, c128, i64, bool, got "float16"
}

// Promotion follows NumPy: bool < int64 < floating < complex, at the wider
// precision.
func ExamplePromote() {
	fmt.Println(tf.Promote(tf.Float64, tf.Complex64))
	fmt.Println(tf.Promote(tf.Int64, tf.Float32))
	fmt.Println(tf.Promote(tf.Bool, tf.Float32))
	// Output:
	// c128
	// f64
	// f32
}

func ExampleDType_IsComplex() {
	fmt.Println(tf.Complex64.IsComplex(), tf.Float64.IsComplex())
	// Output: true false
}

// The four arithmetic dtypes are numbers; int64 and bool are not.
func ExampleDType_IsNumber() {
	for _, d := range tf.DTypes {
		fmt.Print(d, ":", d.IsNumber(), " ")
	}
	fmt.Println()
	// Output: f32:true f64:true c64:true c128:true i64:false bool:false
}

func ExampleDType_Real() {
	fmt.Println(tf.Complex64.Real(), tf.Complex128.Real(), tf.Float32.Real())
	// Output: f32 f64 f32
}

func ExampleDType_Size() {
	for _, d := range tf.DTypes {
		fmt.Print(d, ":", d.Size(), " ")
	}
	fmt.Println()
	// Output: f32:4 f64:8 c64:8 c128:16 i64:8 bool:1
}

func ExampleDType_String() {
	fmt.Println(tf.Float64.String(), tf.Complex128, tf.Invalid)
	// Output: f64 c128 dtype(0)
}

func ExampleDType_Valid() {
	var d tf.DType // the zero DType is Invalid
	fmt.Println(d.Valid(), tf.Bool.Valid())
	// Output: false true
}

func ExamplePadMode_String() {
	fmt.Println(tf.PadConstant, tf.PadEdge, tf.PadReflect, tf.PadSymmetric, tf.PadWrap)
	// Output: constant edge reflect symmetric wrap
}

// ValueOf wraps a typed tensor for APIs that take any dtype (compiled
// programs, .npy files); As unwraps it.
func ExampleValueOf() {
	x, _ := tf.FromSlice([]float32{1, 2, 3}, 3)
	v := tf.ValueOf(x)
	back, _ := tf.As[float32](v)
	fmt.Println(v.DType(), v.Shape(), back == x)
	// Output: f32 [3] true
}

func ExampleAs() {
	v, _ := tf.NewValue(tf.Float64, 2)
	x, _ := tf.As[float64](v)
	_, err := tf.As[float32](v)
	fmt.Println(x.Shape(), errors.Is(err, tf.ErrDType))
	// Output: [2] true
}

// A dtype chosen at run time, for example from a command line.
func ExampleNewValue() {
	dt, _ := tf.ParseDType("c128")
	v, _ := tf.NewValue(dt, 2, 2)
	fmt.Println(v.DType(), v.Shape(), v.Valid())
	// Output: c128 [2 2] true
}

func ExampleValue_DType() {
	var empty tf.Value
	v := tf.ValueOf(tf.Const(int64(3)))
	fmt.Println(v.DType(), empty.DType() == tf.Invalid)
	// Output: i64 true
}

func ExampleValue_Shape() {
	v, _ := tf.NewValue(tf.Bool, 3, 0)
	fmt.Println(v.Shape(), tf.ValueOf(tf.Const(1.0)).Shape())
	// Output: [3 0] []
}

func ExampleValue_Strides() {
	x, _ := tf.Zeros[float64](2, 3)
	xt, _ := x.Transpose()
	fmt.Println(tf.ValueOf(x).Strides(), tf.ValueOf(xt).Strides())
	// Output: [1 2] [2 1]
}

// Overlaps tells whether two views share storage elements: the test a
// destination must pass.
func ExampleValue_Overlaps() {
	x, _ := tf.Zeros[float64](4)
	head, _ := x.Slice(0, 0, 2, 1)
	tail, _ := x.Slice(0, 2, 4, 1)
	y, _ := tf.Zeros[float64](4)
	fmt.Println(tf.ValueOf(head).Overlaps(tf.ValueOf(x)),
		tf.ValueOf(head).Overlaps(tf.ValueOf(tail)),
		tf.ValueOf(x).Overlaps(tf.ValueOf(y)))
	// Output: true false false
}

func ExampleValue_Release() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](8)
	s, _ := tf.Add(e, a, a)
	v := tf.ValueOf(s)
	_ = v.Release() // s's storage goes back to e's pool
	fmt.Println(v.Valid(), s.Valid(), e.BufferPoolStats().Buffers)
	// Output: false false 1
}

func ExampleValue_String() {
	x, _ := tf.FromRowMajor([]int64{1, 2, 3, 4}, 2, 2)
	fmt.Println(tf.ValueOf(x).String())
	// Output:
	// Tensor[i64] (2, 2)
	// [[1 2]
	//  [3 4]]
}

// Tensor returns the wrapped *Tensor[T] as an interface, for a type switch.
func ExampleValue_Tensor() {
	v, _ := tf.NewValue(tf.Complex64, 3)
	switch t := v.Tensor().(type) {
	case *tf.Tensor[complex64]:
		fmt.Println("complex64", t.Len())
	case *tf.Tensor[float64]:
		fmt.Println("float64", t.Len())
	}
	// Output: complex64 3
}

func ExampleValue_Valid() {
	var empty tf.Value
	v, _ := tf.NewValue(tf.Float32, 1)
	fmt.Println(empty.Valid(), v.Valid())
	// Output: false true
}

// Errorf builds the library's error for packages built on it: the
// operation, the argument, expected against actual, and a kind that
// errors.Is matches.
func ExampleErrorf() {
	err := tf.Errorf(tf.ErrShape, "Kron", "b", "a matrix", "rank %d", 3)
	var te *tf.Error
	fmt.Println(err)
	fmt.Println(errors.Is(err, tf.ErrShape), errors.As(err, &te) && te.Arg == "b")
	// Output:
	// tenferro: Kron: b: shape mismatch: expected a matrix, got rank 3
	// true true
}

// WrapError names the operation that met a foreign error; errors.Is still
// finds the cause, and an *Error's kind carries over.
func ExampleWrapError() {
	err := tf.WrapError("Load", "r", io.ErrUnexpectedEOF)
	fmt.Println(err)
	fmt.Println(errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, tf.ErrArgument))
	inner := tf.Errorf(tf.ErrDType, "Decode", "data", "f64", "%s", "i64")
	outer := tf.WrapError("Load", "", inner)
	fmt.Println(errors.Is(outer, tf.ErrDType))
	// Output:
	// tenferro: Load: r: invalid argument: unexpected EOF
	// true true
	// true
}

// The budget comes from $TENFERRO_MEMORY_BUDGET, GOMEMLIMIT or the
// machine's memory; a constructor beyond it fails before allocating.
func ExampleDefaultMemoryBudget() {
	budget := tf.DefaultMemoryBudget()
	n := int(budget/8) + 1 // one float64 more than the budget holds
	_, err := tf.Zeros[float64](n)
	fmt.Println(budget > 0, errors.Is(err, tf.ErrMemory))
	// Output: true true
}
