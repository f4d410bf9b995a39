package npy

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"
)

// headerAlign is the alignment of the data start that Write guarantees.
const headerAlign = 64

// Write writes data, given in column-major order (first index fastest), as a
// .npy array of the given shape to w.
//
// data must be a []float32, []float64, []complex64, []complex128, []int64
// or []bool of length product(shape); an empty shape writes a 0-d array of
// one element. The file is written in Fortran order ('fortran_order': True
// for rank 2 and more; rank 0 and 1 are written as C order, as NumPy does,
// since both orders coincide), so no transpose is needed and NumPy loads an
// array equal to the column-major data. The format is version 1.0 with the header padded with
// spaces and ended by a newline so that the data starts at a multiple of 64
// bytes; a header that would not fit in version 1.0 (rank in the thousands)
// is written as version 2.0. Write does not retain data.
func Write(w io.Writer, shape []int, dataColMajor any) error {
	return writeArray(w, shape, true, dataColMajor)
}

// WriteArray writes a in the order it is stored in (a.Fortran: column-major
// data in Fortran order, otherwise row-major data in C order), with the
// header padding described at [Write]. a.DType must match the type of
// a.Data, or be zero to take it from a.Data.
func WriteArray(w io.Writer, a *Array) error {
	if a == nil {
		return writeErr(ErrArgument, "array is nil")
	}
	if dt, _, ok := dtypeOf(a.Data); ok && a.DType != 0 && dt != a.DType {
		return writeErr(ErrArgument, fmt.Sprintf("DType %s does not match data of type %T", a.DType, a.Data))
	}
	return writeArray(w, a.Shape, a.Fortran, a.Data)
}

// WriteFile writes data, in column-major order, as a .npy file at path; see
// [Write]. An existing file is truncated.
func WriteFile(path string, shape []int, dataColMajor any) error {
	// Validate before creating the file, so bad arguments leave no file.
	if _, err := validate(shape, dataColMajor); err != nil {
		return err
	}
	return writeFile(path, func(w io.Writer) error { return Write(w, shape, dataColMajor) })
}

// writeFile creates (or truncates) path, writes it with write and closes
// it, reporting a failed close.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return &Error{Op: "write", Msg: "create", Err: err}
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return &Error{Op: "write", Msg: "close", Err: err}
	}
	return nil
}

// validate checks shape and data and returns the dtype.
func validate(shape []int, data any) (DType, error) {
	dt, n, ok := dtypeOf(data)
	if !ok {
		return 0, writeErr(ErrArgument, fmt.Sprintf("data of type %T, expected []float32, []float64, []complex64, []complex128, []int64 or []bool", data))
	}
	for i, d := range shape {
		if d < 0 {
			return 0, writeErr(ErrArgument, fmt.Sprintf("shape[%d] = %d, expected a non-negative extent", i, d))
		}
	}
	count, ok := elementCount(shape)
	if !ok {
		return 0, writeErr(ErrArgument, fmt.Sprintf("shape %v: element count overflows", shape))
	}
	if count != n {
		return 0, writeErr(ErrArgument, fmt.Sprintf("shape %v needs %d elements, data has %d", shape, count, n))
	}
	return dt, nil
}

func writeArray(w io.Writer, shape []int, fortran bool, data any) error {
	dt, err := validate(shape, data)
	if err != nil {
		return err
	}
	buf := headerBytes(dt, fortran, shape, lenOf(data))
	switch d := data.(type) {
	case []float32:
		return encodeTo(w, buf, d)
	case []float64:
		return encodeTo(w, buf, d)
	case []complex64:
		return encodeTo(w, buf, d)
	case []complex128:
		return encodeTo(w, buf, d)
	case []int64:
		return encodeTo(w, buf, d)
	case []bool:
		return encodeTo(w, buf, d)
	}
	return nil
}

// headerBytes returns the preamble and padded header of an array of n
// elements of dt with the given (validated) shape, in Fortran order when
// fortran is set and the rank is at least 2. On hosts that must convert
// the data its capacity leaves room to stage it (up to 1 MiB in all).
func headerBytes(dt DType, fortran bool, shape []int, n int) []byte {
	if len(shape) < 2 {
		fortran = false
	}
	text := formatHeader(dt, fortran, shape)
	// Preamble: magic, version, header length (2 bytes in 1.0, 4 in 2.0).
	pre := 10
	major := byte(1)
	if (pre+len(text)+1+headerAlign-1)/headerAlign*headerAlign-pre > math.MaxUint16 {
		pre, major = 12, 2
	}
	total := (pre + len(text) + 1 + headerAlign - 1) / headerAlign * headerAlign
	hlen := total - pre
	capacity := total
	if !direct(dt.Size()) {
		capacity = max(total, min(chunkBytes, total+dt.Size()*n))
	}
	buf := make([]byte, total, capacity)
	copy(buf, magic[:])
	buf[6], buf[7] = major, 0
	if major == 1 {
		binary.LittleEndian.PutUint16(buf[8:], uint16(hlen))
	} else {
		binary.LittleEndian.PutUint32(buf[8:], uint32(hlen))
	}
	copy(buf[pre:], text)
	for i := pre + len(text); i < total-1; i++ {
		buf[i] = ' '
	}
	buf[total-1] = '\n'
	return buf
}

func lenOf(data any) int {
	_, n, _ := dtypeOf(data)
	return n
}

// encodeTo writes buf (the header, or nothing) followed by src in
// little-endian form, staging at most cap(buf) bytes at a time in buf when
// src must be converted. cap(buf) is at least 64 (a header is), so every
// round after the first makes progress.
func encodeTo[T element](w io.Writer, buf []byte, src []T) error {
	var z T
	size := int(unsafe.Sizeof(z))
	if direct(size) {
		// The memory of src is its encoding: write the header, then src.
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return &Error{Op: "write", Msg: "write", Err: err}
			}
		}
		if len(src) > 0 {
			if _, err := w.Write(asBytes(src)); err != nil {
				return &Error{Op: "write", Msg: "write", Err: err}
			}
		}
		return nil
	}
	for {
		room := (cap(buf) - len(buf)) / size
		m := min(room, len(src))
		buf = encode(buf, src[:m])
		src = src[m:]
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return &Error{Op: "write", Msg: "write", Err: err}
			}
		}
		if len(src) == 0 {
			return nil
		}
		buf = buf[:0]
	}
}

// encode appends the little-endian bytes of src, whose elements are wider
// than one byte, to dst, which has room.
func encode[T element](dst []byte, src []T) []byte {
	le := binary.LittleEndian
	switch s := any(src).(type) {
	case []float32:
		for _, v := range s {
			dst = le.AppendUint32(dst, math.Float32bits(v))
		}
	case []float64:
		for _, v := range s {
			dst = le.AppendUint64(dst, math.Float64bits(v))
		}
	case []complex64:
		for _, v := range s {
			dst = le.AppendUint32(dst, math.Float32bits(real(v)))
			dst = le.AppendUint32(dst, math.Float32bits(imag(v)))
		}
	case []complex128:
		for _, v := range s {
			dst = le.AppendUint64(dst, math.Float64bits(real(v)))
			dst = le.AppendUint64(dst, math.Float64bits(imag(v)))
		}
	case []int64:
		for _, v := range s {
			dst = le.AppendUint64(dst, uint64(v))
		}
	}
	// bool needs no case: one-byte elements always take the direct path.
	return dst
}
