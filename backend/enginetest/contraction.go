package enginetest

import (
	"errors"
	"math"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// matmulRef returns the batched product of a (m, k, batch...) and b (k, n,
// batch...) with extent-1 batch broadcasting, and Σ|a||b| per element.
func matmulRef(ad, bd []complex128, as, bs []int) (shape []int, val []complex128, absSum []float64) {
	m, k, n := as[0], as[1], bs[1]
	shape = []int{m, n}
	for d := 2; d < len(as); d++ {
		shape = append(shape, max(as[d], bs[d]))
		if as[d] == 0 || bs[d] == 0 {
			shape[d] = 0
		}
	}
	cnt := 1
	for _, x := range shape {
		cnt *= x
	}
	val, absSum = make([]complex128, cnt), make([]float64, cnt)
	o := 0
	Each(shape, func(idx []int) {
		ia, ib := slices.Clone(idx), slices.Clone(idx)
		for p := range k {
			ia[0], ia[1] = idx[0], p
			ib[0], ib[1] = p, idx[1]
			x, y := at(ad, as, ia), at(bd, bs, ib)
			val[o] += x * y
			absSum[o] += abs(x) * abs(y)
		}
		o++
	})
	return shape, val, absSum
}

func (suite[T]) matmul(t *testing.T, e tf.Engine) {
	r := rng(4)
	u := UnitRoundoff[T]()
	cases := [][2][]int{
		{{0, 3}, {3, 4}}, {{3, 0}, {0, 4}}, {{1, 1}, {1, 1}}, {{1, 7}, {7, 1}}, {{5, 3}, {3, 1}},
		{{17, 13}, {13, 11}}, {{33, 1}, {1, 29}}, {{64, 64}, {64, 64}}, {{67, 45}, {45, 9}},
		{{4, 3, 5}, {3, 2, 5}}, {{4, 3, 1}, {3, 2, 6}}, {{2, 3, 5, 1}, {3, 4, 1, 3}}, {{3, 2, 0}, {2, 3, 0}},
	}
	for _, c := range cases {
		for kind := range NumLayouts {
			a := Operand[T](t, r, c[0], kind)
			b := Operand[T](t, r, c[1], (kind+1)%NumLayouts)
			what := name("Matmul ", c[0], c[1], " ", LayoutName(kind))
			shape, want, absSum := matmulRef(Dense(a), Dense(b), c[0], c[1])
			tol := make([]float64, len(want))
			for i := range tol {
				tol[i] = 4 * float64(c[0][1]+2) * u * absSum[i]
			}
			got, err := tf.Matmul(e, a, b)
			mustNil(t, what, err)
			compare(t, what, got, want, tol)
			mustNil(t, what, got.Release())
			dst, whole := Destination[T](t, shape, (kind+2)%NumLayouts, castC[T](9))
			mustNil(t, what+" into", tf.MatmulInto(e, dst, a, b))
			compare(t, what+" into", dst, want, tol)
			checkOutside(t, what+" into", dst, whole, castC[T](9))
		}
	}
}

// EinsumCases cover every kind of pairwise step (dot, GEMM, batched GEMM,
// outer, Hadamard, batched outer), diagonals, embedded diagonals, final
// reductions, broadcasting, ellipses, scalars and zero extents.
var EinsumCases = []struct {
	Sub    string
	Shapes [][]int
}{
	{"ij,jk->ik", [][]int{{5, 7}, {7, 3}}},
	{"ij,jk", [][]int{{17, 2}, {2, 13}}},
	{"i,i->", [][]int{{11}, {11}}},
	{"i,j->ij", [][]int{{5}, {7}}},
	{"ij,ij->ij", [][]int{{6, 5}, {6, 5}}},
	{"bij,bjk->bik", [][]int{{3, 4, 5}, {3, 5, 2}}},
	{"ijb,jkb->ikb", [][]int{{4, 5, 3}, {5, 2, 3}}},
	{"ij,ik->ijk", [][]int{{3, 4}, {3, 5}}},
	{"ii->i", [][]int{{5, 5}}},
	{"ii->", [][]int{{4, 4}}},
	{"i->ii", [][]int{{4}}},
	{"ij->ji", [][]int{{3, 7}}},
	{"ijk->i", [][]int{{3, 4, 5}}},
	{"ij,j->i", [][]int{{9, 8}, {8}}},
	{"ab,bc,cd->ad", [][]int{{4, 5}, {5, 3}, {3, 6}}},
	{"ijk,jkl,lm->im", [][]int{{3, 4, 2}, {4, 2, 5}, {5, 3}}},
	{"i,i,i->i", [][]int{{7}, {7}, {7}}},
	{"...ij,...jk", [][]int{{2, 3, 4}, {1, 4, 5}}},
	{"ij,jk->ik", [][]int{{1, 7}, {7, 1}}},
	{"ij,jk->ik", [][]int{{3, 1}, {4, 5}}},
	{"ij,jk->ik", [][]int{{3, 0}, {0, 4}}},
	{"ij,jk->ik", [][]int{{0, 3}, {3, 4}}},
	{",->", [][]int{{}, {}}},
	{"i,->i", [][]int{{5}, {}}},
}

func (suite[T]) einsum(t *testing.T, e tf.Engine) {
	r := rng(5)
	for _, c := range EinsumCases {
		for kind := range NumLayouts {
			ops := make([]*tf.Tensor[T], len(c.Shapes))
			data := make([][]complex128, len(c.Shapes))
			for k, s := range c.Shapes {
				ops[k] = Operand[T](t, r, s, (kind+k)%NumLayouts)
				data[k] = Dense(ops[k])
			}
			ref := EinsumReference(c.Sub, c.Shapes, data)
			what := name("Einsum ", c.Sub, c.Shapes, " ", LayoutName(kind))
			got, err := tf.Einsum(e, c.Sub, ops...)
			mustNil(t, what, err)
			Check(t, what, got, ref)
			mustNil(t, what, got.Release())
			dst, whole := Destination[T](t, ref.Shape, (kind+1)%NumLayouts, castC[T](4))
			mustNil(t, what+" into", tf.EinsumInto(e, dst, c.Sub, ops...))
			Check(t, what+" into", dst, ref)
			checkOutside(t, what+" into", dst, whole, castC[T](4))
			for k := range ops {
				if !slices.Equal(Dense(ops[k]), data[k]) {
					t.Fatalf("%s: operand %d was modified", what, k)
				}
			}
		}
	}
}

// accumulate checks dst = alpha·result + beta·dst for MatmulInto and
// EinsumWithInto on every kind of step, with beta = 0 not reading dst.
func (suite[T]) accumulate(t *testing.T, e tf.Engine) {
	r := rng(6)
	u := UnitRoundoff[T]()
	nan := castC[T](complex(math.NaN(), math.NaN()))
	scalings := [][2]complex128{{1, 0}, {2, 0}, {1, 1}, {-0.5, 2}, {0, 1.5}, {0, 0}}
	if isComplex[T]() {
		scalings = append(scalings, [2]complex128{1i, 1 - 1i})
	}
	for _, c := range EinsumCases {
		for _, s := range scalings {
			ops := make([]*tf.Tensor[T], len(c.Shapes))
			data := make([][]complex128, len(c.Shapes))
			for k, sh := range c.Shapes {
				ops[k] = Operand[T](t, r, sh, k%NumLayouts)
				data[k] = Dense(ops[k])
			}
			ref := EinsumReference(c.Sub, c.Shapes, data)
			dst, _ := Destination[T](t, ref.Shape, Transposed, 0)
			if s[1] == 0 {
				fill(dst, nan)
			} else {
				fill(dst, castC[T](complex(0.25, -0.75)))
			}
			old := Dense(dst)
			what := name("EinsumWithInto ", c.Sub, " alpha ", s[0], " beta ", s[1])
			mustNil(t, what, tf.EinsumWithInto(e, dst, c.Sub, ops, tf.Accumulate(s[0], s[1])))
			want := make([]complex128, len(ref.Val))
			tol := make([]float64, len(want))
			for i, v := range ref.Val {
				a, b := toC(castC[T](s[0])), toC(castC[T](s[1]))
				want[i] = a * v
				tol[i] = 4*float64(ref.Depth+2)*u*abs(a)*ref.Abs[i] + 4*u*abs(want[i])
				if b != 0 {
					want[i] += b * old[i]
					tol[i] += 4 * u * (abs(b*old[i]) + abs(want[i]))
				}
			}
			compare(t, what, dst, want, tol)
		}
	}
	// Matmul, batched, with a NaN-filled destination and beta = 0.
	a := Operand[T](t, r, []int{13, 9, 3}, Transposed)
	b := Operand[T](t, r, []int{9, 7, 1}, Stepped)
	shape, prod, absSum := matmulRef(Dense(a), Dense(b), a.Shape(), b.Shape())
	for _, s := range scalings {
		dst, _ := Destination[T](t, shape, Reversed, 0)
		if s[1] == 0 {
			fill(dst, nan)
		} else {
			fill(dst, castC[T](complex(-1.5, 0.5)))
		}
		old := Dense(dst)
		what := name("MatmulInto alpha ", s[0], " beta ", s[1])
		mustNil(t, what, tf.MatmulInto(e, dst, a, b, tf.Accumulate(s[0], s[1])))
		want := make([]complex128, len(prod))
		tol := make([]float64, len(prod))
		for i, v := range prod {
			x, y := toC(castC[T](s[0])), toC(castC[T](s[1]))
			want[i] = x * v
			tol[i] = 4*11*u*abs(x)*absSum[i] + 4*u*abs(want[i])
			if y != 0 {
				want[i] += y * old[i]
				tol[i] += 4 * u * (abs(y*old[i]) + abs(want[i]))
			}
		}
		compare(t, what, dst, want, tol)
	}
	if !isComplex[T]() {
		dst, _ := Destination[T](t, shape, Compact, 0)
		fill(dst, castC[T](3))
		for _, err := range []error{
			tf.MatmulInto(e, dst, a, b, tf.Accumulate(1i, 0)),
			tf.EinsumWithInto(e, dst, "ijb,jkb->ikb", []*tf.Tensor[T]{a, b}, tf.Accumulate(1, 2i)),
		} {
			if !errors.Is(err, tf.ErrArgument) {
				t.Fatalf("complex scaling of a real destination: %v, want ErrArgument", err)
			}
		}
		for _, v := range Dense(dst) {
			if v != 3 {
				t.Fatal("a refused Accumulate wrote its destination")
			}
		}
	}
}

// fill sets every element of the view t to v.
func fill[T tf.Elem](t *tf.Tensor[T], v T) {
	Each(t.Shape(), func(idx []int) { t.Set(v, idx...) })
}
