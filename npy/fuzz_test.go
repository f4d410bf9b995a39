package npy

import (
	"bytes"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Read, through a seekable and a plain
// reader. Read must never panic, must agree between the two readers, and
// whatever it accepts must have consistent shape and data and survive a
// write/read round trip. MaxBytes keeps allocation bounded.
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
		if err != nil {
			return
		}
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
