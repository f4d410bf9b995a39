package npy_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tenferro-go/tenferro/npy"
)

// A 2x3 matrix in column-major order: columns (1,2), (3,4), (5,6).
func ExampleWrite() {
	var buf bytes.Buffer
	if err := npy.Write(&buf, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}); err != nil {
		fmt.Println(err)
		return
	}
	b := buf.Bytes()
	hlen := int(b[8]) | int(b[9])<<8
	fmt.Printf("%q\n", bytes.TrimRight(b[10:10+hlen], " \n"))
	fmt.Println("data starts at byte", 10+hlen, "of", len(b))
	// Output:
	// "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }"
	// data starts at byte 128 of 176
}

func ExampleRead() {
	var buf bytes.Buffer
	_ = npy.Write(&buf, []int{2, 2}, []complex64{1, 2i, 3, 4i})
	a, err := npy.Read(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.DType, a.Shape, a.Fortran, a.Data)
	// Output: complex64 [2 2] true [(1+0i) (0+2i) (3+0i) (0+4i)]
}

// Row-major (C order) data is written as such, with 'fortran_order': False.
func ExampleWriteArray() {
	var buf bytes.Buffer
	a := &npy.Array{Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}} // rows (1,2), (3,4)
	if err := npy.WriteArray(&buf, a); err != nil {
		fmt.Println(err)
		return
	}
	back, _ := npy.Read(&buf)
	fmt.Println(back.DType, back.Fortran, back.ColumnMajor())
	// Output: float32 false [1 3 2 4]
}

// C-order data, as NumPy writes by default, converted to column-major.
func ExampleArray_ColumnMajor() {
	a := &npy.Array{DType: npy.Float64, Shape: []int{2, 3}, Data: []float64{
		1, 2, 3, // row 0
		4, 5, 6, // row 1
	}}
	fmt.Println(a.ColumnMajor())
	// Output: [1 4 2 5 3 6]
}

func ExampleMaxBytes() {
	var buf bytes.Buffer
	_ = npy.Write(&buf, []int{1000}, make([]float64, 1000))
	_, err := npy.Read(&buf, npy.MaxBytes(4096))
	fmt.Println(errors.Is(err, npy.ErrTooLarge))
	fmt.Println(err)
	// Output:
	// true
	// npy: read: shape [1000] of float64 needs 8000 bytes, over the limit of 4096
}

func ExampleReadFile() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "v.npy")
	if err := npy.WriteFile(path, []int{3}, []float32{0.5, 1.5, 2.5}); err != nil {
		fmt.Println(err)
		return
	}
	a, err := npy.ReadFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Shape, a.ColumnMajor())
	// Output: [3] [0.5 1.5 2.5]
}
