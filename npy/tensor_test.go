package npy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	tf "github.com/tenferro-go/tenferro"
)

// colIndex returns the multi-index of column-major offset j in shape.
func colIndex(j int, shape []int) []int {
	idx := make([]int, len(shape))
	for k, d := range shape {
		idx[k] = j % d
		j /= d
	}
	return idx
}

// rowOffset returns the row-major (C) offset of idx in shape.
func rowOffset(idx, shape []int) int {
	c := 0
	for k, d := range shape {
		c = c*d + idx[k]
	}
	return c
}

// refGather returns the elements of v in column-major order by the
// definition: element j is v.At(multi-index of j).
func refGather[T tf.Elem](t *testing.T, v *tf.Tensor[T]) []T {
	t.Helper()
	out := make([]T, v.Len())
	for j := range out {
		x, err := v.At(colIndex(j, v.Shape())...)
		if err != nil {
			t.Fatal(err)
		}
		out[j] = x
	}
	return out
}

// views returns b and views of it: transposed, rotated, reversed, stepped,
// offset, diagonal and broadcast, each named.
func views[T tf.Elem](t *testing.T, b *tf.Tensor[T]) map[string]*tf.Tensor[T] {
	t.Helper()
	out := map[string]*tf.Tensor[T]{"compact": b}
	add := func(name string, v *tf.Tensor[T], err error) {
		if err != nil {
			t.Fatalf("%s of %v: %v", name, b.Shape(), err)
		}
		out[name] = v
	}
	r := b.Rank()
	if r == 0 {
		v, err := b.Broadcast(3)
		add("broadcast", v, err)
		return out
	}
	v, err := b.Transpose()
	add("transpose", v, err)
	perm := make([]int, r)
	for d := range perm {
		perm[d] = (d + 1) % r
	}
	v, err = b.Permute(perm...)
	add("rotate", v, err)
	n0 := b.Dim(0)
	v, err = b.Slice(0, n0-1, -n0-1, -1)
	add("reverse0", v, err)
	v, err = b.Slice(r-1, 0, b.Dim(-1), 2)
	add("step", v, err)
	v, err = b.Slice(0, 1, n0, 1)
	add("offset", v, err)
	if r >= 2 {
		v, err = b.Diagonal(0, 1)
		add("diagonal", v, err)
	}
	v, err = b.Broadcast(append([]int{3}, b.Shape()...)...)
	add("broadcast", v, err)
	return out
}

func TestTensorRoundTrip(t *testing.T) { bothPaths(t, testTensorRoundTrip) }

func testTensorRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	roundTrip[float32](t, rng)
	roundTrip[float64](t, rng)
	roundTrip[complex64](t, rng)
	roundTrip[complex128](t, rng)
	roundTrip[int64](t, rng)
	roundTrip[bool](t, rng)
}

// roundTrip writes every view of random tensors of T with WriteTensor and
// WriteValue, and checks the raw file (Fortran order, shape, data in
// column-major order by the definition) and what ReadTensor and ReadValue
// make of it through a seekable, a plain and a one-byte reader.
func roundTrip[T tf.Elem](t *testing.T, rng *rand.Rand) {
	dt := dtypeFor[T]()
	for _, shape := range testShapes {
		n, _ := elementCount(shape)
		b, err := tf.FromSlice(randomData(rng, dt, n).([]T), shape...)
		if err != nil {
			t.Fatal(err)
		}
		for vname, v := range views(t, b) {
			name := fmt.Sprintf("%s/%v/%s", dt, shape, vname)
			want := refGather(t, v)
			var buf, vbuf bytes.Buffer
			if err := WriteTensor(&buf, v); err != nil {
				t.Fatalf("%s: WriteTensor: %v", name, err)
			}
			if err := WriteValue(&vbuf, tf.ValueOf(v)); err != nil {
				t.Fatalf("%s: WriteValue: %v", name, err)
			}
			if !bytes.Equal(buf.Bytes(), vbuf.Bytes()) {
				t.Fatalf("%s: WriteValue and WriteTensor differ", name)
			}
			checkLayout(t, name, buf.Bytes(), dt, v.Len())
			a, err := Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%s: Read: %v", name, err)
			}
			if a.DType != dt || !slices.Equal(a.Shape, v.Shape()) || a.Fortran != (v.Rank() >= 2) {
				t.Fatalf("%s: file is %s %v F=%v", name, a.DType, a.Shape, a.Fortran)
			}
			if !sameBits(a.Data, want) {
				t.Fatalf("%s: file data %v, want %v", name, a.Data, want)
			}
			for rname, r := range map[string]io.Reader{
				"seeker":  bytes.NewReader(buf.Bytes()),
				"stream":  plainReader{bytes.NewReader(buf.Bytes())},
				"onebyte": iotest.OneByteReader(bytes.NewReader(buf.Bytes())),
			} {
				got, err := ReadTensor[T](r)
				if err != nil {
					t.Fatalf("%s/%s: ReadTensor: %v", name, rname, err)
				}
				if !slices.Equal(got.Shape(), v.Shape()) || !got.IsCompact() || got.Offset() != 0 {
					t.Fatalf("%s/%s: got shape %v strides %v offset %d", name, rname, got.Shape(), got.Strides(), got.Offset())
				}
				if !sameBits(refGather(t, got), want) {
					t.Fatalf("%s/%s: ReadTensor data differs", name, rname)
				}
			}
			val, err := ReadValue(bytes.NewReader(buf.Bytes()))
			if err != nil || val.DType() != tf.DTypeOf[T]() {
				t.Fatalf("%s: ReadValue: %v, dtype %v", name, err, val.DType())
			}
			if d, err := val.Data(); err != nil || !sameBits(d, want) {
				t.Fatalf("%s: ReadValue data %v (%v), want %v", name, d, err, want)
			}
		}
	}
}

// TestReadTensorOrders reads C-order and Fortran-order files of every dtype
// and checks t.At(idx) against the row-major (C) or column-major offset of
// idx in the data written.
func TestReadTensorOrders(t *testing.T) { bothPaths(t, testReadTensorOrders) }

func testReadTensorOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, dt := range allDTypes {
		for _, shape := range append(testShapes, []int{37, 41}, []int{33, 3, 35}, []int{2, 65, 3}) {
			for _, fortran := range []bool{false, true} {
				n, _ := elementCount(shape)
				data := randomData(rng, dt, n)
				var buf bytes.Buffer
				if err := WriteArray(&buf, &Array{DType: dt, Shape: shape, Fortran: fortran, Data: data}); err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s %v F=%v", dt, shape, fortran)
				switch dt {
				case Float32:
					checkOrder(t, name, &buf, shape, fortran, data.([]float32))
				case Float64:
					checkOrder(t, name, &buf, shape, fortran, data.([]float64))
				case Complex64:
					checkOrder(t, name, &buf, shape, fortran, data.([]complex64))
				case Complex128:
					checkOrder(t, name, &buf, shape, fortran, data.([]complex128))
				case Int64:
					checkOrder(t, name, &buf, shape, fortran, data.([]int64))
				case Bool:
					checkOrder(t, name, &buf, shape, fortran, data.([]bool))
				}
			}
		}
	}
}

// checkOrder reads r with ReadTensor and checks that element idx is
// data[row-major offset of idx], or data[column-major offset] when
// fortran is set.
func checkOrder[T tf.Elem](t *testing.T, name string, r io.Reader, shape []int, fortran bool, data []T) {
	t.Helper()
	got, err := ReadTensor[T](r)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !slices.Equal(got.Shape(), shape) || !got.IsCompact() {
		t.Fatalf("%s: shape %v strides %v", name, got.Shape(), got.Strides())
	}
	for j := range data {
		idx := colIndex(j, shape)
		off := j
		if !fortran {
			off = rowOffset(idx, shape)
		}
		if x, err := got.At(idx...); err != nil || !sameBits([]T{x}, []T{data[off]}) {
			t.Fatalf("%s: element %v = %v (%v), want %v", name, idx, x, err, data[off])
		}
	}
}

// TestReadTensorDTypeMismatch reads every dtype as every other T: the error
// names both, matches ErrArgument and tenferro.ErrDType, and comes before
// the data is read (the files here have none).
func TestReadTensorDTypeMismatch(t *testing.T) {
	for _, file := range allDTypes {
		in := raw(1, 0, hdr("'"+file.Descr()+"'", "False", "(1000,)"), nil)
		for _, want := range allDTypes {
			var err error
			switch want {
			case Float32:
				_, err = ReadTensor[float32](bytes.NewReader(in))
			case Float64:
				_, err = ReadTensor[float64](bytes.NewReader(in))
			case Complex64:
				_, err = ReadTensor[complex64](bytes.NewReader(in))
			case Complex128:
				_, err = ReadTensor[complex128](bytes.NewReader(in))
			case Int64:
				_, err = ReadTensor[int64](bytes.NewReader(in))
			case Bool:
				_, err = ReadTensor[bool](bytes.NewReader(in))
			}
			if file == want {
				if !errors.Is(err, ErrTruncated) {
					t.Errorf("%s as %s: got %v, want ErrTruncated", file, want, err)
				}
				continue
			}
			msg := fmt.Sprintf("ReadTensor[%s]: the file holds %s ('%s'), expected '%s'", want, file, file.Descr(), want.Descr())
			if !errors.Is(err, ErrArgument) || !errors.Is(err, tf.ErrDType) || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s as %s: got %v, want ErrArgument and tenferro.ErrDType with %q", file, want, err, msg)
			}
		}
	}
}

func TestReadTensorErrors(t *testing.T) {
	f8x2 := make([]byte, 16)
	ones := "(" + strings.Repeat("1, ", tf.MaxRank+1) + ")"
	cases := []struct {
		name  string
		in    []byte
		opts  []ReadOption
		kinds []error
		msg   string
	}{
		{"bad magic", []byte("not a npy file"), nil, []error{ErrFormat}, "magic"},
		{"truncated data", raw(1, 0, hdr("'<f8'", "False", "(3,)"), f8x2), nil, []error{ErrTruncated}, "data"},
		{"truncated header", raw(1, 0, hdr("'<f8'", "False", "(2,)"), nil)[:20], nil, []error{ErrTruncated}, "header"},
		{"over MaxBytes", raw(1, 0, hdr("'<f8'", "False", "(2,)"), f8x2), []ReadOption{MaxBytes(15)}, []error{ErrTooLarge}, "needs 16 bytes, over the limit of 15"},
		{"MaxBytes 0", raw(1, 0, hdr("'<f8'", "True", "(1, 1)"), f8x2), []ReadOption{MaxBytes(0)}, []error{ErrTooLarge}, "over the limit of 0"},
		{"bad bool", raw(1, 0, hdr("'|b1'", "False", "(2,)"), []byte{1, 3}), nil, []error{ErrFormat}, "bool element 1"},
		{"rank over MaxRank", raw(1, 0, hdr("'<f8'", "False", ones), f8x2), nil, []error{ErrUnsupported}, "at most 32 axes"},
		{"extent over tenferro's limit", raw(1, 0, hdr("'<f8'", "False", "(0, 1125899906842624)"), nil), nil, []error{ErrUnsupported, tf.ErrShape}, "is no tensor shape"},
	}
	for _, c := range cases {
		for _, seek := range []bool{true, false} {
			mk := func() io.Reader {
				if seek {
					return bytes.NewReader(c.in)
				}
				return plainReader{bytes.NewReader(c.in)}
			}
			isBool := strings.Contains(c.name, "bool")
			var errT, errV error
			if isBool {
				_, errT = ReadTensor[bool](mk(), c.opts...)
			} else {
				_, errT = ReadTensor[float64](mk(), c.opts...)
			}
			v, errV := ReadValue(mk(), c.opts...)
			if v.Valid() {
				t.Errorf("%s: ReadValue returned a tensor with its error", c.name)
			}
			for _, err := range []error{errT, errV} {
				var e *Error
				if !errors.As(err, &e) || e.Op != "read" || !strings.Contains(err.Error(), c.msg) {
					t.Errorf("%s (seek=%v): got %v, want a read *Error with %q", c.name, seek, err, c.msg)
				}
				for _, k := range c.kinds {
					if !errors.Is(err, k) {
						t.Errorf("%s (seek=%v): %v is not %v", c.name, seek, err, k)
					}
				}
			}
		}
	}
}

// TestReadTensorAllocation checks that ReadTensor allocates nothing sized
// by a header over MaxBytes, and about what arrives plus one chunk for a
// stream whose header lies.
func TestReadTensorAllocation(t *testing.T) {
	measure := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	big := raw(1, 0, hdr("'<f8'", "False", "(4096, 4096)"), make([]byte, 1<<16))
	if got := measure(func() {
		if _, err := ReadTensor[float64](bytes.NewReader(big), MaxBytes(1<<20)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("got %v, want ErrTooLarge", err)
		}
	}); got > 64<<10 {
		t.Errorf("allocated %d bytes for a header over MaxBytes", got)
	}
	lying := raw(1, 0, hdr("'<c16'", "False", "(8192, 8192)"), make([]byte, 3*chunkBytes/2))
	if got := measure(func() {
		if _, err := ReadValue(plainReader{bytes.NewReader(lying)}); !errors.Is(err, ErrTruncated) {
			t.Errorf("got %v, want ErrTruncated", err)
		}
	}); got > 4*chunkBytes+64<<10 {
		t.Errorf("allocated %d bytes for a truncated stream announcing 1 GiB", got)
	}
}

// TestGatherLarge writes strided views spanning several staging chunks.
func TestGatherLarge(t *testing.T) { bothPaths(t, testGatherLarge) }

func testGatherLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	b, err := tf.FromSlice(randomData(rng, Complex128, 613*211).([]complex128), 613, 211)
	if err != nil {
		t.Fatal(err)
	}
	col, _ := tf.FromSlice(randomData(rng, Float32, 300001).([]float32), 300001, 1)
	wide, _ := col.Broadcast(300001, 3)
	tr, _ := b.Transpose()
	rev, _ := b.Slice(0, -1, -614, -3)
	for name, err := range map[string]error{"transpose": gatherCheck(t, tr), "reverse": gatherCheck(t, rev), "broadcast": gatherCheck(t, wide)} {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func gatherCheck[T tf.Elem](t *testing.T, v *tf.Tensor[T]) error {
	var buf bytes.Buffer
	if err := WriteTensor(&buf, v); err != nil {
		return err
	}
	a, err := Read(&buf)
	if err != nil {
		return err
	}
	if !slices.Equal(a.Shape, v.Shape()) || !sameBits(a.Data, refGather(t, v)) {
		return fmt.Errorf("shape %v, or data differs", a.Shape)
	}
	return nil
}

func TestWriteTensorErrors(t *testing.T) {
	dir := t.TempDir()
	live, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	released, _ := tf.Zeros[int64](2, 2)
	view, _ := released.Transpose()
	if err := released.Release(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		write func(w io.Writer) error
		file  func(path string) error
		kinds []error
		msg   string
	}{
		{"nil", func(w io.Writer) error { return WriteTensor[bool](w, nil) },
			func(p string) error { return WriteTensorFile[bool](p, nil) }, []error{ErrArgument}, "the bool tensor is nil"},
		{"zero Tensor", func(w io.Writer) error { return WriteTensor(w, &tf.Tensor[complex64]{}) },
			func(p string) error { return WriteTensorFile(p, &tf.Tensor[complex64]{}) }, []error{ErrArgument}, "the c64 tensor is not usable"},
		{"released", func(w io.Writer) error { return WriteTensor(w, released) },
			func(p string) error { return WriteTensorFile(p, released) }, []error{ErrArgument, tf.ErrReleased}, "the i64 tensor was released"},
		{"released view", func(w io.Writer) error { return WriteValue(w, tf.ValueOf(view)) },
			func(p string) error { return WriteValueFile(p, tf.ValueOf(view)) }, []error{ErrArgument, tf.ErrReleased}, "was released"},
		{"zero Value", func(w io.Writer) error { return WriteValue(w, tf.Value{}) },
			func(p string) error { return WriteValueFile(p, tf.Value{}) }, []error{ErrArgument}, "the zero Value"},
		{"failing writer", func(io.Writer) error { return WriteTensor(&failWriter{n: 1}, live) },
			nil, nil, "disk full"},
		{"failing writer, strided", func(io.Writer) error { tr, _ := live.Transpose(); return WriteTensor(&failWriter{n: 1}, tr) },
			nil, nil, "disk full"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		err := c.write(&buf)
		var e *Error
		if !errors.As(err, &e) || e.Op != "write" || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want a write *Error with %q", c.name, err, c.msg)
		}
		for _, k := range c.kinds {
			if !errors.Is(err, k) {
				t.Errorf("%s: %v is not %v", c.name, err, k)
			}
		}
		if c.kinds != nil && buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before failing", c.name, buf.Len())
		}
		if c.file == nil {
			continue
		}
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".npy")
		if err := c.file(path); !errors.Is(err, ErrArgument) {
			t.Errorf("%s: file: got %v, want ErrArgument", c.name, err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: a failed write left %s (%v)", c.name, path, err)
		}
	}
	if err := WriteTensorFile(filepath.Join(dir, "no", "such", "dir.npy"), live); err == nil {
		t.Error("WriteTensorFile into a missing directory: no error")
	}
}

func TestTensorFiles(t *testing.T) {
	dir := t.TempDir()
	m, _ := tf.FromRowMajor([]complex64{1, 2i, 3, 4i, 5, 6i}, 2, 3) // m[i, j] = data[3i + j]
	mt, _ := m.Transpose()
	path := filepath.Join(dir, "mt.npy")
	if err := WriteTensorFile(path, mt); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTensorFile[complex64](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(refGather(t, got), refGather(t, mt)) {
		t.Fatalf("got %v, want %v", got, mt)
	}
	vpath := filepath.Join(dir, "m.npy")
	if err := WriteValueFile(vpath, tf.ValueOf(m)); err != nil {
		t.Fatal(err)
	}
	v, err := ReadValueFile(vpath)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := tf.As[complex64](v); err != nil || !reflect.DeepEqual(refGather(t, back), refGather(t, m)) {
		t.Fatalf("got %v (%v), want %v", v, err, m)
	}
	if _, err := ReadTensorFile[float32](path); !errors.Is(err, ErrArgument) || !errors.Is(err, tf.ErrDType) {
		t.Errorf("complex64 file as float32: got %v, want ErrArgument and tenferro.ErrDType", err)
	}
	missing := filepath.Join(dir, "missing.npy")
	if _, err := ReadTensorFile[float32](missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadTensorFile of a missing file: got %v", err)
	}
	if _, err := ReadValueFile(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadValueFile of a missing file: got %v", err)
	}
}

// TestTensorNumPy has NumPy write C- and Fortran-order files of every dtype
// that ReadTensorFile and ReadValueFile load, and load the files that
// WriteTensorFile and WriteValueFile write from compact and strided
// tensors. Element a[i, j, ...] at C offset c is value(dt, c) throughout.
func TestTensorNumPy(t *testing.T) {
	needNumPy(t)
	dir := t.TempDir()
	var specs []string
	for _, dt := range allDTypes {
		for si, shape := range interopShapes {
			for _, order := range []string{"C", "F"} {
				specs = append(specs, fmt.Sprintf("%s_%d_%s.npy;%s;%s;%s", dt.Descr()[1:], si, order, dt.Descr(), pyShape(shape), order))
			}
		}
	}
	runPython(t, `
import sys, numpy as np
`+pyValues+`
d = sys.argv[1]
for spec in sys.argv[2:]:
    name, dt, shape, order = spec.split(';')
    shape = eval(shape)
    a = values(dt, int(np.prod(shape, dtype=np.int64))).reshape(shape, order='C')
    np.save(d + '/' + name, np.asfortranarray(a) if order == 'F' and a.ndim >= 2 else a)
`, append([]string{dir}, specs...)...)
	var written []string
	for _, dt := range allDTypes {
		for si, shape := range interopShapes {
			for _, order := range []string{"C", "F"} {
				path := filepath.Join(dir, fmt.Sprintf("%s_%d_%s.npy", dt.Descr()[1:], si, order))
				var names []string
				switch dt {
				case Float32:
					names = numpyCheck[float32](t, path, shape)
				case Float64:
					names = numpyCheck[float64](t, path, shape)
				case Complex64:
					names = numpyCheck[complex64](t, path, shape)
				case Complex128:
					names = numpyCheck[complex128](t, path, shape)
				case Int64:
					names = numpyCheck[int64](t, path, shape)
				case Bool:
					names = numpyCheck[bool](t, path, shape)
				}
				for _, n := range names {
					written = append(written, fmt.Sprintf("%s;%s;%s", n, dt.Descr(), pyShape(shape)))
				}
			}
		}
	}
	out := strings.TrimSpace(runPython(t, `
import sys, numpy as np
`+pyValues+`
bad = []
for spec in sys.argv[1:]:
    name, dt, shape = spec.split(';')
    shape = eval(shape)
    a = np.load(name)
    want = values(dt, int(np.prod(shape, dtype=np.int64))).reshape(shape)
    if a.dtype != np.dtype(dt) or a.shape != shape or not np.array_equal(a, want):
        bad.append('%s: dtype %s shape %s' % (name, a.dtype, a.shape))
    elif a.ndim >= 2 and a.size > 1 and not a.flags.f_contiguous:
        bad.append(name + ': not Fortran-contiguous')
print('\n'.join(bad) if bad else 'ok %d' % (len(sys.argv) - 1))
`, written...))
	if want := fmt.Sprintf("ok %d", len(written)); out != want {
		t.Fatalf("NumPy disagrees (want %q):\n%s", want, out)
	}
}

// numpyCheck loads the NumPy file at path with ReadTensorFile and
// ReadValueFile and compares every element with value; then it writes the
// same logical contents from a compact tensor, a permuted view of C-order
// memory and a view with axis 0 reversed, and returns the files' names.
func numpyCheck[T tf.Elem](t *testing.T, path string, shape []int) []string {
	t.Helper()
	dt := dtypeFor[T]()
	n, _ := elementCount(shape)
	vals := make([]complex128, n)
	for c := range vals {
		vals[c] = value(dt, c)
	}
	rowMajor := fromComplex(dt, vals).([]T)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkOrder(t, path, f, shape, false, rowMajor)
	if _, err := ReadTensorFile[T](path); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v, err := ReadValueFile(path)
	if err != nil || v.DType() != tf.DTypeOf[T]() || !slices.Equal(v.Shape(), shape) {
		t.Fatalf("%s: ReadValueFile: %v, %v %v", path, err, v.DType(), v.Shape())
	}
	// The same contents three ways.
	compact, err := tf.FromRowMajor(rowMajor, shape...)
	if err != nil {
		t.Fatal(err)
	}
	rev := slices.Clone(shape)
	slices.Reverse(rev)
	perm := make([]int, len(shape))
	for d := range perm {
		perm[d] = len(shape) - 1 - d
	}
	cmem, _ := tf.FromSlice(rowMajor, rev...)
	permuted, err := cmem.Permute(perm...)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*tf.Tensor[T]{"compact": compact, "permuted": permuted}
	if len(shape) > 0 && n > 0 {
		inner := n / shape[0]
		w := make([]T, n)
		for k := range shape[0] {
			copy(w[k*inner:(k+1)*inner], rowMajor[(shape[0]-1-k)*inner:])
		}
		wt, _ := tf.FromRowMajor(w, shape...)
		if out["reversed"], err = wt.Reverse(0); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for name, x := range out {
		file := strings.TrimSuffix(path, ".npy") + "_go_" + name + ".npy"
		if name == "compact" {
			err = WriteValueFile(file, tf.ValueOf(x))
		} else {
			err = WriteTensorFile(file, x)
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		names = append(names, file)
	}
	return names
}
