package tenferro_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// dstView returns a view of shape over a larger buffer filled with guard,
// laid out as kind asks (see operand), and the buffer.
func dstView(t testing.TB, shape []int, kind int, guard float64) (*tf.Tensor[float64], *tf.Tensor[float64]) {
	t.Helper()
	b, err := tf.Full(guard, enginetest.LayoutBase(shape, kind, 1)...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := enginetest.LayoutView(b, kind, 1)
	if err != nil {
		t.Fatal(err)
	}
	return v, b
}

// guarded counts the elements of buf equal to guard.
func guarded(t testing.TB, buf *tf.Tensor[float64], guard float64) int {
	t.Helper()
	d, err := buf.Data()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range d {
		if x == guard {
			n++
		}
	}
	return n
}

// TestEinsumIntoStridedDst writes into enginetest.Transposed, enginetest.Reversed and enginetest.Stepped
// destinations (the last step then writes through dst's strides, or
// through a enginetest.Compact buffer when they do not fuse) and checks that nothing
// outside the view changes.
func TestEinsumIntoStridedDst(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(9, 10))
	const guard = -7777.5
	cases := append(slices.Clone(grammarCases), []einsumCase{
		{"ij,jkl->ikl", [][]int{{3, 4}, {4, 5, 2}}},
		{"ij,jkl->ilk", [][]int{{3, 4}, {4, 5, 2}}},
		{"kj,ji->kij", [][]int{{3, 4}, {4, 3}}},
		{"abc,cbd->adb", [][]int{{2, 3, 4}, {4, 3, 5}}},
	}...)
	for _, c := range cases {
		for kind := range enginetest.NumLayouts {
			ops := make([]*tf.Tensor[float64], len(c.shapes))
			data := make([][]complex128, len(c.shapes))
			for k, s := range c.shapes {
				ops[k] = enginetest.Operand[float64](t, rng, s, (kind+k)%enginetest.NumLayouts)
				data[k] = enginetest.Dense(ops[k])
			}
			ref := enginetest.EinsumReference(c.sub, c.shapes, data)
			dst, buf := dstView(t, ref.Shape, kind, guard)
			outside := buf.Len() - dst.Len()
			if err := tf.EinsumInto(e, dst, c.sub, ops...); err != nil {
				t.Fatalf("%s layout %d: %v", c.sub, kind, err)
			}
			what := fmt.Sprintf("EinsumInto %s layout %d", c.sub, kind)
			enginetest.Check(t, what, dst, ref)
			if n := guarded(t, buf, guard); n != outside {
				t.Fatalf("%s: %d guard elements left, want %d", what, n, outside)
			}
			p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes)
			if err != nil {
				t.Fatal(err)
			}
			dst2, buf2 := dstView(t, ref.Shape, kind, guard)
			if err := tf.EinsumPlannedInto(e, dst2, p, ops...); err != nil {
				t.Fatalf("%s layout %d: %v", c.sub, kind, err)
			}
			enginetest.Check(t, "EinsumPlannedInto "+what, dst2, ref)
			if n := guarded(t, buf2, guard); n != outside {
				t.Fatalf("%s: planned: %d guard elements left, want %d", what, n, outside)
			}
			got, err := tf.EinsumPlanned(e, p, ops...)
			if err != nil {
				t.Fatal(err)
			}
			enginetest.Check(t, "EinsumPlanned "+what, got, ref)
			got.Release()
		}
	}
}

func TestEinsumErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	a := enginetest.Operand[float64](t, rng, []int{2, 3}, enginetest.Compact)
	b := enginetest.Operand[float64](t, rng, []int{4, 5}, enginetest.Compact)
	c := enginetest.Operand[float64](t, rng, []int{3, 5}, enginetest.Compact)
	const guard = 42.25
	dst, buf := dstView(t, []int{2, 5}, enginetest.Compact, guard)
	untouched := func(what string) {
		t.Helper()
		if n := guarded(t, buf, guard); n != buf.Len() {
			t.Fatalf("%s: dst was written (%d of %d elements kept)", what, n, buf.Len())
		}
	}
	mustFail := func(what string, err error, kind error, words ...string) {
		t.Helper()
		if !errors.Is(err, kind) {
			t.Fatalf("%s: error %v, want kind %v", what, err, kind)
		}
		for _, w := range words {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("%s: message %q does not mention %q", what, err.Error(), w)
			}
		}
		untouched(what)
	}

	_, err := tf.Einsum(e, "ij,jk->ik", a, b)
	mustFail("extent conflict", err, tf.ErrShape, "'j'", "operand 1", "4", "3")
	err = tf.EinsumInto(e, dst, "ij,jk->ik", a, b)
	mustFail("extent conflict into dst", err, tf.ErrShape, "'j'", "operands[1]")
	err = tf.EinsumInto(e, dst, "ij,jk->ki", a, c)
	mustFail("dst shape", err, tf.ErrShape, "dst")
	err = tf.EinsumInto(e, dst, "ij,jk->ix", a, c)
	mustFail("unknown output label", err, tf.ErrArgument, "'x'")
	err = tf.EinsumInto(e, dst, "ij,jk->ik", a)
	mustFail("operand count", err, tf.ErrShape)
	_, err = tf.Einsum(e, "ii->i", a)
	mustFail("diagonal of unequal axes", err, tf.ErrShape, "'i'", "operand 0")
	_, err = tf.Einsum(e, "ij,jk->ik", a, b, c)
	mustFail("too many operands", err, tf.ErrShape)
	err = tf.EinsumInto(e, dst, "ij,j.k->ik", a, c)
	mustFail("syntax", err, tf.ErrArgument)

	row, _ := dst.Slice(1, 0, 1, 1)
	wide, _ := row.Broadcast(2, 5)
	err = tf.EinsumInto(e, wide, "ij,jk->ik", a, c)
	mustFail("broadcast dst", err, tf.ErrAlias)

	// dst aliasing an operand.
	sq := enginetest.Operand[float64](t, rng, []int{3, 3}, enginetest.Compact)
	err = tf.EinsumInto(e, sq, "ij,jk->ik", sq, sq)
	if !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("aliasing dst: %v", err)
	}

	// Prepared plans check dtype and shapes.
	p, err := tf.PrepareEinsum(tf.Float64, "ij,jk->ik", [][]int{{2, 3}, {3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	err = tf.EinsumPlannedInto(e, dst, p, a, b)
	mustFail("planned shapes", err, tf.ErrShape, "operands[1]")
	a32 := enginetest.Operand[float32](t, rng, []int{2, 3}, enginetest.Compact)
	c32 := enginetest.Operand[float32](t, rng, []int{3, 5}, enginetest.Compact)
	if _, err := tf.EinsumPlanned(e, p, a32, c32); !errors.Is(err, tf.ErrDType) {
		t.Fatalf("planned dtype: %v", err)
	}
	if err := tf.EinsumPlannedInto(e, dst, nil, a, c); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("nil plan: %v", err)
	}
	untouched("nil plan")

	// A memory limit no path can respect fails planning.
	_, err = tf.EinsumWith(e, "ab,bc,cd->ad", []*tf.Tensor[float64]{a, c, enginetest.Operand[float64](t, rng, []int{5, 2}, enginetest.Compact)}, tf.WithMemoryLimit(1))
	if !errors.Is(err, einsum.ErrMemoryLimit) {
		t.Fatalf("memory limit: %v", err)
	}

	// Released operands are refused.
	r := enginetest.Operand[float64](t, rng, []int{3, 5}, enginetest.Compact)
	r.Release()
	err = tf.EinsumInto(e, dst, "ij,jk->ik", a, r)
	mustFail("released operand", err, tf.ErrReleased, "operands[1]")

	// After the failures the engine still works.
	if err := tf.EinsumInto(e, dst, "ij,jk->ik", a, c); err != nil {
		t.Fatal(err)
	}
}

// numpyScript generates operands with a seeded NumPy RNG, evaluates
// np.einsum on them (in float64 or complex128) and on their absolute
// values (Σ|terms|, for the tolerance), and saves everything as .npy.
const numpyScript = `
import json, sys
import numpy as np
cases = json.load(open(sys.argv[1]))
out = sys.argv[2]
rng = np.random.default_rng(20261130)
status = []
for i, c in enumerate(cases):
    dt = np.dtype(c["dtype"])
    ops = []
    for s in c["shapes"]:
        x = rng.standard_normal(s)
        if dt.kind == "c":
            x = x + 1j * rng.standard_normal(s)
        ops.append(np.asarray(x, dtype=dt))
    wide = np.complex128 if dt.kind == "c" else np.float64
    up = [o.astype(wide) for o in ops]
    try:
        r = np.einsum(c["sub"], *up)
        a = np.einsum(c["sub"], *[np.abs(o) for o in up])
    except Exception as e:
        status.append("numpy: " + str(e))
        continue
    for k, o in enumerate(ops):
        np.save("%s/c%d_op%d.npy" % (out, i, k), o)
    np.save("%s/c%d_out.npy" % (out, i), np.asarray(r, dtype=wide))
    np.save("%s/c%d_abs.npy" % (out, i), np.asarray(a, dtype=np.float64))
    status.append("ok")
json.dump(status, open(out + "/status.json", "w"))
`
