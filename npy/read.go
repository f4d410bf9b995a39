package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/hugepage"
)

// Array is an array read from or written to a .npy file.
//
// Data is a []float32, []float64, []complex64, []complex128, []int64 or
// []bool (matching DType) of length product(Shape), in the file's order: column-major (first
// index fastest) when Fortran is true, row-major (last index fastest, NumPy's
// C order) otherwise. For rank 0 and 1 the two orders coincide. Use
// [Array.ColumnMajor] to get column-major data regardless of the file's order.
type Array struct {
	DType
	Shape   []int
	Fortran bool
	Data    any
}

// Len returns the number of elements, product(Shape) (1 for a 0-d array).
func (a *Array) Len() int {
	n, _ := elementCount(a.Shape)
	return n
}

// Default limits of [Read].
const (
	// DefaultMaxBytes is the default cap on the data size: 1 GiB.
	DefaultMaxBytes int64 = 1 << 30
	// DefaultMaxHeaderBytes is the default cap on the header length field:
	// 64 KiB. NumPy writes headers of a few hundred bytes at most for the
	// dtypes supported here (np.load itself refuses headers over 10000
	// bytes unless told otherwise), so the cap only rejects hostile input.
	DefaultMaxHeaderBytes = 64 << 10
)

// ReadOption configures [Read] and [ReadFile].
type ReadOption func(*readConfig)

type readConfig struct {
	maxBytes  int64
	maxHeader int
}

// MaxBytes sets the largest data size, in bytes, that Read accepts (default
// [DefaultMaxBytes]). Larger arrays fail with ErrTooLarge before anything is
// allocated. n <= 0 allows only empty arrays.
func MaxBytes(n int64) ReadOption { return func(c *readConfig) { c.maxBytes = n } }

// MaxHeaderBytes sets the largest header length, in bytes, that Read
// accepts (default [DefaultMaxHeaderBytes]). Longer headers fail with
// ErrTooLarge before the header is read.
func MaxHeaderBytes(n int) ReadOption { return func(c *readConfig) { c.maxHeader = n } }

var magic = [6]byte{0x93, 'N', 'U', 'M', 'P', 'Y'}

// chunkBytes is the size of the staging buffer used to decode data, and the
// granularity by which data of a stream of unknown length is collected.
const chunkBytes = 1 << 20

// Read reads one array in .npy format (versions 1.0, 2.0 and 3.0) from r.
//
// # Validation
//
// Read checks, in this order and before allocating anything sized by the
// input: the magic string (ErrFormat) and version (ErrUnsupported), the
// header length against the header cap (ErrTooLarge), the header dict (keys
// 'descr', 'fortran_order' and 'shape' in any order, Python literal syntax
// with optional trailing commas; ErrFormat), the dtype (ErrUnsupported
// naming it), the element count (negative extents are ErrFormat, an
// overflowing product or a byte count over [MaxBytes] is ErrTooLarge) and
// the presence of the data (ErrTruncated).
//
// # Allocation
//
// When r is an [io.Seeker] (a regular *os.File, a *bytes.Reader) Read
// compares the data size with the bytes remaining before it allocates the
// result. For
// other readers it collects data in chunks of 1 MiB, so a header that lies
// about the size makes Read allocate at most what actually arrives plus one
// chunk before it reports ErrTruncated. Read consumes exactly the header and
// data bytes from r; trailing bytes are left unread.
func Read(r io.Reader, opts ...ReadOption) (*Array, error) {
	h, err := readHeader(r, opts, nil)
	if err != nil {
		return nil, err
	}
	a := &Array{DType: h.dtype, Shape: h.shape, Fortran: h.fortran}
	switch h.dtype {
	case Float32:
		a.Data, err = readData[float32](r, h)
	case Float64:
		a.Data, err = readData[float64](r, h)
	case Complex64:
		a.Data, err = readData[complex64](r, h)
	case Complex128:
		a.Data, err = readData[complex128](r, h)
	case Int64:
		a.Data, err = readData[int64](r, h)
	case Bool:
		a.Data, err = readData[bool](r, h)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// dataHeader is a validated header with the element count of its data,
// whose byte size is within the MaxBytes limit. known reports that the
// reader was checked to hold that many bytes.
type dataHeader struct {
	header
	count int
	known bool
}

// readHeader reads and validates everything before the data, in the order
// documented at [Read], and leaves r at the first data byte. A non-nil
// check runs on the parsed header right after the dtype check, before the
// element count and the size of the data are looked at.
func readHeader(r io.Reader, opts []ReadOption, check func(header) error) (dataHeader, error) {
	cfg := readConfig{maxBytes: DefaultMaxBytes, maxHeader: DefaultMaxHeaderBytes}
	for _, o := range opts {
		o(&cfg)
	}
	var pre [10]byte
	if n, err := io.ReadFull(r, pre[:8]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			if string(pre[:min(n, 6)]) == string(magic[:min(n, 6)]) {
				return dataHeader{}, &Error{Op: "read", Kind: ErrTruncated, Msg: fmt.Sprintf("preamble: got %d of 8 bytes", n), Err: err}
			}
			return dataHeader{}, readErr(ErrFormat, fmt.Sprintf("bad magic string %q, expected \"\\x93NUMPY\"", pre[:min(n, 6)]))
		}
		return dataHeader{}, &Error{Op: "read", Msg: "preamble", Err: err}
	}
	if [6]byte(pre[:6]) != magic {
		return dataHeader{}, readErr(ErrFormat, fmt.Sprintf("bad magic string %q, expected \"\\x93NUMPY\"", pre[:6]))
	}
	major, minor := pre[6], pre[7]
	var hlen uint64
	switch {
	case major == 1 && minor == 0:
		if n, err := io.ReadFull(r, pre[8:10]); err != nil {
			return dataHeader{}, &Error{Op: "read", Kind: ErrTruncated, Msg: fmt.Sprintf("header length: got %d of 2 bytes", n), Err: err}
		}
		hlen = uint64(binary.LittleEndian.Uint16(pre[8:10]))
	case (major == 2 || major == 3) && minor == 0:
		var b [4]byte
		if n, err := io.ReadFull(r, b[:]); err != nil {
			return dataHeader{}, &Error{Op: "read", Kind: ErrTruncated, Msg: fmt.Sprintf("header length: got %d of 4 bytes", n), Err: err}
		}
		hlen = uint64(binary.LittleEndian.Uint32(b[:]))
	default:
		return dataHeader{}, readErr(ErrUnsupported, fmt.Sprintf("format version %d.%d; supported: 1.0, 2.0, 3.0", major, minor))
	}
	if hlen > uint64(max(cfg.maxHeader, 0)) {
		return dataHeader{}, readErr(ErrTooLarge, fmt.Sprintf("header length %d exceeds the cap of %d bytes", hlen, cfg.maxHeader))
	}
	hbuf := make([]byte, hlen)
	if n, err := io.ReadFull(r, hbuf); err != nil {
		return dataHeader{}, &Error{Op: "read", Kind: ErrTruncated, Msg: fmt.Sprintf("header: got %d of %d bytes", n, hlen), Err: err}
	}
	h, err := parseHeader(string(hbuf))
	if err != nil {
		return dataHeader{}, err
	}
	if check != nil {
		if err := check(h); err != nil {
			return dataHeader{}, err
		}
	}
	count, ok := elementCount(h.shape)
	size := int64(h.dtype.Size())
	if !ok || int64(count) > math.MaxInt64/size {
		return dataHeader{}, readErr(ErrTooLarge, fmt.Sprintf("shape %v: element count overflows", h.shape))
	}
	nbytes := int64(count) * size
	if nbytes > cfg.maxBytes {
		return dataHeader{}, readErr(ErrTooLarge, fmt.Sprintf("shape %v of %s needs %d bytes, over the limit of %d", h.shape, h.dtype, nbytes, cfg.maxBytes))
	}
	known := false
	if s, isSeeker := r.(io.Seeker); isSeeker && nbytes > 0 && regular(r) {
		if rem, ok := remaining(s); ok {
			if rem < nbytes {
				return dataHeader{}, readErr(ErrTruncated, fmt.Sprintf("data: shape %v of %s needs %d bytes, only %d remain", h.shape, h.dtype, nbytes, rem))
			}
			known = true
		}
	}
	return dataHeader{header: h, count: count, known: known}, nil
}

// regular reports whether r's size can be trusted for the remaining-bytes
// check: true for any io.Seeker except an *os.File that is not a regular
// file (a pipe, a terminal or a device such as /dev/zero, whose Seek results
// say nothing about how much can be read).
func regular(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return true
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// remaining reports the number of bytes between the current position of s
// and its end, restoring the position. ok is false when s cannot seek (a
// pipe behind an *os.File).
func remaining(s io.Seeker) (int64, bool) {
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, false
	}
	end, err := s.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, false
	}
	if _, err := s.Seek(cur, io.SeekStart); err != nil {
		return 0, false
	}
	return end - cur, true
}

type element interface {
	float32 | float64 | complex64 | complex128 | int64 | bool
}

// direct reports whether elements of the given size are stored in memory
// exactly as in the file: on a little-endian host every element type is,
// and one-byte elements (bool) are on any host.
func direct(size int) bool { return littleEndianHost || size == 1 }

// readData reads the h.count little-endian elements of h's data. When
// h.known is set the caller has checked that the bytes are there and the
// result is allocated at once; otherwise data is gathered chunk by chunk.
// bool data is checked to hold only the bytes 0 and 1.
func readData[T element](r io.Reader, h dataHeader) ([]T, error) {
	var z T
	n, size := h.count, int(unsafe.Sizeof(z))
	perChunk := chunkBytes / size
	var dst []T
	if h.known || n <= perChunk {
		dst = hugepage.Make[T](n)
		if direct(size) {
			if err := fill(r, asBytes(dst), 0, n*size); err != nil {
				return nil, err
			}
		} else {
			buf := make([]byte, min(n, perChunk)*size)
			for done := 0; done < n; {
				m := min(n-done, perChunk)
				if err := fill(r, buf[:m*size], done*size, n*size); err != nil {
					return nil, err
				}
				decode(dst[done:done+m], buf[:m*size])
				done += m
			}
		}
	} else {
		var chunks [][]T
		var buf []byte
		if !direct(size) {
			buf = make([]byte, perChunk*size)
		}
		for done := 0; done < n; {
			m := min(n-done, perChunk)
			c := make([]T, m)
			if direct(size) {
				if err := fill(r, asBytes(c), done*size, n*size); err != nil {
					return nil, err
				}
			} else {
				if err := fill(r, buf[:m*size], done*size, n*size); err != nil {
					return nil, err
				}
				decode(c, buf[:m*size])
			}
			chunks = append(chunks, c)
			done += m
		}
		dst = hugepage.Make[T](n)[:0]
		for _, c := range chunks {
			dst = append(dst, c...)
		}
	}
	if b, ok := any(dst).([]bool); ok {
		if err := checkBools(b); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// checkBools reports an ErrFormat for the first element of b whose byte is
// neither 0 nor 1 (NumPy writes only those; other bytes are no Go bool). It
// inspects the bytes only, so b's elements are never read as bools before
// they are known to be valid.
func checkBools(b []bool) error {
	for i, c := range asBytes(b) {
		if c > 1 {
			return readErr(ErrFormat, fmt.Sprintf("data: bool element %d is the byte 0x%02x, expected 0 or 1", i, c))
		}
	}
	return nil
}

// fill reads len(b) bytes, reporting a short read as ErrTruncated with the
// total progress (done bytes before b, of total).
func fill(r io.Reader, b []byte, done, total int) error {
	k, err := io.ReadFull(r, b)
	if err == nil {
		return nil
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Op: "read", Kind: ErrTruncated, Msg: fmt.Sprintf("data: got %d of %d bytes", done+k, total), Err: err}
	}
	return &Error{Op: "read", Msg: "data", Err: err}
}

// littleEndianHost reports whether the machine stores numbers
// little-endian, as the file does; then data moves between files and slices
// without conversion. Tests clear it to exercise the portable path.
var littleEndianHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// asBytes views the memory of s as bytes. The element types are plain
// IEEE 754 values (complex as real then imaginary part), two's complement
// integers or one-byte bools, with no padding, so on a little-endian host
// this is exactly their .npy encoding.
func asBytes[T element](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// decode converts little-endian bytes to elements of more than one byte;
// len(src) must be len(dst) times the element size.
func decode[T element](dst []T, src []byte) {
	le := binary.LittleEndian
	switch d := any(dst).(type) {
	case []float32:
		for i := range d {
			d[i] = math.Float32frombits(le.Uint32(src[4*i:]))
		}
	case []float64:
		for i := range d {
			d[i] = math.Float64frombits(le.Uint64(src[8*i:]))
		}
	case []complex64:
		for i := range d {
			d[i] = complex(math.Float32frombits(le.Uint32(src[8*i:])), math.Float32frombits(le.Uint32(src[8*i+4:])))
		}
	case []complex128:
		for i := range d {
			d[i] = complex(math.Float64frombits(le.Uint64(src[16*i:])), math.Float64frombits(le.Uint64(src[16*i+8:])))
		}
	case []int64:
		for i := range d {
			d[i] = int64(le.Uint64(src[8*i:]))
		}
	}
	// bool needs no case: one-byte elements always take the direct path.
}

// ReadFile reads one array from the .npy file at path; see [Read].
func ReadFile(path string, opts ...ReadOption) (*Array, error) {
	return readFile(path, func(r io.Reader) (*Array, error) { return Read(r, opts...) })
}

// readFile opens path, reads it with read and closes it.
func readFile[R any](path string, read func(io.Reader) (R, error)) (R, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero R
		return zero, &Error{Op: "read", Msg: "open", Err: err}
	}
	defer f.Close()
	return read(f)
}
