package npy

import (
	"errors"
	"fmt"
	"io"

	"github.com/tenferro-go/tenferro"
)

// dtypeFor returns the DType whose Go type is T.
func dtypeFor[T tenferro.Elem]() DType {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	case complex128:
		return Complex128
	case int64:
		return Int64
	}
	return Bool // tenferro.Elem has no other type
}

// ReadTensor reads one .npy array from r as a tensor t of the same logical
// shape: t.At(i, j, ...) equals NumPy's a[i, j, ...] whether the file is in
// C or Fortran order.
//
// The file's dtype must be T's exactly ('<f4' for float32, '<f8' float64,
// '<c8' complex64, '<c16' complex128, '<i8' int64, '|b1' bool); nothing is
// converted. A mismatch is an ErrArgument whose message names both dtypes
// and which also matches [tenferro.ErrDType]; use [ReadValue] and
// [tenferro.Convert] to read any dtype and convert explicitly.
//
// The header is validated as by [Read], with the dtype and the rank (at
// most [tenferro.MaxRank], else ErrUnsupported) checked right after the
// dtype is parsed, before the data size. The data is bounded as in Read:
// nothing is allocated for data over the [MaxBytes] limit (default 1 GiB;
// the tensor is not counted against [tenferro.DefaultMemoryBudget]), and a
// stream that ends early costs at most what arrived plus one chunk.
//
// t is compact and column-major and owns fresh memory (from no pool).
// Fortran-order data and data of rank 0 or 1 is read straight into t's
// storage; C-order data of rank 2 or more is read and then transposed into
// a second buffer of the same size, so the peak is twice the data size for
// such files.
func ReadTensor[T tenferro.Elem](r io.Reader, opts ...ReadOption) (*tenferro.Tensor[T], error) {
	h, err := readHeader(r, opts, tensorCheck(dtypeFor[T]()))
	if err != nil {
		return nil, err
	}
	return readTensor[T](r, h)
}

// tensorCheck returns the header check of ReadTensor[T] (want is T's
// dtype) and of ReadValue (want is 0: any dtype).
func tensorCheck(want DType) func(header) error {
	return func(h header) error {
		if want != 0 && h.dtype != want {
			return &Error{Op: "read", Kind: ErrArgument, Msg: fmt.Sprintf("ReadTensor[%s]: the file holds %s ('%s'), expected '%s'", want, h.dtype, h.dtype.Descr(), want.Descr()), Err: tenferro.ErrDType}
		}
		if len(h.shape) > tenferro.MaxRank {
			return readErr(ErrUnsupported, fmt.Sprintf("shape %v has rank %d; a tensor has at most %d axes", h.shape, len(h.shape), tenferro.MaxRank))
		}
		return nil
	}
}

// readTensor reads the data that h announces as a compact tensor.
func readTensor[T tenferro.Elem](r io.Reader, h dataHeader) (*tenferro.Tensor[T], error) {
	data, err := readData[T](r, h)
	if err != nil {
		return nil, err
	}
	if !h.fortran && len(h.shape) >= 2 {
		data = rowToColMajor(data, h.shape)
	}
	t, err := tenferro.FromSlice(data, h.shape...)
	if err != nil {
		// Only possible for extents tenferro refuses next to a zero one.
		return nil, &Error{Op: "read", Kind: ErrUnsupported, Msg: fmt.Sprintf("shape %v is no tensor shape", h.shape), Err: err}
	}
	return t, nil
}

// ReadTensorFile reads one array from the .npy file at path as a tensor;
// see [ReadTensor].
func ReadTensorFile[T tenferro.Elem](path string, opts ...ReadOption) (*tenferro.Tensor[T], error) {
	return readFile(path, func(r io.Reader) (*tenferro.Tensor[T], error) { return ReadTensor[T](r, opts...) })
}

// ReadValue reads one .npy array of any supported dtype from r as a
// [tenferro.Value] of the matching dtype (float32, float64, complex64,
// complex128, int64 or bool); see [ReadTensor] for the layout, validation
// and memory rules, which are the same.
func ReadValue(r io.Reader, opts ...ReadOption) (tenferro.Value, error) {
	h, err := readHeader(r, opts, tensorCheck(0))
	if err != nil {
		return tenferro.Value{}, err
	}
	switch h.dtype {
	case Float32:
		return valueOf(readTensor[float32](r, h))
	case Float64:
		return valueOf(readTensor[float64](r, h))
	case Complex64:
		return valueOf(readTensor[complex64](r, h))
	case Complex128:
		return valueOf(readTensor[complex128](r, h))
	case Int64:
		return valueOf(readTensor[int64](r, h))
	}
	return valueOf(readTensor[bool](r, h)) // readHeader admits no other dtype
}

func valueOf[T tenferro.Elem](t *tenferro.Tensor[T], err error) (tenferro.Value, error) {
	if err != nil {
		return tenferro.Value{}, err
	}
	return tenferro.ValueOf(t), nil
}

// ReadValueFile reads one array from the .npy file at path as a Value; see
// [ReadValue].
func ReadValueFile(path string, opts ...ReadOption) (tenferro.Value, error) {
	return readFile(path, func(r io.Reader) (tenferro.Value, error) { return ReadValue(r, opts...) })
}

// WriteTensor writes t as a Fortran-order .npy array of t's dtype and
// shape, so that NumPy's np.load returns an array a with a[i, j, ...] equal
// to t.At(i, j, ...) (its flags say F_CONTIGUOUS).
//
// A compact column-major t is written straight from its storage. Any other
// view (transposed, permuted, sliced with steps, reversed, diagonal,
// broadcast) is gathered element by element through its shape, strides
// and offset into a staging buffer of at most 1 MiB, so t is never copied
// whole. The header framing is that of [Write]. WriteTensor only reads t.
//
// A nil tensor, the zero Tensor and a released tensor are ErrArgument
// errors; the last one also matches [tenferro.ErrReleased].
func WriteTensor[T tenferro.Elem](w io.Writer, t *tenferro.Tensor[T]) error {
	write, err := tensorWriter(t)
	if err != nil {
		return err
	}
	return write(w)
}

// WriteTensorFile writes t as a .npy file at path; see [WriteTensor]. An
// existing file is truncated; an invalid t leaves no file.
func WriteTensorFile[T tenferro.Elem](path string, t *tenferro.Tensor[T]) error {
	write, err := tensorWriter(t)
	if err != nil {
		return err
	}
	return writeFile(path, write)
}

// WriteValue writes the tensor inside v as a .npy array; see [WriteTensor].
// The zero Value is an ErrArgument error.
func WriteValue(w io.Writer, v tenferro.Value) error {
	write, err := valueWriter(v)
	if err != nil {
		return err
	}
	return write(w)
}

// WriteValueFile writes the tensor inside v as a .npy file at path; see
// [WriteTensor]. An existing file is truncated; an invalid v leaves no
// file.
func WriteValueFile(path string, v tenferro.Value) error {
	write, err := valueWriter(v)
	if err != nil {
		return err
	}
	return writeFile(path, write)
}

// valueWriter validates the tensor inside v and returns its writer.
func valueWriter(v tenferro.Value) (func(io.Writer) error, error) {
	switch t := v.Tensor().(type) {
	case *tenferro.Tensor[float32]:
		return tensorWriter(t)
	case *tenferro.Tensor[float64]:
		return tensorWriter(t)
	case *tenferro.Tensor[complex64]:
		return tensorWriter(t)
	case *tenferro.Tensor[complex128]:
		return tensorWriter(t)
	case *tenferro.Tensor[int64]:
		return tensorWriter(t)
	case *tenferro.Tensor[bool]:
		return tensorWriter(t)
	}
	return nil, writeErr(ErrArgument, "the value is empty (the zero Value), expected one holding a tensor")
}

// tensorWriter validates t and returns the function that writes it.
func tensorWriter[T tenferro.Elem](t *tenferro.Tensor[T]) (func(io.Writer) error, error) {
	switch {
	case t == nil:
		return nil, writeErr(ErrArgument, fmt.Sprintf("the %s tensor is nil", tenferro.DTypeOf[T]()))
	case !t.Valid():
		// Clone checks t before allocating anything: it names the fault.
		_, err := t.Clone()
		if errors.Is(err, tenferro.ErrReleased) {
			return nil, &Error{Op: "write", Kind: ErrArgument, Msg: fmt.Sprintf("the %s tensor was released, expected a live one", tenferro.DTypeOf[T]()), Err: tenferro.ErrReleased}
		}
		return nil, &Error{Op: "write", Kind: ErrArgument, Msg: fmt.Sprintf("the %s tensor is not usable", tenferro.DTypeOf[T]()), Err: err}
	}
	return func(w io.Writer) error {
		buf := headerBytes(dtypeFor[T](), true, t.Shape(), t.Len())
		switch n := t.Len(); {
		case n == 0:
			return encodeTo(w, buf, []T(nil))
		case t.IsCompact():
			return encodeTo(w, buf, t.Storage()[t.Offset():t.Offset()+n])
		}
		return gatherTo(w, buf, t)
	}, nil
}

// gatherTo writes buf (the header) and then the elements of the non-empty
// strided view t in column-major order: element (i0, i1, ...) is read at
// Storage()[Offset() + i0*s0 + i1*s1 + ...], staged chunk by chunk.
func gatherTo[T tenferro.Elem](w io.Writer, buf []byte, t *tenferro.Tensor[T]) error {
	st, shape, strides := t.Storage(), t.Shape(), t.Strides()
	if len(shape) == 0 { // one element at the offset
		shape, strides = []int{1}, []int{0}
	}
	n := t.Len()
	stage := make([]T, min(n, chunkBytes/dtypeFor[T]().Size()))
	idx := make([]int, len(shape))
	pos := t.Offset()
	n0, s0 := shape[0], strides[0]
	m := 0
	for done := 0; done < n; {
		// One run along axis 0, from idx[0] to its end or the stage's end.
		k := min(n0-idx[0], len(stage)-m)
		for j := range k {
			stage[m+j] = st[pos+j*s0]
		}
		m, done, pos, idx[0] = m+k, done+k, pos+k*s0, idx[0]+k
		if m == len(stage) || done == n {
			if err := encodeTo(w, buf, stage[:m]); err != nil {
				return err
			}
			buf, m = buf[:0], 0
		}
		if idx[0] < n0 {
			continue
		}
		// Axis 0 is done: carry into the slower axes.
		pos -= n0 * s0
		idx[0] = 0
		for d := 1; d < len(shape); d++ {
			idx[d]++
			pos += strides[d]
			if idx[d] < shape[d] {
				break
			}
			pos -= shape[d] * strides[d]
			idx[d] = 0
		}
	}
	return nil
}
