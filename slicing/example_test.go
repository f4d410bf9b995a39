package slicing_test

import (
	"bytes"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/slicing"
)

// A chain of three matrices whose intermediate (20 × 5 float64 values,
// 800 bytes) does not fit 200 bytes: slicing j in 4 chunks of 5 values
// leaves five rows of it per slice.
func ExampleNew() {
	shapes := [][]int{{10, 20}, {20, 30}, {30, 5}}
	p, err := slicing.New(tf.Float64, "ij,jk,kl->il", shapes, 200)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.SlicedLabels, p.SlicedExtents, p.SlicedWidths, p.Slices, p.SlicePeakBytes, p.FlopOverhead, p.OutputShape)
	_, err = slicing.New(tf.Float64, "ij,jk,kl->il", shapes, 16)
	fmt.Println(err)
	// Output:
	// [j] [20] [5] 4 200 1 [10 5]
	// tenferro: slicing.New: limitBytes: memory budget exceeded: expected at least 40 bytes (the smallest peak one slice reaches in f64), got 16: einsum: slice: memory limit of 2 elements is below the smallest peak one slice reaches, 5 elements (with every summed label sliced)
}

// Plans travel as JSON; Read checks every field against the others.
func ExampleRead() {
	p, _ := slicing.New(tf.Float64, "ij,jk,kl->il", [][]int{{10, 20}, {20, 30}, {30, 5}}, 200)
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		panic(err)
	}
	q, err := slicing.Read(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(q.Subscripts, q.Path, q.SlicedLabels, q.Slices)
	_, err = slicing.Read(bytes.NewBufferString(`{"subscripts": "ij,jk->ik", "shapes": [[2, 3], [3, 4]], "dtype": "f64", "path": [[0, 1]], "sliced_labels": ["j"], "sliced_extents": [3], "slices": 2, "output_shape": [2, 4]}`))
	fmt.Println(err)
	// Output:
	// ij,jk,kl->il [[1 2] [0 1]] [j] 4
	// tenferro: slicing.Read: p.Slices: invalid argument: expected 3 (the product of the sliced labels' numbers of chunks), got 2
}

// Workers evaluate ranges of slices; a Reducer sums their partial results
// once each.
func ExampleContractRange() {
	e := cpu.Serial()
	defer e.Close()
	p, _ := slicing.New(tf.Float64, "ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 2}}, 16)
	a, _ := tf.Ones[float64](2, 3)
	b, _ := tf.Ones[float64](3, 4)
	c, _ := tf.Ones[float64](4, 2)
	ops := []tf.Value{tf.ValueOf(a), tf.ValueOf(b), tf.ValueOf(c)}
	if err := p.Check(ops); err != nil {
		panic(err)
	}
	r, _ := slicing.NewReducer(p)
	for _, rg := range [][2]int{{0, 2}, {2, p.Slices}, {0, 2}} { // the last one is a repeat
		partial, _ := tf.NewValue(tf.Float64, p.OutputShape...)
		if err := slicing.ContractRange(e, p, rg[0], rg[1], ops, partial); err != nil {
			panic(err)
		}
		added, err := r.Add(rg[0], rg[1], partial)
		done, total := r.Progress()
		fmt.Println(rg, added, err, done, total)
	}
	out, _ := r.Result()
	fmt.Println(p.SlicedLabels, out)
	// Output:
	// [0 2] true <nil> 2 3
	// [2 3] true <nil> 3 3
	// [0 2] false <nil> 3 3
	// [j] Tensor[f64] (2, 2)
	// [[12 12]
	//  [12 12]]
}

// Overlapping ranges that are not the same range are refused.
func ExampleReducer_Add() {
	p, _ := slicing.New(tf.Float64, "ij,jk,kl->il", [][]int{{10, 20}, {20, 30}, {30, 5}}, 40)
	r, _ := slicing.NewReducer(p)
	partial, _ := tf.NewValue(tf.Float64, p.OutputShape...)
	fmt.Println(r.Add(0, 10, partial))
	fmt.Println(r.Add(5, 15, partial))
	fmt.Println(r.Done())
	// Output:
	// true <nil>
	// false tenferro: slicing.Reducer.Add: lo, hi: invalid argument: expected a range disjoint from the added [0, 10) or equal to it, got [5, 15)
	// false
}

// A batch label that every intermediate carries: under 320 bytes (40
// float64 values), New finds no slicing of the summed labels j and k
// that fits, while NewWith with SliceOutput slices the batch label b, in
// 8 chunks of 2 values, at no extra FLOPs: each slice computes its part
// of the 4 × 3 × 16 result.
func ExampleNewWith() {
	const sub = "ijb,jkb,klb->ilb"
	shapes := [][]int{{4, 6, 16}, {6, 5, 16}, {5, 3, 16}}
	_, err := slicing.New(tf.Float64, sub, shapes, 320)
	fmt.Println(err != nil)
	p, err := slicing.NewWith(tf.Float64, sub, shapes, 320, einsum.Options{SliceOutput: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.SlicedLabels, p.SlicedWidths, p.Slices, p.SlicePeakBytes <= 320, p.FlopOverhead, p.OutputShape)
	// Output:
	// true
	// [b] [2] 8 true 1 [4 3 16]
}
