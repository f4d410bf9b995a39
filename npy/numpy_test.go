package npy

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const python = "/usr/bin/python3"

// needNumPy skips the test unless the system Python can import NumPy.
func needNumPy(t *testing.T) {
	t.Helper()
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("NumPy not available (%s -c 'import numpy': %v)", python, err)
	}
}

func runPython(t *testing.T, script string, args ...string) string {
	t.Helper()
	out, err := exec.Command(python, append([]string{"-c", script}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python failed: %v\n%s", err, out)
	}
	return string(out)
}

var interopShapes = [][]int{{}, {0}, {1}, {7}, {3, 5}, {0, 4}, {5, 1}, {2, 3, 5}, {4, 1, 3, 2}}

func pyShape(s []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for _, d := range s {
		fmt.Fprintf(&b, "%d,", d)
	}
	b.WriteByte(')')
	return b.String()
}

// value is the element of dtype dt at row-major (C) flat index c of the
// test arrays, exactly representable in dt: c/2 - 3 + i*c/4 for complex
// dtypes, its real part for float ones, 7c - 20 for int64 and c mod 3 == 1
// (as 1 or 0) for bool. pyValues computes the same in NumPy.
func value(dt DType, c int) complex128 {
	switch dt {
	case Int64:
		return complex(float64(7*c-20), 0)
	case Bool:
		if c%3 == 1 {
			return 1
		}
		return 0
	case Float32, Float64:
		return complex(float64(c)*0.5-3, 0)
	}
	return complex(float64(c)*0.5-3, float64(c)*0.25)
}

// pyValues defines values(dt, n) in Python: the C-order flat array of n
// elements of dtype dt whose element c is value(dt, c).
const pyValues = `
def values(dt, n):
    c = np.arange(n, dtype=np.int64)
    if dt[1] == 'i':
        return (c * 7 - 20).astype(dt)
    if dt[1] == 'b':
        return (c % 3) == 1
    a = c * 0.5 - 3
    if dt[1] == 'c':
        a = a + 1j * (c * 0.25)
    return a.astype(dt)
`

func TestReadNumPyFiles(t *testing.T) {
	needNumPy(t)
	dir := t.TempDir()
	var specs []string
	type file struct {
		name    string
		dt      DType
		shape   []int
		fortran bool
	}
	var files []file
	for _, dt := range allDTypes {
		for si, shape := range interopShapes {
			for _, order := range []string{"C", "F"} {
				for _, v := range []int{1, 2, 3} {
					name := fmt.Sprintf("%s_%d_%s_v%d.npy", dt.Descr()[1:], si, order, v)
					specs = append(specs, fmt.Sprintf("%s;%s;%s;%s;%d", name, dt.Descr(), pyShape(shape), order, v))
					// NumPy writes fortran_order True only for arrays that
					// are Fortran- but not C-contiguous.
					big := 0
					for _, d := range shape {
						if d > 1 {
							big++
						}
					}
					files = append(files, file{name, dt, shape, order == "F" && big >= 2})
				}
			}
		}
	}
	script := `
import sys, numpy as np
` + pyValues + `
d = sys.argv[1]
for spec in sys.argv[2:]:
    name, dt, shape, order, v = spec.split(';')
    shape = eval(shape)
    n = int(np.prod(shape, dtype=np.int64))
    a = values(dt, n).reshape(shape, order='C')
    if order == 'F' and a.ndim >= 2:  # asfortranarray makes 0-d arrays 1-d
        a = np.asfortranarray(a)
    with open(d + '/' + name, 'wb') as f:
        np.lib.format.write_array(f, a, version=(int(v), 0))
np.save(d + '/big.npy', np.arange(3, dtype='>f8'))
np.save(d + '/int.npy', np.arange(3, dtype='<i4'))
np.save(d + '/obj.npy', np.array([None, 1], dtype=object), allow_pickle=True)
np.save(d + '/rec.npy', np.zeros(2, dtype=[('a', '<f8'), ('b', '<i4')]))
`
	runPython(t, script, append([]string{dir}, specs...)...)
	for _, f := range files {
		a, err := ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if a.DType != f.dt || len(a.Shape) != len(f.shape) || a.Fortran != f.fortran {
			t.Fatalf("%s: got %s %v F=%v", f.name, a.DType, a.Shape, a.Fortran)
		}
		got := toComplex(a.ColumnMajor())
		n, _ := elementCount(f.shape)
		if len(got) != n {
			t.Fatalf("%s: %d elements, want %d", f.name, len(got), n)
		}
		idx := make([]int, len(f.shape))
		for j := range got {
			r := j
			for k, d := range f.shape {
				idx[k] = r % d
				r /= d
			}
			c := 0
			for k, d := range f.shape {
				c = c*d + idx[k]
			}
			if want := value(f.dt, c); got[j] != want {
				t.Fatalf("%s: column-major element %d (index %v) = %v, want %v", f.name, j, idx, got[j], want)
			}
		}
	}
	for name, msg := range map[string]string{"big.npy": "big-endian", "int.npy": "signed integer", "obj.npy": "object", "rec.npy": "structured"} {
		_, err := ReadFile(filepath.Join(dir, name))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want ErrUnsupported mentioning %q", name, err, msg)
		}
	}
}

func toComplex(data any) []complex128 {
	var out []complex128
	switch d := data.(type) {
	case []float32:
		for _, v := range d {
			out = append(out, complex(float64(v), 0))
		}
	case []float64:
		for _, v := range d {
			out = append(out, complex(v, 0))
		}
	case []complex64:
		for _, v := range d {
			out = append(out, complex128(v))
		}
	case []complex128:
		out = append(out, d...)
	case []int64:
		for _, v := range d {
			out = append(out, complex(float64(v), 0))
		}
	case []bool:
		for _, v := range d {
			if v {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		}
	}
	return out
}

func TestNumPyLoadsWrittenFiles(t *testing.T) {
	needNumPy(t)
	dir := t.TempDir()
	var specs []string
	for _, dt := range allDTypes {
		for si, shape := range interopShapes {
			n, _ := elementCount(shape)
			// Column-major data: element at column-major offset j is value(dt, j).
			vals := make([]complex128, n)
			for j := range vals {
				vals[j] = value(dt, j)
			}
			data := fromComplex(dt, vals)
			name := fmt.Sprintf("%s_%d.npy", dt.Descr()[1:], si)
			if err := WriteFile(filepath.Join(dir, name), shape, data); err != nil {
				t.Fatal(err)
			}
			specs = append(specs, fmt.Sprintf("%s;%s;%s", name, dt.Descr(), pyShape(shape)))
		}
	}
	script := `
import sys, numpy as np
` + pyValues + `
d = sys.argv[1]
bad = []
for spec in sys.argv[2:]:
    name, dt, shape = spec.split(';')
    shape = eval(shape)
    a = np.load(d + '/' + name)
    want = values(dt, int(np.prod(shape, dtype=np.int64)))
    if a.dtype != np.dtype(dt) or a.shape != shape or not np.array_equal(a.flatten(order='F'), want):
        bad.append('%s: dtype %s shape %s' % (name, a.dtype, a.shape))
    if a.ndim >= 2 and a.size > 1 and not a.flags.f_contiguous:
        bad.append(name + ': not Fortran-contiguous')
print('\n'.join(bad) if bad else 'ok %d' % (len(sys.argv) - 2))
`
	out := strings.TrimSpace(runPython(t, script, append([]string{dir}, specs...)...))
	if out != fmt.Sprintf("ok %d", len(specs)) {
		t.Fatalf("NumPy disagrees:\n%s", out)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// fromComplex converts vals to a data slice of dtype dt (real parts for
// real dtypes, nonzero for bool).
func fromComplex(dt DType, vals []complex128) any {
	switch dt {
	case Float32:
		s := make([]float32, len(vals))
		for j, v := range vals {
			s[j] = float32(real(v))
		}
		return s
	case Float64:
		s := make([]float64, len(vals))
		for j, v := range vals {
			s[j] = real(v)
		}
		return s
	case Complex64:
		s := make([]complex64, len(vals))
		for j, v := range vals {
			s[j] = complex64(v)
		}
		return s
	case Int64:
		s := make([]int64, len(vals))
		for j, v := range vals {
			s[j] = int64(real(v))
		}
		return s
	case Bool:
		s := make([]bool, len(vals))
		for j, v := range vals {
			s[j] = v != 0
		}
		return s
	}
	return vals
}
