package npy_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/npy"
)

// A C-order file, as np.save writes by default: a[i, j] = 3i + j + 1.
// Element (i, j) of the tensor is a[i, j]; its storage is column-major.
func ExampleReadTensor() {
	var buf bytes.Buffer
	_ = npy.WriteArray(&buf, &npy.Array{Shape: []int{2, 3}, Data: []float64{
		1, 2, 3, // a[0, :]
		4, 5, 6, // a[1, :]
	}})
	t, err := npy.ReadTensor[float64](&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	x, _ := t.At(1, 0)
	data, _ := t.Data()
	fmt.Println(t.Shape(), x, data)
	// Output: [2 3] 4 [1 4 2 5 3 6]
}

// The dtype must match T exactly: nothing is converted.
func ExampleReadTensor_dtypeMismatch() {
	var buf bytes.Buffer
	_ = npy.Write(&buf, []int{3}, []int64{1, 2, 3})
	_, err := npy.ReadTensor[float64](&buf)
	fmt.Println(errors.Is(err, npy.ErrArgument), errors.Is(err, tf.ErrDType))
	fmt.Println(err)
	// Output:
	// true true
	// npy: read: ReadTensor[float64]: the file holds int64 ('<i8'), expected '<f8': dtype mismatch
}

func ExampleReadTensorFile() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "mask.npy")
	_ = npy.WriteFile(path, []int{2, 2}, []bool{true, false, false, true})
	t, err := npy.ReadTensorFile[bool](path)
	if err != nil {
		fmt.Println(err)
		return
	}
	d0, _ := t.At(0, 0)
	d1, _ := t.At(0, 1)
	fmt.Println(t.DType(), t.Shape(), d0, d1)
	// Output: bool [2 2] true false
}

// ReadValue takes any supported dtype; convert explicitly if needed.
func ExampleReadValue() {
	var buf bytes.Buffer
	_ = npy.Write(&buf, []int{3}, []int64{-1, 0, 7})
	v, err := npy.ReadValue(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, _ := tf.Convert(v, tf.Float64)
	data, _ := f.Data()
	fmt.Println(v.DType(), v.Shape(), f.DType(), data)
	// Output: i64 [3] f64 [-1 0 7]
}

func ExampleReadValueFile() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "z.npy")
	_ = npy.WriteFile(path, nil, []complex64{1 - 2i}) // a 0-d array
	v, err := npy.ReadValueFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, _ := v.Data()
	fmt.Println(v.DType(), v.Shape(), data)
	// Output: c64 [] [(1-2i)]
}

// A transposed view is gathered through its strides and written in
// Fortran order: the file holds the 3x2 matrix mᵀ.
func ExampleWriteTensor() {
	m, _ := tf.FromRowMajor([]float32{1, 2, 3, 4, 5, 6}, 2, 3) // m[i, j] = 3i + j + 1
	mt, _ := m.Transpose()
	var buf bytes.Buffer
	if err := npy.WriteTensor(&buf, mt); err != nil {
		fmt.Println(err)
		return
	}
	a, _ := npy.Read(&buf)
	fmt.Println(a.DType, a.Shape, a.Fortran, a.Data)
	// Output: float32 [3 2] true [1 2 3 4 5 6]
}

func ExampleWriteTensorFile() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "v.npy")
	v, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5}, 5)
	odd, _ := v.Slice(0, 0, 5, 2) // elements 0, 2, 4
	if err := npy.WriteTensorFile(path, odd); err != nil {
		fmt.Println(err)
		return
	}
	back, _ := npy.ReadTensorFile[float64](path)
	data, _ := back.Data()
	fmt.Println(data)
	released, _ := tf.Zeros[float64](2)
	_ = released.Release()
	err = npy.WriteTensorFile(filepath.Join(dir, "r.npy"), released)
	fmt.Println(errors.Is(err, tf.ErrReleased), err)
	// Output:
	// [1 3 5]
	// true npy: write: the f64 tensor was released, expected a live one: tensor released
}

func ExampleWriteValue() {
	v, _ := tf.NewValue(tf.Int64, 2, 2)
	var buf bytes.Buffer
	if err := npy.WriteValue(&buf, v); err != nil {
		fmt.Println(err)
		return
	}
	a, _ := npy.Read(&buf)
	fmt.Println(a.DType, a.Shape, a.Data)
	fmt.Println(npy.WriteValue(&buf, tf.Value{}))
	// Output:
	// int64 [2 2] [0 0 0 0]
	// npy: write: the value is empty (the zero Value), expected one holding a tensor
}

func ExampleWriteValueFile() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "c.npy")
	c, _ := tf.Full[complex128](2i, 1, 2)
	if err := npy.WriteValueFile(path, tf.ValueOf(c)); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := npy.ReadValueFile(path)
	fmt.Println(v.DType(), v.Shape())
	// Output: c128 [1 2]
}
