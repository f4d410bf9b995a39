package npy_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tenferro-go/tenferro/npy"
)

// Len is the product of the shape: 1 for a 0-d array.
func ExampleArray_Len() {
	a := &npy.Array{DType: npy.Int64, Shape: []int{2, 3}, Data: make([]int64, 6)}
	s := &npy.Array{DType: npy.Float64, Shape: nil, Data: []float64{7}}
	fmt.Println(a.Len(), s.Len())
	// Output: 6 1
}

func ExampleDType_Descr() {
	for _, d := range []npy.DType{npy.Float32, npy.Float64, npy.Complex64, npy.Complex128, npy.Int64, npy.Bool} {
		fmt.Print(d.Descr(), " ")
	}
	fmt.Println()
	// Output: <f4 <f8 <c8 <c16 <i8 |b1
}

func ExampleDType_Size() {
	fmt.Println(npy.Float32.Size(), npy.Complex128.Size(), npy.Bool.Size(), npy.DType(0).Size())
	// Output: 4 16 1 0
}

// The Go name of the element type that Array.Data holds.
func ExampleDType_String() {
	var buf bytes.Buffer
	_ = npy.Write(&buf, []int{2}, []int64{1, 2})
	a, _ := npy.Read(&buf)
	_, ok := a.Data.([]int64)
	fmt.Println(a.DType.String(), ok)
	// Output: int64 true
}

// A header longer than the cap is refused before it is read.
func ExampleMaxHeaderBytes() {
	var buf bytes.Buffer
	_ = npy.Write(&buf, []int{2, 3}, make([]float64, 6)) // a 118-byte header
	data := buf.Bytes()
	_, err := npy.Read(bytes.NewReader(data), npy.MaxHeaderBytes(64))
	fmt.Println(errors.Is(err, npy.ErrTooLarge))
	_, err = npy.Read(bytes.NewReader(data), npy.MaxHeaderBytes(128))
	fmt.Println(err)
	// Output:
	// true
	// <nil>
}

// WriteFile takes column-major data; NumPy loads the same array.
func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "m.npy")
	// The 2×2 matrix [[1 2] [3 4]] in column-major order.
	if err := npy.WriteFile(path, []int{2, 2}, []float64{1, 3, 2, 4}); err != nil {
		fmt.Println(err)
		return
	}
	a, _ := npy.ReadFile(path)
	fmt.Println(a.Fortran, a.Shape, a.Data)
	err = npy.WriteFile(path, []int{2, 2}, []float64{1, 2, 3}) // wrong length
	fmt.Println(errors.Is(err, npy.ErrArgument))
	// Output:
	// true [2 2] [1 3 2 4]
	// true
}
