package npy

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro"
)

// FuzzRead feeds arbitrary bytes to Read, through a seekable and a plain
// reader. Read must never panic, must agree between the two readers, and
// whatever it accepts must have consistent shape and data and survive a
// write/read round trip; ReadValue must accept the same inputs (bar shapes
// no tensor can have) with the same data. MaxBytes keeps allocation
// bounded.
func FuzzRead(f *testing.F) {
	var ok bytes.Buffer
	if err := Write(&ok, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}); err != nil {
		f.Fatal(err)
	}
	f.Add(ok.Bytes())
	ok.Reset()
	if err := WriteArray(&ok, &Array{DType: Complex64, Shape: []int{3}, Data: []complex64{1, 2i, 3}}); err != nil {
		f.Fatal(err)
	}
	f.Add(ok.Bytes())
	ok.Reset()
	if err := Write(&ok, []int{2, 2}, []int64{-1, 1 << 62, 3, -1 << 63}); err != nil {
		f.Fatal(err)
	}
	f.Add(ok.Bytes())
	ok.Reset()
	if err := WriteArray(&ok, &Array{Shape: []int{3, 1}, Data: []bool{true, false, true}}); err != nil {
		f.Fatal(err)
	}
	f.Add(ok.Bytes())
	f.Add(raw(1, 0, hdr("'|b1'", "False", "(3,)"), []byte{1, 2, 0}))
	for _, h := range []string{
		hdr("'<f4'", "False", "()"),
		hdr("'<c16'", "True", "(2, 0, 3)"),
		hdr("'?'", "True", "(4, 4)"),
		hdr("'<i8'", "False", "(2,)"),
		"{'shape': (1,), 'descr': \"<f8\", 'fortran_order': True}",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (2, -1), }",
		"{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }",
		"{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 1_0), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (0, 1125899906842624), }",
		"{'descr': '<f8', 'fortran_order': True, 'shape': (" + strings.Repeat("1,", 33) + "), }",
		"{'descr': '<f8' 'fortran_order': False}",
		"{'descr': '<f8', 'descr': '<f8'}",
		"{'descr': ((((((((((((((((((((",
		"{'descr: '<f8'}",
	} {
		f.Add(raw(1, 0, h, make([]byte, 16)))
		f.Add(raw(3, 0, h, nil))
	}
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"))
	f.Add([]byte("\x93NUMPY\x09\x00"))
	f.Add([]byte("\x93NUM"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, in []byte) {
		opts := []ReadOption{MaxBytes(1 << 20), MaxHeaderBytes(4096)}
		a, err := Read(bytes.NewReader(in), opts...)
		b, err2 := Read(plainReader{bytes.NewReader(in)}, opts...)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("seekable and plain readers disagree: %v vs %v", err, err2)
		}
		v, errV := ReadValue(plainReader{bytes.NewReader(in)}, opts...)
		if err != nil {
			if errV == nil {
				t.Fatalf("ReadValue accepted what Read rejects (%v)", err)
			}
			return
		}
		checkValue(t, a, v, errV, opts)
		n, okCount := elementCount(a.Shape)
		if !okCount || lenOf(a.Data) != n || a.Len() != n {
			t.Fatalf("shape %v but %d elements", a.Shape, lenOf(a.Data))
		}
		if dt, _, _ := dtypeOf(a.Data); dt != a.DType {
			t.Fatalf("DType %s, data %T", a.DType, a.Data)
		}
		if !sameBits(a.Data, b.Data) {
			t.Fatal("readers returned different data")
		}
		var out bytes.Buffer
		if err := WriteArray(&out, a); err != nil {
			t.Fatalf("rewrite: %v", err)
		}
		c, err := Read(&out, opts...)
		if err != nil {
			t.Fatalf("reread: %v", err)
		}
		if !sameBits(c.ColumnMajor(), a.ColumnMajor()) {
			t.Fatal("round trip changed the data")
		}
	})
}

// checkValue checks that ReadValue made of an input what Read did: the
// same shape and, in column-major order, the same data, which WriteValue
// writes back unchanged. Only shapes no tensor can have may be refused.
func checkValue(t *testing.T, a *Array, v tenferro.Value, err error, opts []ReadOption) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, ErrUnsupported) || len(a.Shape) <= tenferro.MaxRank && slices.Max(append([]int{0}, a.Shape...)) <= 1<<46 {
			t.Fatalf("ReadValue refused a %s %v array: %v", a.DType, a.Shape, err)
		}
		return
	}
	d, err := v.Data()
	if err != nil || !slices.Equal(v.Shape(), a.Shape) || !sameBits(d, a.ColumnMajor()) {
		t.Fatalf("ReadValue: shape %v (%v), want %v, or data differs", v.Shape(), err, a.Shape)
	}
	var out bytes.Buffer
	if err := WriteValue(&out, v); err != nil {
		t.Fatalf("WriteValue: %v", err)
	}
	b, err := Read(&out, opts...)
	if err != nil || !sameBits(b.ColumnMajor(), d) {
		t.Fatalf("WriteValue round trip: %v, or data differs", err)
	}
}
