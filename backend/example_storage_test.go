package backend_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleDTypeOf() {
	fmt.Println(backend.DTypeOf[float32](), backend.DTypeOf[complex128](), backend.DTypeOf[int64]())
	// Output: f32 c128 i64
}

// Attributes travel as complex128 and are narrowed to the kernel's type:
// a real type keeps the real part.
func ExampleFromComplex() {
	fmt.Println(backend.FromComplex[float32](2.5+1i), backend.FromComplex[complex64](2.5+1i))
	// Output: 2.5 (2.5+1i)
}

func ExampleToComplex() {
	fmt.Println(backend.ToComplex(float32(1.5)), backend.ToComplex(complex64(1-2i)))
	// Output: (1.5+0i) (1-2i)
}

// An engine hands out its kernels per element type; a capability it lacks
// for that type is nil.
func ExampleKernelsOf() {
	e := cpu.Serial()
	defer e.Close()
	f := backend.KernelsOf[float64](e.Backend())
	i := backend.KernelsOf[int64](e.Backend())
	fmt.Println(f.Contraction != nil, f.Linalg != nil)
	fmt.Println(i.Core != nil, i.Index != nil, i.Contraction != nil)
	// Output:
	// true true
	// true true false
}

// pool counts the storage handed back to it.
type pool struct{ got int }

func (p *pool) Recycle(s any) { p.got++ }

// Releasing storage starts a new generation and hands it to its pool.
func ExampleNewStorage() {
	p := &pool{}
	s := backend.NewStorage(make([]float64, 4), p)
	fmt.Println(s.Gen(), len(s.Buf()), s.DType())
	s.Release()
	fmt.Println(s.Gen(), p.got)
	// Output:
	// 0 4 f64
	// 1 1
}

func ExampleStorage_Buf() {
	s := backend.NewStorage([]int64{1, 2, 3}, nil)
	s.Buf()[0] = 10 // the buffer itself, not a copy
	fmt.Println(s.Buf())
	// Output: [10 2 3]
}

// Reuse hands recycled storage to a new, smaller owner; Cap is what it
// can hold.
func ExampleStorage_Reuse() {
	s := backend.NewStorage(make([]float32, 8), nil)
	s.Release()
	s.Reuse(3)
	fmt.Println(len(s.Buf()), s.Cap(), s.Gen())
	// Output: 3 8 1
}

func ExampleStorage_Cap() {
	s := backend.NewStorage(make([]complex64, 2, 16), nil)
	fmt.Println(len(s.Buf()), s.Cap())
	// Output: 2 16
}

func ExampleStorage_DType() {
	s := backend.NewStorage([]bool{true}, nil)
	fmt.Println(s.DType())
	// Output: bool
}

// The generation tells a tensor whether its storage still belongs to it:
// every Release starts a new one.
func ExampleStorage_Gen() {
	s := backend.NewStorage(make([]float64, 1), nil)
	mine := s.Gen()
	s.Release()
	fmt.Println(s.Gen() == mine)
	// Output: false
}

func ExampleStorage_Release() {
	p := &pool{}
	s := backend.NewStorage(make([]float64, 2), p)
	s.Release()
	s.Release()
	fmt.Println(s.Gen(), p.got)
	// Output: 2 2
}
