package tenferro_test

import (
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/team"
)

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
			kinds[k] = rng.IntN(enginetest.NumLayouts)
		}
		var opts []tf.Option
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

// teamEngine returns an engine with a team of two threads and options
// opts, closed when the test ends.
func teamEngine(tb testing.TB, opts ...cpu.Option) *cpu.Engine {
	tb.Helper()
	tm, err := team.New(team.Threads(2))
	if err != nil {
		tb.Fatal(err)
	}
	e, err := cpu.New(tm, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

func TestEinsumTeamEngine(t *testing.T) {
	e := teamEngine(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range grammarCases[:20] {
		runCase[float64](t, e, rng, c.sub, c.shapes, nil)
	}
	// Big enough to fan out in the GEMM, permutation and element-wise
	// kernels.
	runCase[float64](t, e, rng, "ijb,jkb->ikb", [][]int{{96, 80, 9}, {80, 70, 9}}, []int{enginetest.Transposed, enginetest.Stepped})
	runCase[float64](t, e, rng, "ij,kl->ijkl", [][]int{{40, 30}, {30, 40}}, nil)
	runCase[float32](t, e, rng, "ijk->kji", [][]int{{70, 80, 90}}, []int{enginetest.Reversed})
	runNetworks[float64](t, e, 11, 30)
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
			res[i] = enginetest.Dense(out)
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
