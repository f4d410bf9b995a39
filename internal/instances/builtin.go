package instances

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
)

// Builtin returns the project's own einsum suite, generated from seed: the
// same seed always gives the same instances. All are float64 with
// column-major subscripts, an explicit output and no shipped path (the
// suite computes paths). Sizes are modest: each runs in well under a
// second on one core with a good path. Every instance uses at most 52
// labels, so NumPy's einsum can run it too.
//
// The set: a chain of 20 matrices with varied extents, an MPS inner product
// (17 sites, physical extent 2, bonds 32-64) as a ladder network, a
// two-layer binary MERA on 8 sites (physical extent 3, bonds up to 9)
// closed with its mirror image, two random 3-regular
// graph networks (20 tensors with bonds 2-4, 30 tensors with bonds 4-6),
// and fixed diagnostics: matmul, batched matmul (batch axis last), a
// permuted contraction, a triangle trace, an outer product and a Hadamard
// product. Names start with "builtin_" and are unique.
func Builtin(seed uint64) []Instance {
	rng := func(k uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, k)) }
	return []Instance{
		matrixChain(rng(1), 20),
		mpsInner(rng(2), 17, 2, 32, 64),
		mera(8, 3, 9),
		randomRegular(rng(4), "builtin_random_regular3_20", 20, 2, 4),
		randomRegular(rng(5), "builtin_random_regular3_30", 30, 4, 6),
		fixed("builtin_matmul_256", "Plain matrix product C = A B, 256^3.",
			"ik,kj->ij", [][]int{{256, 256}, {256, 256}}),
		fixed("builtin_batched_matmul_b16_m96_n80_k64", "Batched matrix product with the batch axis last, so each batch slice is contiguous.",
			"ikb,kjb->ijb", [][]int{{96, 64, 16}, {64, 80, 16}}),
		fixed("builtin_permuted_contraction_5d", "Contraction over two axes whose operands and output need permuting around a GEMM.",
			"abcd,dbe->eca", [][]int{{24, 16, 20, 12}, {12, 16, 28}}),
		fixed("builtin_trace_triangle_200", "Trace of a product of three matrices: a cyclic network.",
			"ij,jk,ki->", [][]int{{200, 200}, {200, 200}, {200, 200}}),
		fixed("builtin_outer_product_1000", "Outer product diagnostic: no contraction, output-bound.",
			"i,j->ij", [][]int{{1000}, {1000}}),
		fixed("builtin_hadamard_1024", "Elementwise (Hadamard) product diagnostic: memory-bound.",
			"ij,ij->ij", [][]int{{1024, 1024}, {1024, 1024}}),
	}
}

// network builds an einsum instance tensor by tensor.
type network struct {
	labels []rune
	dims   map[rune]int
	ops    [][]rune
}

func newNetwork() *network { return &network{dims: map[rune]int{}} }

// label returns a fresh label of the given extent.
func (n *network) label(extent int) rune {
	l := labelAt(len(n.labels))
	n.labels = append(n.labels, l)
	n.dims[l] = extent
	return l
}

// tensor adds an operand with the given labels (axes in column-major order).
func (n *network) tensor(ls ...rune) { n.ops = append(n.ops, ls) }

func (n *network) instance(name, desc string, out []rune) Instance {
	terms := make([]string, len(n.ops))
	shapes := make([][]int, len(n.ops))
	for i, op := range n.ops {
		terms[i] = string(op)
		shapes[i] = make([]int, len(op))
		for k, l := range op {
			shapes[i][k] = n.dims[l]
		}
	}
	return fixed(name, desc, strings.Join(terms, ",")+"->"+string(out), shapes)
}

func fixed(name, desc, subscripts string, shapes [][]int) Instance {
	return Instance{
		Name:               name,
		Description:        desc,
		Subscripts:         subscripts,
		Shapes:             shapes,
		RowMajorSubscripts: reverseOperands(subscripts),
		RowMajorShapes:     reverseShapes(shapes),
		DType:              "float64",
	}
}

// labelAt returns the i-th label: 'a'-'z', then 'A'-'Z', then Unicode
// letters from U+00C0 on.
func labelAt(i int) rune {
	switch {
	case i < 26:
		return 'a' + rune(i)
	case i < 52:
		return 'A' + rune(i-26)
	}
	i -= 52
	for r := rune(0xC0); ; r++ {
		if unicode.IsLetter(r) {
			if i == 0 {
				return r
			}
			i--
		}
	}
}

// matrixChain is A1 A2 ... An with extents drawn from [16, 160].
func matrixChain(rng *rand.Rand, n int) Instance {
	net := newNetwork()
	ls := make([]rune, n+1)
	for i := range ls {
		ls[i] = net.label(16 + rng.IntN(145))
	}
	for i := range n {
		net.tensor(ls[i], ls[i+1])
	}
	return net.instance(fmt.Sprintf("builtin_matrix_chain_%d", n),
		"Product of a chain of matrices with varied extents: the path decides the cost.",
		[]rune{ls[0], ls[n]})
}

// mpsInner is the inner product of two open-boundary MPS of length L with
// physical extent d and independent bond extents in [lo, hi]. Site tensors
// have axes (left bond, physical, right bond).
func mpsInner(rng *rand.Rand, length, d, lo, hi int) Instance {
	net := newNetwork()
	phys := make([]rune, length)
	for i := range phys {
		phys[i] = net.label(d)
	}
	for range 2 { // ket, then bra
		var left rune
		for i := range length {
			var ls []rune
			if i > 0 {
				ls = append(ls, left)
			}
			ls = append(ls, phys[i])
			if i < length-1 {
				left = net.label(lo + rng.IntN(hi-lo+1))
				ls = append(ls, left)
			}
			net.tensor(ls...)
		}
	}
	return net.instance(fmt.Sprintf("builtin_mps_inner_product_%d", length),
		fmt.Sprintf("Inner product of two MPS (%d sites, physical extent %d, bonds %d-%d): a ladder network.", length, d, lo, hi),
		nil)
}

// mera is <psi|psi> for a binary MERA on a ring of sites (a power of two)
// with physical extent d and bond extent at most chi: layers of
// disentanglers (axes: two inputs, two outputs) and isometries (two inputs,
// one output) halve the width down to two legs closed by a top tensor. The
// bra is a mirror copy sharing the physical legs.
func mera(sites, d, chi int) Instance {
	net := newNetwork()
	phys := make([]rune, sites)
	for i := range phys {
		phys[i] = net.label(d)
	}
	for range 2 {
		cur := append([]rune(nil), phys...)
		for w := sites; w > 2; w /= 2 {
			for i := range w / 2 {
				a, b := 2*i+1, (2*i+2)%w
				na, nb := net.label(net.dims[cur[a]]), net.label(net.dims[cur[b]])
				net.tensor(cur[a], cur[b], na, nb)
				cur[a], cur[b] = na, nb
			}
			next := make([]rune, w/2)
			for i := range next {
				a, b := cur[2*i], cur[2*i+1]
				next[i] = net.label(min(chi, net.dims[a]*net.dims[b]))
				net.tensor(a, b, next[i])
			}
			cur = next
		}
		net.tensor(cur...)
	}
	return net.instance(fmt.Sprintf("builtin_mera_closed_%d", sites),
		fmt.Sprintf("Norm of a binary MERA on %d sites (physical extent %d, bonds up to %d): a layered network.", sites, d, chi),
		nil)
}

// randomRegular is a closed network on a random simple 3-regular graph of n
// vertices (n even): one tensor per vertex, one label per edge with extent
// in [lo, hi]. The graph comes from the configuration model, redrawn until
// it has no loops or multiple edges.
func randomRegular(rng *rand.Rand, name string, n, lo, hi int) Instance {
	const degree = 3
	stubs := make([]int, n*degree)
	var edges [][2]int
	for {
		for i := range stubs {
			stubs[i] = i / degree
		}
		rng.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
		edges = edges[:0]
		seen := map[[2]int]bool{}
		simple := true
		for i := 0; i < len(stubs); i += 2 {
			u, v := min(stubs[i], stubs[i+1]), max(stubs[i], stubs[i+1])
			if u == v || seen[[2]int{u, v}] {
				simple = false
				break
			}
			seen[[2]int{u, v}] = true
			edges = append(edges, [2]int{u, v})
		}
		if simple {
			break
		}
	}
	net := newNetwork()
	legs := make([][]rune, n)
	for _, e := range edges {
		l := net.label(lo + rng.IntN(hi-lo+1))
		legs[e[0]] = append(legs[e[0]], l)
		legs[e[1]] = append(legs[e[1]], l)
	}
	for _, ls := range legs {
		net.tensor(ls...)
	}
	return net.instance(name,
		fmt.Sprintf("Closed network on a random 3-regular graph: %d tensors, bonds %d-%d; tests path search.", n, lo, hi),
		nil)
}
