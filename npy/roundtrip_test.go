package npy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

var testShapes = [][]int{
	{}, {0}, {1}, {7}, {1, 1}, {3, 5}, {0, 4}, {4, 0}, {1, 13}, {13, 1},
	{2, 3, 5}, {2, 0, 3}, {1, 1, 1}, {3, 1, 4, 2}, {2, 3, 1, 2, 3},
}

var allDTypes = []DType{Float32, Float64, Complex64, Complex128, Int64, Bool}

// randomData returns n random elements of dt, including awkward values.
func randomData(rng *rand.Rand, dt DType, n int) any {
	f := func() float64 {
		switch rng.IntN(16) {
		case 0:
			return 0
		case 1:
			return -0.0
		case 2:
			return 1e-310 // subnormal in float64
		default:
			return rng.NormFloat64() * 1e3
		}
	}
	switch dt {
	case Float32:
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(f())
		}
		return s
	case Float64:
		s := make([]float64, n)
		for i := range s {
			s[i] = f()
		}
		return s
	case Complex64:
		s := make([]complex64, n)
		for i := range s {
			s[i] = complex(float32(f()), float32(f()))
		}
		return s
	case Complex128:
		s := make([]complex128, n)
		for i := range s {
			s[i] = complex(f(), f())
		}
		return s
	case Int64:
		s := make([]int64, n)
		for i := range s {
			switch rng.IntN(8) {
			case 0:
				s[i] = -1 << 63
			case 1:
				s[i] = 1<<63 - 1
			default:
				s[i] = int64(rng.Uint64())
			}
		}
		return s
	case Bool:
		s := make([]bool, n)
		for i := range s {
			s[i] = rng.IntN(2) == 1
		}
		return s
	}
	panic("bad dtype")
}

// refColMajor converts row-major data to column-major by the definition:
// for each column-major offset, decompose it into a multi-index and fetch
// the row-major offset of that index.
func refColMajor(src any, shape []int) any {
	v := reflect.ValueOf(src)
	out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	idx := make([]int, len(shape))
	for j := 0; j < v.Len(); j++ {
		r := j
		for k, d := range shape {
			idx[k] = r % d
			r /= d
		}
		c := 0
		for k, d := range shape {
			c = c*d + idx[k]
		}
		out.Index(j).Set(v.Index(c))
	}
	return out.Interface()
}

// sameBits compares two data slices element by element, bit for bit (so
// -0 and 0 differ, and NaN payloads count).
func sameBits(a, b any) bool {
	var x, y bytes.Buffer
	if err := Write(&x, []int{lenOf(a)}, a); err != nil {
		return false
	}
	if err := Write(&y, []int{lenOf(b)}, b); err != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

type plainReader struct{ r io.Reader } // hides io.Seeker

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// bothPaths runs f with the host's direct byte path (on little-endian
// machines) and with the portable element-by-element conversion.
func bothPaths(t *testing.T, f func(t *testing.T)) {
	native := littleEndianHost
	defer func() { littleEndianHost = native }()
	for _, le := range []bool{native, false} {
		littleEndianHost = le
		t.Run(fmt.Sprintf("direct=%v", le), f)
		if !native {
			break
		}
	}
}

func TestRoundTrip(t *testing.T) { bothPaths(t, testRoundTrip) }

func testRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range allDTypes {
		for _, shape := range testShapes {
			for _, fortran := range []bool{true, false} {
				n, _ := elementCount(shape)
				data := randomData(rng, dt, n)
				name := fmt.Sprintf("%s/%v/F=%v", dt, shape, fortran)
				var buf bytes.Buffer
				if fortran {
					if err := Write(&buf, shape, data); err != nil {
						t.Fatalf("%s: Write: %v", name, err)
					}
				} else {
					if err := WriteArray(&buf, &Array{DType: dt, Shape: shape, Data: data}); err != nil {
						t.Fatalf("%s: WriteArray: %v", name, err)
					}
				}
				checkLayout(t, name, buf.Bytes(), dt, n)
				readers := map[string]func() io.Reader{
					"seeker":  func() io.Reader { return bytes.NewReader(buf.Bytes()) },
					"stream":  func() io.Reader { return plainReader{bytes.NewReader(buf.Bytes())} },
					"onebyte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(buf.Bytes())) },
				}
				for rname, mk := range readers {
					a, err := Read(mk())
					if err != nil {
						t.Fatalf("%s/%s: Read: %v", name, rname, err)
					}
					if a.DType != dt || !reflect.DeepEqual(a.Shape, shape) && !(len(a.Shape) == 0 && len(shape) == 0) {
						t.Fatalf("%s/%s: got %s %v", name, rname, a.DType, a.Shape)
					}
					if a.Fortran != (fortran && len(shape) >= 2) {
						t.Fatalf("%s/%s: Fortran = %v", name, rname, a.Fortran)
					}
					if a.Len() != n || lenOf(a.Data) != n {
						t.Fatalf("%s/%s: Len %d, data %d, want %d", name, rname, a.Len(), lenOf(a.Data), n)
					}
					if !sameBits(a.Data, data) {
						t.Fatalf("%s/%s: data differs", name, rname)
					}
					want := data
					if !fortran {
						want = refColMajor(data, shape)
					}
					if !sameBits(a.ColumnMajor(), want) {
						t.Fatalf("%s/%s: ColumnMajor differs", name, rname)
					}
				}
			}
		}
	}
}

// checkLayout verifies the header framing Write promises: version 1.0, data
// at a multiple of 64 bytes, header ended by a newline, exact data length.
func checkLayout(t *testing.T, name string, b []byte, dt DType, n int) {
	t.Helper()
	if len(b) < 10 || b[6] != 1 || b[7] != 0 {
		t.Fatalf("%s: not a version 1.0 file", name)
	}
	start := 10 + int(b[8]) + int(b[9])<<8
	if start%64 != 0 {
		t.Fatalf("%s: data starts at %d, not a multiple of 64", name, start)
	}
	if b[start-1] != '\n' {
		t.Fatalf("%s: header not newline-terminated", name)
	}
	if len(b)-start != n*dt.Size() {
		t.Fatalf("%s: %d data bytes, want %d", name, len(b)-start, n*dt.Size())
	}
}

func TestColumnMajorMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][]int{{2, 3}, {5, 7}, {3, 1, 4}, {1, 2, 1, 3}, {2, 3, 5, 7}, {0, 3, 2}, {3, 0}, {17, 2, 3, 1, 2},
		{37, 41}, {1, 97}, {97, 1}, {33, 3, 35}, {2, 65, 3}, {70, 1, 33}, {31, 2, 2, 2, 67}}
	for _, shape := range shapes {
		n, _ := elementCount(shape)
		src := randomData(rng, Float64, n).([]float64)
		got := rowToColMajor(src, shape)
		if !reflect.DeepEqual(got, refColMajor(src, shape)) {
			t.Fatalf("shape %v: rowToColMajor differs from reference", shape)
		}
	}
	// Already column-major data is returned as is (shared).
	d := []float64{1, 2, 3, 4}
	a := &Array{DType: Float64, Shape: []int{2, 2}, Fortran: true, Data: d}
	if got := a.ColumnMajor().([]float64); &got[0] != &d[0] {
		t.Fatal("ColumnMajor copied Fortran-order data")
	}
}

// TestStreamLarge reads data spanning several chunks from a stream of
// unknown length, and from a seekable reader.
func TestStreamLarge(t *testing.T) { bothPaths(t, testStreamLarge) }

func testStreamLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []DType{Complex128, Int64, Bool} {
		n := 3*chunkBytes/dt.Size() + 5
		if testing.Short() {
			n = chunkBytes/dt.Size() + 3
		}
		data := randomData(rng, dt, n)
		var buf bytes.Buffer
		if err := Write(&buf, []int{n}, data); err != nil {
			t.Fatal(err)
		}
		for _, r := range []io.Reader{bytes.NewReader(buf.Bytes()), plainReader{bytes.NewReader(buf.Bytes())}} {
			a, err := Read(r)
			if err != nil {
				t.Fatal(err)
			}
			if !sameBits(a.Data, data) {
				t.Fatalf("%s: data differs", dt)
			}
		}
		// Truncated by one byte in the last chunk.
		short := buf.Bytes()[:buf.Len()-1]
		for _, r := range []io.Reader{bytes.NewReader(short), plainReader{bytes.NewReader(short)}} {
			if _, err := Read(r); !errors.Is(err, ErrTruncated) {
				t.Fatalf("%s: got %v, want ErrTruncated", dt, err)
			}
		}
		if dt != Bool {
			continue
		}
		// A byte that is no bool in the last chunk.
		bad := bytes.Clone(buf.Bytes())
		bad[len(bad)-2] = 7
		for _, r := range []io.Reader{bytes.NewReader(bad), plainReader{bytes.NewReader(bad)}} {
			if _, err := Read(r); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), fmt.Sprintf("bool element %d is the byte 0x07", n-2)) {
				t.Fatalf("got %v, want ErrFormat for element %d", err, n-2)
			}
		}
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.npy")
	data := []complex64{1 + 2i, 3, -4i, 5, 6, 7}
	if err := WriteFile(path, []int{2, 3}, data); err != nil {
		t.Fatal(err)
	}
	a, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.ColumnMajor(), data) || !reflect.DeepEqual(a.Shape, []int{2, 3}) {
		t.Fatalf("got %v %v", a.Shape, a.Data)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.npy")); err == nil {
		t.Fatal("missing file: no error")
	}
	bad := filepath.Join(dir, "bad.npy")
	if err := WriteFile(bad, []int{3}, data); !errors.Is(err, ErrArgument) {
		t.Fatalf("got %v, want ErrArgument", err)
	}
	if _, err := ReadFile(bad); err == nil {
		t.Fatal("WriteFile with bad arguments left a file")
	}
}

func mathBits(f float64) uint64 { return math.Float64bits(f) }

// TestPipe reads through an *os.File that cannot seek, and a truncated
// regular file through ReadFile.
func TestPipe(t *testing.T) {
	var buf bytes.Buffer
	data := []float64{1, 2, 3, 4, 5, 6}
	if err := Write(&buf, []int{3, 2}, data); err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 1} {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			pw.Write(buf.Bytes()[:buf.Len()-cut])
			pw.Close()
		}()
		a, err := Read(pr)
		pr.Close()
		if cut == 0 && (err != nil || !reflect.DeepEqual(a.Data, data)) {
			t.Fatalf("pipe: %v", err)
		}
		if cut == 1 && !errors.Is(err, ErrTruncated) {
			t.Fatalf("truncated pipe: got %v", err)
		}
	}
	path := filepath.Join(t.TempDir(), "short.npy")
	if err := os.WriteFile(path, buf.Bytes()[:buf.Len()-8], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "only 40 remain") {
		t.Fatalf("truncated file: got %v", err)
	}
}
