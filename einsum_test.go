package tenferro_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/team"
)

// This file checks einsum evaluation against a reference written here from
// the rules of the grammar alone: it expands the subscripts itself (ellipsis
// right-aligned, size-1 broadcasting, implicit output) and sums directly over
// every label with complex128 accumulation. Each element is compared with a
// bound (n+2)·u·Σ|terms|, n the number of roundings on the longest path
// (operands plus summed terms), u the unit roundoff of T: the bound of a
// recursively or blocked summed product, whatever the contraction order.

// refResult is the reference evaluation of an expression.
type refResult struct {
	shape []int
	val   []complex128 // column-major
	abs   []float64    // Σ |term| per element
	depth int          // rounding depth: summed terms per element plus operands
}

// refAxes expands one operand of subscripts: named labels are code points,
// ellipsis axis j (counted from the right end of the ellipsis, j >= 1) is
// label -j.
func refAxes(term string, rank int) (labels []int, ellipsis int) {
	pre, post, has := strings.Cut(term, "...")
	named := []rune(pre + post)
	if has {
		ellipsis = rank - len(named)
	}
	for _, r := range pre {
		labels = append(labels, int(r))
	}
	for i := range ellipsis {
		labels = append(labels, -(ellipsis - i))
	}
	for _, r := range post {
		labels = append(labels, int(r))
	}
	return labels, ellipsis
}

// reference evaluates subscripts on column-major complex128 data.
func reference(sub string, shapes [][]int, data [][]complex128) refResult {
	sub = strings.ReplaceAll(sub, " ", "")
	lhs, rhs, explicit := strings.Cut(sub, "->")
	terms := strings.Split(lhs, ",")
	axes := make([][]int, len(terms))
	maxE := 0
	count := map[int]int{}
	ext := map[int]int{}
	for k, term := range terms {
		var e int
		axes[k], e = refAxes(term, len(shapes[k]))
		maxE = max(maxE, e)
		for a, l := range axes[k] {
			x := shapes[k][a]
			if cur, ok := ext[l]; !ok || cur == 1 {
				ext[l] = x
			} else if x != 1 && x != cur {
				panic(fmt.Sprintf("reference: label %d extents %d and %d", l, cur, x))
			}
			if l >= 0 {
				count[l]++
			}
		}
	}
	var out []int
	if explicit {
		out, _ = refAxes(rhs, len([]rune(strings.ReplaceAll(rhs, "...", "")))+maxE)
	} else {
		for i := range maxE {
			out = append(out, -(maxE - i))
		}
		var once []int
		for l, c := range count {
			if c == 1 {
				once = append(once, l)
			}
		}
		sort.Ints(once)
		out = append(out, once...)
	}
	var all []int
	for l := range ext {
		all = append(all, l)
	}
	sort.Ints(all)
	res := refResult{depth: len(terms) + 2}
	summed := 1
	for _, l := range all {
		if !slices.Contains(out, l) {
			summed *= ext[l]
		}
	}
	res.depth += summed
	n := 1
	for _, l := range out {
		res.shape = append(res.shape, ext[l])
		n *= ext[l]
	}
	res.val = make([]complex128, n)
	res.abs = make([]float64, n)
	dims := make([]int, len(all))
	total := 1
	for i, l := range all {
		dims[i] = ext[l]
		total *= ext[l]
	}
	// Per dense label position, the stride of each operand (0 along a
	// broadcast axis; repeated labels add up) and of the output.
	pos := map[int]int{}
	for i, l := range all {
		pos[l] = i
	}
	strides := make([][]int, len(terms)+1)
	for k := range terms {
		strides[k] = make([]int, len(all))
		st := 1
		for a, l := range axes[k] {
			if shapes[k][a] != 1 {
				strides[k][pos[l]] += st
			}
			st *= shapes[k][a]
		}
	}
	so := make([]int, len(all))
	st := 1
	for b, l := range out {
		so[pos[l]] += st
		st *= res.shape[b]
	}
	strides[len(terms)] = so
	cur := make([]int, len(all))
	offs := make([]int, len(terms)+1)
	for range total {
		p := complex(1, 0)
		for k := range terms {
			p *= data[k][offs[k]]
		}
		o := offs[len(terms)]
		res.val[o] += p
		res.abs[o] += cmplx.Abs(p)
		for i := range cur {
			cur[i]++
			for k := range offs {
				offs[k] += strides[k][i]
			}
			if cur[i] < dims[i] {
				break
			}
			for k := range offs {
				offs[k] -= strides[k][i] * cur[i]
			}
			cur[i] = 0
		}
	}
	return res
}

func toC128[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

func unitRoundoff[T tf.Scalar]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

// each calls f with every column-major multi-index of shape.
func each(shape []int, f func(idx []int)) {
	n := 1
	for _, x := range shape {
		n *= x
	}
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for a := range idx {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// dense returns t's elements in column-major order as complex128.
func dense[T tf.Scalar](t *tf.Tensor[T]) []complex128 {
	out := make([]complex128, 0, t.Len())
	each(t.Shape(), func(idx []int) {
		v, err := t.At(idx...)
		if err != nil {
			panic(err)
		}
		out = append(out, toC128(v))
	})
	return out
}

// layouts of test operands.
const (
	compact = iota
	transposed
	reversed
	stepped
	nLayouts
)

// operand returns a tensor of shape holding random values, laid out as
// kind asks: compact, a transposed view of a tensor of the reversed shape,
// a view with every axis reversed (negative strides), or every second
// element along each axis of a larger tensor.
func operand[T tf.Scalar](t testing.TB, rng *rand.Rand, shape []int, kind int) *tf.Tensor[T] {
	t.Helper()
	r := len(shape)
	base := slices.Clone(shape)
	switch kind {
	case transposed:
		slices.Reverse(base)
	case stepped:
		for d := range base {
			base[d] *= 2
		}
	}
	buf := make([]T, tf.Numel(base))
	tf.FillRand(rng, buf)
	x, err := tf.FromSlice(buf, base...)
	if err != nil {
		t.Fatal(err)
	}
	switch kind {
	case transposed:
		perm := make([]int, r)
		for d := range perm {
			perm[d] = r - 1 - d
		}
		x, err = x.Permute(perm...)
	case reversed:
		for d := 0; d < r && err == nil; d++ {
			x, err = x.Reverse(d)
		}
	case stepped:
		for d := 0; d < r && err == nil; d++ {
			x, err = x.Slice(d, 0, base[d], 2)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// check compares got with the reference element by element.
func check[T tf.Scalar](t testing.TB, what string, got *tf.Tensor[T], ref refResult) {
	t.Helper()
	if !slices.Equal(got.Shape(), ref.shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), ref.shape)
	}
	g := dense(got)
	u := unitRoundoff[T]()
	for i := range g {
		tol := 4 * float64(ref.depth) * u * ref.abs[i]
		if d := cmplx.Abs(g[i] - ref.val[i]); !(d <= tol) {
			t.Fatalf("%s: element %d = %v, want %v (|diff| %.3g > tol %.3g)", what, i, g[i], ref.val[i], d, tol)
		}
	}
}

// runCase evaluates subscripts on random operands of the given shapes and
// layouts with Einsum (and the given options) and checks the result.
func runCase[T tf.Scalar](t testing.TB, e *cpu.Engine, rng *rand.Rand, sub string, shapes [][]int, kinds []int, opts ...tf.EinsumOption) {
	t.Helper()
	ops := make([]*tf.Tensor[T], len(shapes))
	data := make([][]complex128, len(shapes))
	for k, s := range shapes {
		kind := compact
		if kinds != nil {
			kind = kinds[k]
		}
		ops[k] = operand[T](t, rng, s, kind)
		data[k] = dense(ops[k])
	}
	ref := reference(sub, shapes, data)
	got, err := tf.EinsumWith(e, sub, opts, ops...)
	what := fmt.Sprintf("%s %v %v %v", sub, shapes, kinds, tf.DTypeOf[T]())
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	check(t, what, got, ref)
	if err := got.Release(); err != nil {
		t.Fatal(err)
	}
	for k := range ops {
		if !slices.Equal(dense(ops[k]), data[k]) {
			t.Fatalf("%s: operand %d was modified", what, k)
		}
	}
}

type einsumCase struct {
	sub    string
	shapes [][]int
}

// grammarCases covers every rule of the einsum grammar.
var grammarCases = []einsumCase{
	{"ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
	{"ij,jk", [][]int{{3, 4}, {4, 5}}},     // implicit output ik
	{"ba,ac", [][]int{{3, 4}, {4, 5}}},     // implicit output bc (sorted)
	{"Ba,aB", [][]int{{3, 4}, {4, 3}}},     // implicit output: nothing once: scalar
	{"bA,Ac", [][]int{{3, 2}, {2, 5}}},     // implicit output bc
	{"Zb,ba", [][]int{{2, 3}, {3, 4}}},     // implicit output Za ('Z' < 'a')
	{"ii->i", [][]int{{4, 4}}},             // diagonal
	{"iii->i", [][]int{{3, 3, 3}}},         // diagonal of a cube
	{"jii->ij", [][]int{{2, 3, 3}}},        // partial diagonal, permuted
	{"ii", [][]int{{5, 5}}},                // trace (implicit)
	{"ii->", [][]int{{5, 5}}},              // trace
	{"i->ii", [][]int{{4}}},                // embed a diagonal
	{"ij->iji", [][]int{{3, 2}}},           // embed with another label between
	{"ij->ji", [][]int{{3, 4}}},            // transpose
	{"ij->", [][]int{{3, 4}}},              // total sum
	{"ij->j", [][]int{{3, 4}}},             // column sums
	{"ij->i", [][]int{{3, 4}}},             // row sums
	{"ijk->kij", [][]int{{2, 3, 4}}},       // permutation
	{"ij,ij->ij", [][]int{{3, 4}, {3, 4}}}, // Hadamard
	{"ij,ji->ij", [][]int{{3, 4}, {4, 3}}}, // Hadamard, transposed
	{"i,j->ij", [][]int{{3}, {4}}},         // outer product
	{"i,j->ji", [][]int{{3}, {4}}},         // outer product, transposed
	{"i,i->", [][]int{{7}, {7}}},           // dot
	{"ij,ij->", [][]int{{3, 5}, {3, 5}}},   // Frobenius product
	{"ij,j->i", [][]int{{3, 4}, {4}}},      // matrix-vector
	{"i,ij->j", [][]int{{3}, {3, 4}}},      // vector-matrix
	{",ij->ij", [][]int{{}, {2, 3}}},       // scalar times matrix
	{",->", [][]int{{}, {}}},               // scalars
	{"->", [][]int{{}}},                    // one scalar
	{"i,->i", [][]int{{3}, {}}},            // vector times scalar
	{"bij,bjk->bik", [][]int{{2, 3, 4}, {2, 4, 5}}},
	{"ijb,jkb->ikb", [][]int{{3, 4, 2}, {4, 5, 2}}},
	{"ibj,jbk->kbi", [][]int{{3, 2, 4}, {4, 2, 5}}},
	{"ijab,jkab->ikab", [][]int{{3, 4, 2, 3}, {4, 5, 2, 3}}}, // batch axes fuse
	{"ijab,jkba->ikab", [][]int{{3, 4, 2, 3}, {4, 5, 3, 2}}}, // batch axes loop
	{"ij,jk->ik", [][]int{{3, 1}, {4, 5}}},                   // named label broadcast
	{"ij,ij->ij", [][]int{{3, 1}, {1, 4}}},                   // broadcast both ways
	{"ij,jk->ik", [][]int{{3, 1}, {0, 5}}},                   // 1 against 0 gives 0
	{"ij,jk->ik", [][]int{{3, 0}, {0, 5}}},                   // empty contraction: zeros
	{"ij,jk->ik", [][]int{{0, 4}, {4, 5}}},                   // empty output
	{"i,i->", [][]int{{0}, {0}}},                             // empty dot: zero
	{"ii->i", [][]int{{0, 0}}},                               // empty diagonal
	{"...ij,...jk->...ik", [][]int{{2, 3, 4}, {2, 4, 5}}},
	{"...ij,...jk", [][]int{{2, 1, 3, 4}, {5, 4, 2}}}, // implicit ellipsis first
	{"ij...,jk...->ik...", [][]int{{3, 4, 2, 1}, {4, 5, 3}}},
	{"...i->i", [][]int{{2, 3, 4}}}, // ellipsis summed
	{"...->...", [][]int{{2, 3}}},
	{"i...,i...->...", [][]int{{3}, {3, 2}}}, // ellipsis of rank 0 broadcast
	{"αβ,βγ->αγ", [][]int{{2, 3}, {3, 4}}},   // Unicode labels
	{"日本,本語", [][]int{{2, 3}, {3, 2}}},       // implicit output, Unicode order
	{"ab,bc,cd->ad", [][]int{{2, 3}, {3, 4}, {4, 5}}},
	{"abc,cd,db->a", [][]int{{2, 3, 4}, {4, 5}, {5, 3}}},
	{"iij,jk->ik", [][]int{{3, 3, 4}, {4, 2}}},        // diagonal inside a product
	{"ijk,jl->il", [][]int{{2, 3, 4}, {3, 5}}},        // k summed before the product
	{"ij,kl->", [][]int{{2, 3}, {4, 5}}},              // sums of both sides
	{"ab,ab,ab->ab", [][]int{{3, 4}, {3, 4}, {3, 4}}}, // chained Hadamard
	{"a,b,c->abc", [][]int{{2}, {3}, {4}}},            // chained outer
	{"ij,jk->ikj", [][]int{{2, 3}, {3, 4}}},           // batch-like kept label
	{"i,i->ii", [][]int{{3}, {3}}},                    // Hadamard then embed
	{"ij,jk->iik", [][]int{{2, 3}, {3, 4}}},           // product then embed
	{"ijk->ii", [][]int{{3, 2, 4}}},                   // sums, then embed
	{"ii->ii", [][]int{{3, 3}}},                       // diagonal, then embed
	{"iij->jii", [][]int{{3, 3, 2}}},                  // diagonal, permute, embed
	{"ii,i->i", [][]int{{1, 1}, {3}}},                 // broadcast diagonal
	{"ij,ji->", [][]int{{1, 4}, {4, 3}}},              // broadcast in a trace-like product
	{"abc,abc->", [][]int{{2, 3, 4}, {2, 3, 4}}},      // dot over several labels
	{"ij,jk,kl->il", [][]int{{1, 5}, {5, 6}, {6, 1}}}, // matrix-vector steps
}

func TestEinsumGrammar(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range grammarCases {
		runCase[float64](t, e, rng, c.sub, c.shapes, nil)
		runCase[float32](t, e, rng, c.sub, c.shapes, nil)
		runCase[complex64](t, e, rng, c.sub, c.shapes, nil)
		runCase[complex128](t, e, rng, c.sub, c.shapes, nil)
	}
}

func TestEinsumLayouts(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range grammarCases {
		for kind := range nLayouts {
			kinds := make([]int, len(c.shapes))
			for k := range kinds {
				kinds[k] = (kind + k) % nLayouts
			}
			runCase[float64](t, e, rng, c.sub, c.shapes, kinds)
			runCase[complex64](t, e, rng, c.sub, c.shapes, kinds)
		}
	}
}

// TestEinsumImplicitOutput pins the implicit output against the explicit
// form: ellipsis first, then labels occurring once in code point order.
func TestEinsumImplicitOutput(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	for _, c := range []struct{ implicit, explicit string }{
		{"ij,jk", "ij,jk->ik"},
		{"ba,ac", "ba,ac->bc"},
		{"Zb,ba", "Zb,ba->Za"},
		{"bA,Ac", "bA,Ac->bc"},
		{"ii", "ii->"},
		{"ji", "ji->ij"},
		{"...ij,...jk", "...ij,...jk->...ik"},
		{"日本,本語", "日本,本語->日語"},
	} {
		p1, err := tf.PrepareEinsum(tf.Float64, c.implicit, shapesFor(c.implicit))
		if err != nil {
			t.Fatalf("%s: %v", c.implicit, err)
		}
		p2, err := tf.PrepareEinsum(tf.Float64, c.explicit, shapesFor(c.explicit))
		if err != nil {
			t.Fatalf("%s: %v", c.explicit, err)
		}
		if !slices.Equal(p1.OutputShape(), p2.OutputShape()) {
			t.Fatalf("%s: output shape %v, %s gives %v", c.implicit, p1.OutputShape(), c.explicit, p2.OutputShape())
		}
		if got, want := p1.Plan().Problem.Subscripts(), p2.Plan().Problem.Subscripts(); got != want {
			t.Fatalf("%s: %s, want %s", c.implicit, got, want)
		}
	}
}

// shapesFor gives each label a distinct extent (2 + its first position)
// and the ellipsis two axes of extents 2 and 3.
func shapesFor(sub string) [][]int {
	lhs, _, _ := strings.Cut(sub, "->")
	ext := map[rune]int{}
	var shapes [][]int
	for _, term := range strings.Split(lhs, ",") {
		var s []int
		pre, post, has := strings.Cut(term, "...")
		add := func(part string) {
			for _, r := range part {
				if _, ok := ext[r]; !ok {
					ext[r] = 2 + len(ext)
				}
				s = append(s, ext[r])
			}
		}
		add(pre)
		if has {
			s = append(s, 2, 3)
		}
		add(post)
		shapes = append(shapes, s)
	}
	return shapes
}

var strategies = []einsum.Strategy{einsum.Auto, einsum.Greedy, einsum.Optimal, einsum.RandomGreedy}

// leftToRight is the caller-given path ((0,1), (0,1), ...).
func leftToRight(n int) [][2]int {
	p := make([][2]int, max(n-1, 0))
	for i := range p {
		p[i] = [2]int{0, 1}
	}
	return p
}

// randomNetwork draws a connected-ish network of n operands over a few
// labels with small extents (the reference's work stays small).
func randomNetwork(rng *rand.Rand, n int) (string, [][]int) {
	const pool = "abcdefgh"
	nl := 4 + rng.IntN(4)
	ext := make([]int, nl)
	total := 1
	for i := range ext {
		ext[i] = 1 + rng.IntN(4)
		if total*ext[i] > 4096 {
			ext[i] = 1
		}
		total *= ext[i]
	}
	used := make([]int, nl)
	terms := make([]string, n)
	shapes := make([][]int, n)
	for k := range terms {
		r := 1 + rng.IntN(4)
		var b strings.Builder
		for range r {
			l := rng.IntN(nl)
			if rng.IntN(6) == 0 && len(shapes[k]) > 0 {
				// repeat an earlier label of this operand (a diagonal)
				prev := []rune(b.String())
				l = strings.IndexRune(pool, prev[rng.IntN(len(prev))])
			}
			b.WriteByte(pool[l])
			x := ext[l]
			if rng.IntN(8) == 0 && !strings.ContainsRune(b.String()[:b.Len()-1], rune(pool[l])) {
				x = 1 // broadcast this axis
			}
			shapes[k] = append(shapes[k], x)
			used[l]++
		}
		terms[k] = b.String()
	}
	var out strings.Builder
	for l := range nl {
		if used[l] > 0 && rng.IntN(3) == 0 {
			out.WriteByte(pool[l])
		}
	}
	return strings.Join(terms, ",") + "->" + out.String(), shapes
}

// fixBroadcast makes every axis of a repeated label within one operand
// take the same extent (a requirement of the grammar).
func fixBroadcast(sub string, shapes [][]int) {
	lhs, _, _ := strings.Cut(sub, "->")
	full := map[rune]int{}
	for k, term := range strings.Split(lhs, ",") {
		for a, r := range []rune(term) {
			full[r] = max(full[r], shapes[k][a])
		}
	}
	for k, term := range strings.Split(lhs, ",") {
		seen := map[rune]int{}
		for a, r := range []rune(term) {
			if prev, ok := seen[r]; ok {
				shapes[k][a] = shapes[k][prev]
			} else {
				seen[r] = a
			}
		}
	}
}

func runNetworks[T tf.Scalar](t *testing.T, e *cpu.Engine, seed uint64, count int) {
	rng := rand.New(rand.NewPCG(seed, 99))
	for range count {
		n := 3 + rng.IntN(4)
		sub, shapes := randomNetwork(rng, n)
		fixBroadcast(sub, shapes)
		kinds := make([]int, n)
		for k := range kinds {
			kinds[k] = rng.IntN(nLayouts)
		}
		var opts []tf.EinsumOption
		if s := rng.IntN(len(strategies) + 1); s < len(strategies) {
			opts = append(opts, tf.WithStrategy(strategies[s]), tf.WithSeed(rng.Uint64()))
		} else {
			opts = append(opts, tf.WithPath(leftToRight(n)))
		}
		runCase[T](t, e, rng, sub, shapes, kinds, opts...)
	}
}

func TestEinsumRandomNetworks(t *testing.T) {
	count := 150
	if testing.Short() {
		count = 40
	}
	e := cpu.Serial()
	defer e.Close()
	runNetworks[float64](t, e, 1, count)
	runNetworks[float32](t, e, 2, count)
	runNetworks[complex64](t, e, 3, count)
	runNetworks[complex128](t, e, 4, count)
}

// TestEinsumStrategiesAgree evaluates multi-operand expressions with every
// strategy and a given path: all agree with the reference.
func TestEinsumStrategiesAgree(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []einsumCase{
		{"ab,bc,cd,de->ae", [][]int{{3, 7}, {7, 2}, {2, 9}, {9, 4}}},
		{"abc,bd,cde,ea->", [][]int{{2, 3, 4}, {3, 5}, {4, 5, 2}, {2, 2}}},
		{"ij,jk,kl,li->", [][]int{{3, 4}, {4, 5}, {5, 6}, {6, 3}}},
		{"aib,bjc,ckd,dla->ijkl", [][]int{{2, 3, 2}, {2, 3, 2}, {2, 3, 2}, {2, 3, 2}}},
		{"pqr,rs,sq,p->", [][]int{{2, 3, 4}, {4, 5}, {5, 3}, {2}}},
	}
	for _, c := range cases {
		for _, s := range strategies {
			runCase[float64](t, e, rng, c.sub, c.shapes, nil, tf.WithStrategy(s))
			runCase[complex128](t, e, rng, c.sub, c.shapes, nil, tf.WithStrategy(s), tf.WithSeed(7))
		}
		runCase[float64](t, e, rng, c.sub, c.shapes, nil, tf.WithPath(leftToRight(len(c.shapes))))
		n := len(c.shapes)
		runCase[float32](t, e, rng, c.sub, c.shapes, nil, tf.WithPath(rightPath(n)))
	}
}

// rightPath contracts the last two operands first, then the result with
// the next one from the right: ((n-2, n-1), (n-3, n-2), ...).
func rightPath(n int) [][2]int {
	p := make([][2]int, n-1)
	for i := range p {
		p[i] = [2]int{n - 2 - i, n - 1 - i}
	}
	return p
}

func TestEinsumTeamEngine(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	e, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range grammarCases[:20] {
		runCase[float64](t, e, rng, c.sub, c.shapes, nil)
	}
	// Big enough to fan out in the GEMM, permutation and element-wise
	// kernels.
	runCase[float64](t, e, rng, "ijb,jkb->ikb", [][]int{{96, 80, 9}, {80, 70, 9}}, []int{transposed, stepped})
	runCase[float64](t, e, rng, "ij,kl->ijkl", [][]int{{40, 30}, {30, 40}}, nil)
	runCase[float32](t, e, rng, "ijk->kji", [][]int{{70, 80, 90}}, []int{reversed})
	runNetworks[float64](t, e, 11, 30)
}

// dstView returns a view of shape over a larger buffer filled with guard,
// laid out as kind asks (see operand), and the buffer.
func dstView(t testing.TB, shape []int, kind int, guard float64) (*tf.Tensor[float64], *tf.Tensor[float64]) {
	t.Helper()
	r := len(shape)
	base := slices.Clone(shape)
	switch kind {
	case transposed:
		slices.Reverse(base)
	case stepped:
		for d := range base {
			base[d] = 2*base[d] + 1
		}
	}
	b, err := tf.Full(guard, base...)
	if err != nil {
		t.Fatal(err)
	}
	v := b
	switch kind {
	case transposed:
		perm := make([]int, r)
		for d := range perm {
			perm[d] = r - 1 - d
		}
		v, err = b.Permute(perm...)
	case reversed:
		for d := 0; d < r && err == nil; d++ {
			v, err = v.Reverse(d)
		}
	case stepped:
		for d := 0; d < r && err == nil; d++ {
			v, err = v.Slice(d, 1, base[d], 2)
		}
	}
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

// TestEinsumIntoStridedDst writes into transposed, reversed and stepped
// destinations (the last step then writes through dst's strides, or
// through a compact buffer when they do not fuse) and checks that nothing
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
		for kind := range nLayouts {
			ops := make([]*tf.Tensor[float64], len(c.shapes))
			data := make([][]complex128, len(c.shapes))
			for k, s := range c.shapes {
				ops[k] = operand[float64](t, rng, s, (kind+k)%nLayouts)
				data[k] = dense(ops[k])
			}
			ref := reference(c.sub, c.shapes, data)
			dst, buf := dstView(t, ref.shape, kind, guard)
			outside := buf.Len() - dst.Len()
			if err := tf.EinsumInto(e, dst, c.sub, ops...); err != nil {
				t.Fatalf("%s layout %d: %v", c.sub, kind, err)
			}
			what := fmt.Sprintf("EinsumInto %s layout %d", c.sub, kind)
			check(t, what, dst, ref)
			if n := guarded(t, buf, guard); n != outside {
				t.Fatalf("%s: %d guard elements left, want %d", what, n, outside)
			}
			p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes)
			if err != nil {
				t.Fatal(err)
			}
			dst2, buf2 := dstView(t, ref.shape, kind, guard)
			if err := tf.EinsumPlannedInto(e, p, dst2, ops...); err != nil {
				t.Fatalf("%s layout %d: %v", c.sub, kind, err)
			}
			check(t, "EinsumPlannedInto "+what, dst2, ref)
			if n := guarded(t, buf2, guard); n != outside {
				t.Fatalf("%s: planned: %d guard elements left, want %d", what, n, outside)
			}
			got, err := tf.EinsumPlanned(e, p, ops...)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "EinsumPlanned "+what, got, ref)
			got.Release()
		}
	}
}

func TestEinsumErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	a := operand[float64](t, rng, []int{2, 3}, compact)
	b := operand[float64](t, rng, []int{4, 5}, compact)
	c := operand[float64](t, rng, []int{3, 5}, compact)
	const guard = 42.25
	dst, buf := dstView(t, []int{2, 5}, compact, guard)
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
	mustFail("extent conflict into dst", err, tf.ErrShape, "'j'", "operand 1")
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
	mustFail("broadcast dst", err, tf.ErrLayout)

	// dst aliasing an operand.
	sq := operand[float64](t, rng, []int{3, 3}, compact)
	err = tf.EinsumInto(e, sq, "ij,jk->ik", sq, sq)
	if !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("aliasing dst: %v", err)
	}

	// Prepared plans check dtype and shapes.
	p, err := tf.PrepareEinsum(tf.Float64, "ij,jk->ik", [][]int{{2, 3}, {3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	err = tf.EinsumPlannedInto(e, p, dst, a, b)
	mustFail("planned shapes", err, tf.ErrShape, "operand 1")
	a32 := operand[float32](t, rng, []int{2, 3}, compact)
	c32 := operand[float32](t, rng, []int{3, 5}, compact)
	if _, err := tf.EinsumPlanned(e, p, a32, c32); !errors.Is(err, tf.ErrDType) {
		t.Fatalf("planned dtype: %v", err)
	}
	if err := tf.EinsumPlannedInto(e, nil, dst, a, c); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("nil plan: %v", err)
	}
	untouched("nil plan")

	// A memory limit no path can respect fails planning.
	_, err = tf.EinsumWith(e, "ab,bc,cd->ad", []tf.EinsumOption{tf.WithMemoryLimit(1)}, a, c, operand[float64](t, rng, []int{5, 2}, compact))
	if !errors.Is(err, einsum.ErrMemoryLimit) {
		t.Fatalf("memory limit: %v", err)
	}

	// Released operands are refused.
	r := operand[float64](t, rng, []int{3, 5}, compact)
	r.Release()
	err = tf.EinsumInto(e, dst, "ij,jk->ik", a, r)
	mustFail("released operand", err, tf.ErrReleased, "operand 1")

	// The engine's own method rejects mismatched element types.
	if err := e.Einsum(dst, p.Plan(), []any{a32, c32}); !errors.Is(err, tf.ErrDType) {
		t.Fatalf("engine dtype check: %v", err)
	}
	untouched("engine dtype check")
	if err := e.Einsum(dst, p.Plan(), []any{a}); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("engine operand count: %v", err)
	}
	untouched("engine operand count")
	if err := e.Einsum(dst, nil, []any{a, c}); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("engine nil plan: %v", err)
	}
	if err := e.Einsum([]float64{1}, p.Plan(), []any{a, c}); !errors.Is(err, tf.ErrDType) {
		t.Fatalf("engine dst type: %v", err)
	}
	untouched("engine argument checks")

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

type numpyCase struct {
	Sub    string  `json:"sub"`
	Shapes [][]int `json:"shapes"`
	DType  string  `json:"dtype"`
}

// TestEinsumNumPy compares with np.einsum on the grammar cases NumPy
// accepts and on random networks, in all four dtypes. It is skipped when
// python3 with NumPy is not installed.
func TestEinsumNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	dtypes := []string{"f8", "f4", "c8", "c16"}
	var cases []numpyCase
	for i, c := range grammarCases {
		_, out, _ := strings.Cut(c.sub, "->")
		if hasRepeat(out) {
			continue // NumPy rejects output diagonals
		}
		cases = append(cases, numpyCase{c.sub, c.shapes, dtypes[i%4]})
	}
	rng := rand.New(rand.NewPCG(17, 18))
	nets := 40
	if testing.Short() {
		nets = 12
	}
	for i := range nets {
		sub, shapes := randomNetwork(rng, 3+rng.IntN(4))
		fixBroadcast(sub, shapes)
		cases = append(cases, numpyCase{sub, shapes, dtypes[i%4]})
	}
	dir := t.TempDir()
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(python, "-c", numpyScript, filepath.Join(dir, "cases.json"), dir).CombinedOutput(); err != nil {
		t.Fatalf("numpy script: %v\n%s", err, out)
	}
	st, err := os.ReadFile(filepath.Join(dir, "status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var status []string
	if err := json.Unmarshal(st, &status); err != nil || len(status) != len(cases) {
		t.Fatalf("status: %v (%d entries for %d cases)", err, len(status), len(cases))
	}
	e := cpu.Serial()
	defer e.Close()
	compared := 0
	for i, c := range cases {
		if status[i] != "ok" {
			t.Logf("%s %v: skipped (%s)", c.Sub, c.Shapes, status[i])
			continue
		}
		switch c.DType {
		case "f4":
			numpyCompare[float32](t, e, dir, i, c)
		case "f8":
			numpyCompare[float64](t, e, dir, i, c)
		case "c8":
			numpyCompare[complex64](t, e, dir, i, c)
		case "c16":
			numpyCompare[complex128](t, e, dir, i, c)
		}
		compared++
	}
	if compared < len(cases)*3/4 {
		t.Fatalf("only %d of %d cases compared", compared, len(cases))
	}
}

func hasRepeat(s string) bool {
	seen := map[rune]bool{}
	for _, r := range s {
		if r != '.' && seen[r] {
			return true
		}
		seen[r] = true
	}
	return false
}

func readNpy(t *testing.T, path string) *npy.Array {
	t.Helper()
	a, err := npy.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func numpyCompare[T tf.Scalar](t *testing.T, e *cpu.Engine, dir string, i int, c numpyCase) {
	t.Helper()
	ops := make([]*tf.Tensor[T], len(c.Shapes))
	data := make([][]complex128, len(c.Shapes))
	for k := range ops {
		a := readNpy(t, filepath.Join(dir, fmt.Sprintf("c%d_op%d.npy", i, k)))
		x, err := tf.FromSlice(a.ColumnMajor().([]T), a.Shape...)
		if err != nil {
			t.Fatal(err)
		}
		ops[k], data[k] = x, dense(x)
	}
	got, err := tf.Einsum(e, c.Sub, ops...)
	if err != nil {
		t.Fatalf("%s %v: %v", c.Sub, c.Shapes, err)
	}
	defer got.Release()
	want := readNpy(t, filepath.Join(dir, fmt.Sprintf("c%d_out.npy", i)))
	abs := readNpy(t, filepath.Join(dir, fmt.Sprintf("c%d_abs.npy", i))).ColumnMajor().([]float64)
	if !slices.Equal(got.Shape(), want.Shape) {
		t.Fatalf("%s %v: shape %v, NumPy %v", c.Sub, c.Shapes, got.Shape(), want.Shape)
	}
	var w []complex128
	switch v := want.ColumnMajor().(type) {
	case []float64:
		for _, x := range v {
			w = append(w, complex(x, 0))
		}
	case []complex128:
		w = v
	}
	// The rounding depth comes from the reference's count of summed terms.
	depth := reference(c.Sub, c.Shapes, data).depth
	g := dense(got)
	u := unitRoundoff[T]()
	for j := range g {
		tol := 4*float64(depth)*u*abs[j] + 1e-300
		if d := cmplx.Abs(g[j] - w[j]); !(d <= tol) {
			t.Fatalf("%s %v %s: element %d = %v, NumPy %v (|diff| %.3g > %.3g)", c.Sub, c.Shapes, c.DType, j, g[j], w[j], d, tol)
		}
	}
}

// benchCases are a tiny product (overhead), a matrix chain, batched products with the batch axis last
// (each item contiguous) and first (fastest, strided items) and an MPS-like
// contraction.
var benchCases = []einsumCase{
	{"ij,jk->ik", [][]int{{4, 4}, {4, 4}}}, // dispatch overhead
	{"ab,bc,cd->ad", [][]int{{64, 64}, {64, 64}, {64, 64}}},
	{"ab,bc,cd->ad", [][]int{{256, 256}, {256, 256}, {256, 256}}},
	{"ijb,jkb->ikb", [][]int{{32, 32, 64}, {32, 32, 64}}},
	{"bij,bjk->bik", [][]int{{64, 32, 32}, {64, 32, 32}}},
	{"ab,apc,bpd->cd", [][]int{{64, 64}, {64, 4, 64}, {64, 4, 64}}},
}

// BenchmarkEinsum compares a prepared plan evaluated into a reused
// destination (EinsumPlannedInto) with the one-call form (Einsum: plan
// cache lookup, pooled output, Release), on a serial engine.
func BenchmarkEinsum(b *testing.B) {
	for _, c := range benchCases {
		e := cpu.Serial()
		rng := rand.New(rand.NewPCG(1, 1))
		ops := make([]*tf.Tensor[float64], len(c.shapes))
		for k, s := range c.shapes {
			ops[k] = operand[float64](b, rng, s, compact)
		}
		p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes)
		if err != nil {
			b.Fatal(err)
		}
		dst, _ := tf.Zeros[float64](p.OutputShape()...)
		flops := p.Plan().Flops
		name := fmt.Sprintf("%s/%v", c.sub, c.shapes[0])
		b.Run(name+"/prepared", func(b *testing.B) {
			for b.Loop() {
				if err := tf.EinsumPlannedInto(e, p, dst, ops...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(name+"/unprepared", func(b *testing.B) {
			for b.Loop() {
				out, err := tf.Einsum(e, c.sub, ops...)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		e.Close()
	}
}

// pathDepth bounds the relative rounding error, in units of u, of a plan
// evaluated on positive data: every step adds at most its summation
// length (the contracted extent K and any pre-reduced extent) plus one
// multiplication, and relative errors of positive sums add up.
func pathDepth(pl *einsum.Plan) float64 {
	ext := pl.Problem.Extents
	prod := func(labels []int) float64 {
		n := 1.0
		for _, l := range labels {
			n *= float64(ext[l])
		}
		return n
	}
	d := prod(pl.Final.Reduce) + 1
	for _, st := range pl.Steps {
		d += float64(st.K) + prod(st.LeftReduce) + prod(st.RightReduce) + 2
	}
	return d
}

// TestEinsumBuiltinInstances evaluates the project's own workloads (long
// chains, MPS ladders, MERA, random regular graphs) with two optimizers on
// positive data, so that every term is positive and the results must agree
// to the sum of both plans' rounding bounds, relative to the value.
func TestEinsumBuiltinInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: several networks of 20-30 tensors")
	}
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(41, 42))
	for _, in := range instances.Builtin(1) {
		ops := make([]*tf.Tensor[float64], len(in.Shapes))
		for k, s := range in.Shapes {
			buf := make([]float64, tf.Numel(s))
			for i := range buf {
				buf[i] = 0.5 + rng.Float64()
			}
			ops[k], _ = tf.FromSlice(buf, s...)
		}
		var res [2][]complex128
		depth := 0.0
		for i, s := range []einsum.Strategy{einsum.Auto, einsum.Greedy} {
			p, err := tf.PrepareEinsum(tf.Float64, in.Subscripts, in.Shapes, tf.WithStrategy(s))
			if err != nil {
				t.Fatalf("%s: %v", in.Name, err)
			}
			out, err := tf.EinsumPlanned(e, p, ops...)
			if err != nil {
				t.Fatalf("%s: %v", in.Name, err)
			}
			res[i] = dense(out)
			out.Release()
			depth += pathDepth(p.Plan())
		}
		for i := range res[0] {
			a, g := res[0][i], res[1][i]
			tol := 2 * depth * 0x1p-53 * cmplx.Abs(a)
			if d := cmplx.Abs(a - g); !(d <= tol) {
				t.Fatalf("%s: element %d: Auto %v, Greedy %v (|diff| %.3g > %.3g)", in.Name, i, a, g, d, tol)
			}
		}
	}
}
