package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// raw builds a .npy stream by hand: magic, version, header length field of
// the width the version uses, header text and data.
func raw(major, minor byte, header string, data []byte) []byte {
	b := append([]byte{}, magic[:]...)
	b = append(b, major, minor)
	if major == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	}
	b = append(b, header...)
	return append(b, data...)
}

func hdr(descr, fortran, shape string) string {
	return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n"
}

func TestReadErrors(t *testing.T) {
	f8x2 := make([]byte, 16)
	cases := []struct {
		name string
		in   []byte
		opts []ReadOption
		kind error
		msg  string // substring the message must contain
	}{
		{"empty", nil, nil, ErrTruncated, "preamble"},
		{"short magic", magic[:4], nil, ErrTruncated, "preamble"},
		{"bad magic", []byte("PK\x03\x04\x00\x00\x00\x00\x00\x00"), nil, ErrFormat, "magic"},
		{"short bad magic", []byte("GIF"), nil, ErrFormat, "magic"},
		{"version 4", raw(4, 0, hdr("'<f8'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "version 4.0"},
		{"version 1.1", raw(1, 1, hdr("'<f8'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "version 1.1"},
		{"version 0", raw(0, 0, "", nil), nil, ErrUnsupported, "version"},
		{"no header length", append(magic[:], 1, 0, 5), nil, ErrTruncated, "header length"},
		{"no v2 header length", append(magic[:], 2, 0, 5, 0), nil, ErrTruncated, "header length"},
		{"header over cap", raw(1, 0, hdr("'<f8'", "False", "(2,)"), f8x2), []ReadOption{MaxHeaderBytes(20)}, ErrTooLarge, "exceeds the cap"},
		{"huge v2 header length", append(magic[:], 2, 0, 0xff, 0xff, 0xff, 0xff), nil, ErrTooLarge, "header length 4294967295"},
		{"header truncated", raw(1, 0, hdr("'<f8'", "False", "(2,)"), nil)[:30], nil, ErrTruncated, "header: got"},
		{"not a dict", raw(1, 0, "['descr']\n", nil), nil, ErrFormat, "dict"},
		{"unterminated dict", raw(1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)", f8x2), nil, ErrFormat, "unterminated"},
		{"missing colon", raw(1, 0, "{'descr' '<f8', 'fortran_order': False, 'shape': (2,)}", f8x2), nil, ErrFormat, "':'"},
		{"missing comma", raw(1, 0, "{'descr': '<f8' 'fortran_order': False, 'shape': (2,)}", f8x2), nil, ErrFormat, "expected ','"},
		{"double comma", raw(1, 0, "{'descr': '<f8',, 'fortran_order': False, 'shape': (2,)}", f8x2), nil, ErrFormat, "unexpected character"},
		{"junk after dict", raw(1, 0, hdr("'<f8'", "False", "(2,)")+"x", f8x2), nil, ErrFormat, "after the header"},
		{"missing key", raw(1, 0, "{'descr': '<f8', 'shape': (2,)}", f8x2), nil, ErrFormat, "lacks key 'fortran_order'"},
		{"extra key", raw(1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}", f8x2), nil, ErrFormat, "unexpected key \"x\""},
		{"duplicate key", raw(1, 0, "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", f8x2), nil, ErrFormat, "duplicate"},
		{"non-string key", raw(1, 0, "{1: '<f8'}", nil), nil, ErrFormat, "key must be a string"},
		{"shape list", raw(1, 0, hdr("'<f8'", "False", "[2]"), f8x2), nil, ErrFormat, "'shape' must be a tuple, got list"},
		{"shape float", raw(1, 0, hdr("'<f8'", "False", "(2.0,)"), f8x2), nil, ErrFormat, "expected an integer"},
		{"shape str", raw(1, 0, hdr("'<f8'", "False", "('2',)"), f8x2), nil, ErrFormat, "'shape'[0] must be an int, got str"},
		{"shape bool", raw(1, 0, hdr("'<f8'", "False", "(True,)"), f8x2), nil, ErrFormat, "got bool"},
		{"shape negative", raw(1, 0, hdr("'<f8'", "False", "(2, -1)"), f8x2), nil, ErrFormat, "'shape'[1] = -1"},
		{"shape leading zero", raw(1, 0, hdr("'<f8'", "False", "(02,)"), f8x2), nil, ErrFormat, "leading zero"},
		{"fortran int", raw(1, 0, hdr("'<f8'", "1", "(2,)"), f8x2), nil, ErrFormat, "'fortran_order' must be True or False"},
		{"fortran name", raw(1, 0, hdr("'<f8'", "true", "(2,)"), f8x2), nil, ErrFormat, "unexpected name"},
		{"descr int", raw(1, 0, hdr("8", "False", "(2,)"), f8x2), nil, ErrFormat, "'descr' must be a str"},
		{"descr nonsense", raw(1, 0, hdr("'<zz'", "False", "(2,)"), f8x2), nil, ErrFormat, "not a dtype"},
		{"unterminated string", raw(1, 0, "{'descr: '<f8'}", nil), nil, ErrFormat, ""},
		{"deep nesting", raw(1, 0, "{'descr': "+strings.Repeat("(", 40)+strings.Repeat(")", 40)+"}", nil), nil, ErrFormat, "nested deeper"},
		{"big-endian", raw(1, 0, hdr("'>f8'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "\">f8\" is big-endian"},
		{"native order", raw(1, 0, hdr("'=f8'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "native byte order"},
		{"int32", raw(1, 0, hdr("'<i4'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "\"<i4\" (signed integer of this width)"},
		{"int64 big-endian", raw(1, 0, hdr("'>i8'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "\">i8\" is big-endian"},
		{"uint8", raw(1, 0, hdr("'|u1'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "unsigned integer"},
		{"bool of width 2", raw(1, 0, hdr("'|b2'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "boolean"},
		{"bool byte 2", raw(1, 0, hdr("'|b1'", "False", "(4,)"), []byte{0, 1, 2, 1}), nil, ErrFormat, "bool element 2 is the byte 0x02, expected 0 or 1"},
		{"bool byte 0xff", raw(1, 0, hdr("'|b1'", "True", "(1, 1)"), []byte{0xff}), nil, ErrFormat, "bool element 0 is the byte 0xff"},
		{"bool truncated", raw(1, 0, hdr("'|b1'", "False", "(5,)"), []byte{0, 1, 1}), nil, ErrTruncated, "only 3 remain"},
		{"int64 truncated", raw(1, 0, hdr("'<i8'", "False", "(3,)"), f8x2), nil, ErrTruncated, "only 16 remain"},
		{"int64 over MaxBytes", raw(1, 0, hdr("'<i8'", "False", "(2,)"), f8x2), []ReadOption{MaxBytes(15)}, ErrTooLarge, "shape [2] of int64 needs 16 bytes"},
		{"object", raw(1, 0, hdr("'|O'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "Python object"},
		{"unicode", raw(1, 0, hdr("'<U3'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "string"},
		{"half", raw(1, 0, hdr("'<f2'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "\"<f2\""},
		{"long double", raw(1, 0, hdr("'<f16'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "\"<f16\""},
		{"clongdouble", raw(1, 0, hdr("'<c32'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "complex"},
		{"datetime", raw(1, 0, hdr("'<M8[ns]'", "False", "(2,)"), f8x2), nil, ErrUnsupported, "datetime"},
		{"structured", raw(1, 0, hdr("[('a', '<f8')]", "False", "(2,)"), f8x2), nil, ErrUnsupported, "structured"},
		{"extent overflows int64", raw(1, 0, hdr("'<f8'", "False", "(99999999999999999999,)"), nil), nil, ErrTooLarge, "overflows int64"},
		{"product overflows", raw(1, 0, hdr("'<f8'", "False", "(4611686018427387904, 4)"), nil), nil, ErrTooLarge, "overflows"},
		{"bytes overflow", raw(1, 0, hdr("'<c16'", "False", "(1152921504606846976,)"), nil), nil, ErrTooLarge, "overflows"},
		{"over default max", raw(1, 0, hdr("'<f8'", "False", "(134217729,)"), nil), nil, ErrTooLarge, "over the limit of 1073741824"},
		{"over MaxBytes", raw(1, 0, hdr("'<f8'", "False", "(2,)"), f8x2), []ReadOption{MaxBytes(15)}, ErrTooLarge, "needs 16 bytes"},
		{"data truncated", raw(1, 0, hdr("'<f8'", "False", "(3,)"), f8x2), nil, ErrTruncated, "only 16 remain"},
		{"no data", raw(1, 0, hdr("'<c8'", "True", "(2, 2)"), nil), nil, ErrTruncated, "only 0 remain"},
	}
	for _, c := range cases {
		for _, seek := range []bool{true, false} {
			var r io.Reader = bytes.NewReader(c.in)
			if !seek {
				r = plainReader{r}
			}
			a, err := Read(r, c.opts...)
			if err == nil {
				t.Errorf("%s (seek=%v): no error, got %+v", c.name, seek, a)
				continue
			}
			if !errors.Is(err, c.kind) {
				t.Errorf("%s (seek=%v): error %q is not %v", c.name, seek, err, c.kind)
			}
			var e *Error
			if !errors.As(err, &e) || e.Op != "read" {
				t.Errorf("%s: error %v is not a read *Error", c.name, err)
			}
			msg := c.msg
			if !seek && strings.Contains(msg, "remain") {
				msg = "data: got"
			}
			if !strings.Contains(err.Error(), msg) {
				t.Errorf("%s (seek=%v): message %q lacks %q", c.name, seek, err, msg)
			}
			if !strings.HasPrefix(err.Error(), "npy: read: ") {
				t.Errorf("%s: message %q lacks the package prefix", c.name, err)
			}
		}
	}
}

// TestReadAccepts covers header spellings NumPy or other writers produce
// that differ from what Write emits.
func TestReadAccepts(t *testing.T) {
	d := make([]byte, 6*8)
	for i := range 6 {
		binary.LittleEndian.PutUint64(d[8*i:], uint64(i)) // bit patterns, compared as such
	}
	cases := []struct {
		name    string
		in      []byte
		shape   []int
		fortran bool
	}{
		{"any key order", raw(1, 0, "{'shape': (2, 3), 'fortran_order': True, 'descr': '<f8'}", d), []int{2, 3}, true},
		{"no trailing comma, no newline", raw(1, 0, "{'descr':'<f8','fortran_order':False,'shape':(6,)}", d), []int{6}, false},
		{"double quotes and spaces", raw(1, 0, "  { \"descr\" : \"<f8\" ,\n\t'fortran_order' : False , 'shape' : ( 3 , 2 , ) , }   \n", d), []int{3, 2}, false},
		{"bar byte order", raw(1, 0, hdr("'|f8'", "False", "(6,)"), d), []int{6}, false},
		{"no byte order", raw(1, 0, hdr("'f8'", "False", "(6,)"), d), []int{6}, false},
		{"python 2 long", raw(1, 0, hdr("u'<f8'"[1:], "False", "(2L, 3L)"), d), []int{2, 3}, false},
		{"underscores", raw(1, 0, hdr("'<f8'", "False", "(1_2,)"), append(d, d...)), []int{12}, false},
		{"parenthesized shape", raw(1, 0, hdr("'<f8'", "False", "((2), 3)"), d), []int{2, 3}, false},
		{"version 2", raw(2, 0, hdr("'<f8'", "True", "(1, 6)"), d), []int{1, 6}, true},
		{"version 3", raw(3, 0, hdr("'<f8'", "False", "(6, 1)"), d), []int{6, 1}, false},
		{"zero extent with huge other", raw(1, 0, hdr("'<f8'", "False", "(0, 9223372036854775807)"), nil), []int{0, 1<<63 - 1}, false},
		{"trailing bytes ignored", raw(1, 0, hdr("'<f8'", "False", "(5,)"), d), []int{5}, false},
		{"empty with MaxBytes 0", raw(1, 0, hdr("'<f8'", "False", "(0,)"), nil), []int{0}, false},
	}
	for _, c := range cases {
		a, err := Read(bytes.NewReader(c.in), MaxBytes(1<<20))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(a.Shape) != len(c.shape) || a.Fortran != c.fortran || a.DType != Float64 {
			t.Errorf("%s: got shape %v F=%v %s", c.name, a.Shape, a.Fortran, a.DType)
			continue
		}
		for i := range c.shape {
			if a.Shape[i] != c.shape[i] {
				t.Errorf("%s: got shape %v", c.name, a.Shape)
			}
		}
		got := a.Data.([]float64)
		for i := range got {
			if binary.LittleEndian.Uint64(d[8*(i%6):]) != mathBits(got[i]) {
				t.Errorf("%s: element %d differs", c.name, i)
			}
		}
	}
}

// TestReadAcceptsIntBool covers the spellings of the int64 and bool descr
// strings: NumPy writes '<i8' and '|b1'; the other marks, no mark and the
// one-character code '?' name the same types.
func TestReadAcceptsIntBool(t *testing.T) {
	ints := []int64{0, -1, 1<<63 - 1, -1 << 63, 42, -7}
	var id []byte
	for _, v := range ints {
		id = binary.LittleEndian.AppendUint64(id, uint64(v))
	}
	bools := []bool{false, true, true, false, true, false}
	bd := []byte{0, 1, 1, 0, 1, 0}
	for _, descr := range []string{"'<i8'", "'i8'", "'|i8'", "'|b1'", "'b1'", "'<b1'", "'?'"} {
		isInt := strings.Contains(descr, "i8")
		d, want := bd, any(bools)
		if isInt {
			d, want = id, any(ints)
		}
		a, err := Read(bytes.NewReader(raw(1, 0, hdr(descr, "False", "(6,)"), d)))
		if err != nil {
			t.Errorf("%s: %v", descr, err)
			continue
		}
		if wantDT := map[bool]DType{true: Int64, false: Bool}[isInt]; a.DType != wantDT {
			t.Errorf("%s: DType %s, want %s", descr, a.DType, wantDT)
		}
		if !reflect.DeepEqual(a.Data, want) {
			t.Errorf("%s: data %v, want %v", descr, a.Data, want)
		}
	}
}

// TestLyingHeaderAllocation checks that a header announcing far more data
// than a stream delivers makes Read allocate about what arrives plus one
// chunk, not the announced size.
func TestLyingHeaderAllocation(t *testing.T) { bothPaths(t, testLyingHeaderAllocation) }

func testLyingHeaderAllocation(t *testing.T) {
	const announced = 1 << 27 // float64 elements: exactly 1 GiB, the default cap
	in := raw(1, 0, hdr("'<f8'", "False", "(134217728,)"), make([]byte, 3*chunkBytes/2))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Read(plainReader{bytes.NewReader(in)})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTruncated) {
		t.Fatalf("got %v, want ErrTruncated", err)
	}
	// Arrived: 1.5 chunks; allowed: arrived + staging buffer + one chunk,
	// plus slack for bookkeeping.
	limit := uint64(4*chunkBytes + 64<<10)
	if got := after.TotalAlloc - before.TotalAlloc; got > limit {
		t.Fatalf("allocated %d bytes for a truncated stream announcing %d bytes; limit %d", got, announced*8, limit)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(b []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(b), nil
}

func TestWriteErrors(t *testing.T) {
	cases := []struct {
		name  string
		shape []int
		data  any
		msg   string
	}{
		{"nil data", []int{0}, nil, "data of type <nil>"},
		{"int data", []int{2}, []int{1, 2}, "data of type []int"},
		{"negative extent", []int{2, -1}, []float64{}, "shape[1] = -1"},
		{"length mismatch", []int{2, 3}, make([]float32, 5), "needs 6 elements, data has 5"},
		{"scalar needs one", []int{}, []float64{}, "needs 1 elements, data has 0"},
		{"overflow", []int{1 << 40, 1 << 40}, []float64{}, "overflows"},
	}
	for _, c := range cases {
		err := Write(io.Discard, c.shape, c.data)
		if !errors.Is(err, ErrArgument) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want ErrArgument containing %q", c.name, err, c.msg)
		}
	}
	if err := WriteArray(io.Discard, nil); !errors.Is(err, ErrArgument) {
		t.Errorf("nil array: got %v", err)
	}
	if err := WriteArray(io.Discard, &Array{DType: Float32, Shape: []int{1}, Data: []float64{1}}); !errors.Is(err, ErrArgument) {
		t.Errorf("dtype mismatch: got %v", err)
	}
	// A failing writer, on the header and on a later data chunk.
	bothPaths(t, func(t *testing.T) {
		big := make([]float64, chunkBytes/4)
		for _, n := range []int{0, 1} {
			err := Write(&failWriter{n: n}, []int{len(big)}, big)
			if err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Errorf("failing writer after %d writes: got %v", n, err)
			}
		}
	})
}

func TestLargeHeaderUsesVersion2(t *testing.T) {
	shape := make([]int, 25000) // header text over 64 KiB
	for i := range shape {
		shape[i] = 1
	}
	var buf bytes.Buffer
	if err := Write(&buf, shape, []float32{42}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if b[6] != 2 {
		t.Fatalf("version %d, want 2", b[6])
	}
	start := 12 + int(binary.LittleEndian.Uint32(b[8:]))
	if start%64 != 0 || b[start-1] != '\n' {
		t.Fatalf("data at %d", start)
	}
	if _, err := Read(bytes.NewReader(b)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("default header cap: got %v", err)
	}
	a, err := Read(bytes.NewReader(b), MaxHeaderBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Shape) != len(shape) || a.Data.([]float32)[0] != 42 {
		t.Fatal("round trip failed")
	}
}
