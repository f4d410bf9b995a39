package viewcopy

import (
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/backend"
)

// naive is a Core that copies and fills element by element.
type naive struct{}

func (naive) Alloc(n int) *backend.Storage[float64] {
	return backend.NewStorage(make([]float64, n), nil)
}

func (naive) Copy(dst, src *backend.View[float64]) error {
	each(dst.Shape, func(idx []int) { dst.Data[at(dst, idx)] = src.Data[at(src, idx)] })
	return nil
}

func (naive) Fill(dst *backend.View[float64], v float64) error {
	each(dst.Shape, func(idx []int) { dst.Data[at(dst, idx)] = v })
	return nil
}

func at(v *backend.View[float64], idx []int) int {
	p := v.Off
	for d, i := range idx {
		p += i * v.Strides[d]
	}
	return p
}

func each(shape []int, f func(idx []int)) {
	n := 1
	for _, x := range shape {
		n *= x
	}
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for d := range idx {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

// reversed returns a view of shape with random values whose every axis
// runs backwards, so that offsets and negative strides meet the views.
func reversed(r *rand.Rand, shape ...int) *backend.View[float64] {
	n := 1
	for _, x := range shape {
		n *= x
	}
	v := &backend.View[float64]{Data: make([]float64, n+2), Off: 1, Shape: shape, Strides: make([]int, len(shape))}
	for i := range v.Data {
		v.Data[i] = r.Float64()
	}
	s := 1
	for d, x := range shape {
		v.Strides[d] = -s
		v.Off += s * max(x-1, 0)
		s *= x
	}
	return v
}

// check compares dst with want(idx) at every index.
func check(t *testing.T, what string, dst *backend.View[float64], want func(idx []int) float64) {
	t.Helper()
	each(dst.Shape, func(idx []int) {
		if g, w := dst.Data[at(dst, idx)], want(idx); g != w {
			t.Fatalf("%s: element %v = %v, want %v", what, idx, g, w)
		}
	})
}

func with(idx []int, d, v int) []int {
	out := append([]int(nil), idx...)
	out[d] = v
	return out
}

func TestViewCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var room Room[float64]
	c := naive{}
	a, b := reversed(r, 3, 2, 5), reversed(r, 3, 4, 5)
	dst := reversed(r, 3, 6, 5)
	if err := Concat(c, dst, 1, []*backend.View[float64]{a, b}, &room); err != nil {
		t.Fatal(err)
	}
	check(t, "Concat", dst, func(idx []int) float64 {
		if idx[1] < 2 {
			return a.Data[at(a, idx)]
		}
		return b.Data[at(b, with(idx, 1, idx[1]-2))]
	})
	part := reversed(r, 3, 3, 5)
	if err := Part(c, part, dst, 1, 2, &room); err != nil {
		t.Fatal(err)
	}
	check(t, "Part", part, func(idx []int) float64 { return dst.Data[at(dst, with(idx, 1, idx[1]+2))] })
	st := reversed(r, 3, 2, 2, 5)
	if err := Stack(c, st, 2, []*backend.View[float64]{a, a}, &room); err != nil {
		t.Fatal(err)
	}
	check(t, "Stack", st, func(idx []int) float64 { return a.Data[at(a, []int{idx[0], idx[1], idx[3]})] })
	src := reversed(r, 2, 3)
	tiled := reversed(r, 2, 4, 9) // reps (2, 2, 3)
	if err := Tile(c, tiled, src, &room); err != nil {
		t.Fatal(err)
	}
	check(t, "Tile", tiled, func(idx []int) float64 { return src.Data[at(src, []int{idx[1] % 2, idx[2] % 3})] })
	rep := reversed(r, 2, 12)
	if err := Repeat(c, rep, src, 1, 4, &room); err != nil {
		t.Fatal(err)
	}
	check(t, "Repeat", rep, func(idx []int) float64 { return src.Data[at(src, []int{idx[0], idx[1] / 4})] })
	m := reversed(r, 4, 6)
	for _, k := range []int{-5, -4, -1, 0, 2, 5, 6, 7} {
		n := max(0, min(4, 6-k))
		if k < 0 {
			n = max(0, min(4+k, 6))
		}
		v := reversed(r, n)
		if err := DiagPart(c, v, m, k, &room); err != nil {
			t.Fatal(err)
		}
		check(t, "DiagPart", v, func(idx []int) float64 {
			return m.Data[at(m, []int{idx[0] + max(-k, 0), idx[0] + max(k, 0)})]
		})
		sq := reversed(r, n+abs(k), n+abs(k))
		if err := DiagEmbed(c, sq, v, k, &room); err != nil {
			t.Fatal(err)
		}
		check(t, "DiagEmbed", sq, func(idx []int) float64 {
			if idx[1]-idx[0] != k {
				return 0
			}
			return v.Data[at(v, []int{min(idx[0], idx[1])})]
		})
	}
}

func abs(x int) int { return max(x, -x) }
