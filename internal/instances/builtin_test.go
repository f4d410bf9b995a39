package instances

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestBuiltinDeterministic(t *testing.T) {
	a, b := Builtin(7), Builtin(7)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("Builtin(7) differs between calls")
	}
	c := Builtin(8)
	if reflect.DeepEqual(a, c) {
		t.Fatal("Builtin(7) and Builtin(8) are identical: the seed has no effect")
	}
	if len(a) != len(c) {
		t.Fatalf("instance count depends on the seed: %d vs %d", len(a), len(c))
	}
	for i := range a {
		if a[i].Name != c[i].Name {
			t.Fatalf("names depend on the seed: %q vs %q", a[i].Name, c[i].Name)
		}
	}
}

func TestBuiltinWellFormed(t *testing.T) {
	for _, seed := range []uint64{0, 1, 7, 12345} {
		insts := Builtin(seed)
		names := map[string]bool{}
		for _, in := range insts {
			if names[in.Name] {
				t.Fatalf("duplicate name %q", in.Name)
			}
			names[in.Name] = true
			if !strings.HasPrefix(in.Name, "builtin_") || in.Description == "" {
				t.Errorf("%q: bad name or no description", in.Name)
			}
			if err := in.Validate(); err != nil {
				t.Errorf("seed %d: %v", seed, err)
			}
			if len(in.Paths) != 0 {
				t.Errorf("%q ships a path", in.Name)
			}
			checkStrict(t, in)
		}
	}
}

// checkStrict re-checks a built-in instance independently of Validate and
// more strictly: every label has one extent everywhere (no broadcasting),
// labels are letters, at most 52 distinct labels (NumPy's limit), the
// output has no repeats, and every contracted label occurs exactly twice.
func checkStrict(t *testing.T, in Instance) {
	t.Helper()
	lhs, out, ok := strings.Cut(in.Subscripts, "->")
	if !ok {
		t.Fatalf("%q: no explicit output", in.Name)
	}
	ops := strings.Split(lhs, ",")
	if len(ops) != len(in.Shapes) {
		t.Fatalf("%q: %d operands, %d shapes", in.Name, len(ops), len(in.Shapes))
	}
	ext := map[rune]int{}
	count := map[rune]int{}
	for i, op := range ops {
		rs := []rune(op)
		if len(rs) != len(in.Shapes[i]) {
			t.Fatalf("%q: operand %d %q has shape %v", in.Name, i, op, in.Shapes[i])
		}
		for k, r := range rs {
			d := in.Shapes[i][k]
			if d < 1 {
				t.Fatalf("%q: extent %d", in.Name, d)
			}
			if old, ok := ext[r]; ok && old != d {
				t.Fatalf("%q: label %q has extents %d and %d", in.Name, r, old, d)
			}
			ext[r] = d
			count[r]++
		}
	}
	if len(ext) > 52 {
		t.Errorf("%q: %d labels, over NumPy's 52", in.Name, len(ext))
	}
	outSet := map[rune]bool{}
	for _, r := range out {
		if outSet[r] || count[r] == 0 {
			t.Fatalf("%q: output label %q repeated or unknown", in.Name, r)
		}
		outSet[r] = true
	}
	for r, c := range count {
		if !outSet[r] && c != 2 && !strings.Contains(in.Name, "hadamard") {
			t.Errorf("%q: contracted label %q occurs %d times", in.Name, r, c)
		}
	}
	for r := range ext {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			t.Errorf("%q: label %q is not an ASCII letter", in.Name, r)
		}
	}
}

// greedyCost estimates the cost of contracting an instance with a simple
// greedy pairwise path (always contract the pair whose result is smallest
// relative to its inputs): total multiply-adds and largest intermediate.
// It bounds what a good path costs, so it checks sizes stay modest.
func greedyCost(in Instance) (flops, largest float64) {
	lhs, out, _ := strings.Cut(in.Subscripts, "->")
	ext := map[rune]float64{}
	var ops [][]rune
	for i, op := range strings.Split(lhs, ",") {
		rs := []rune(op)
		for k, r := range rs {
			ext[r] = float64(in.Shapes[i][k])
		}
		ops = append(ops, rs)
	}
	size := func(ls []rune) float64 {
		s := 1.0
		for _, l := range ls {
			s *= ext[l]
		}
		return s
	}
	has := func(ls []rune, r rune) bool { return strings.ContainsRune(string(ls), r) }
	contract := func(i, j int) []rune {
		var keep []rune
		seen := map[rune]bool{}
		for _, r := range append(append([]rune{}, ops[i]...), ops[j]...) {
			if seen[r] {
				continue
			}
			seen[r] = true
			needed := has([]rune(out), r)
			for k, o := range ops {
				if k != i && k != j && has(o, r) {
					needed = true
				}
			}
			if needed {
				keep = append(keep, r)
			}
		}
		return keep
	}
	union := func(i, j int) float64 {
		s := size(ops[i])
		for _, r := range ops[j] {
			if !has(ops[i], r) {
				s *= ext[r]
			}
		}
		return s
	}
	for len(ops) > 1 {
		// Prefer pairs sharing a label; among those, the smallest growth.
		bi, bj, bestShared, best := -1, -1, false, math.Inf(1)
		for i := range ops {
			for j := i + 1; j < len(ops); j++ {
				shared := false
				for _, r := range ops[j] {
					shared = shared || has(ops[i], r)
				}
				score := size(contract(i, j)) - size(ops[i]) - size(ops[j])
				if bi < 0 || shared && !bestShared || shared == bestShared && score < best {
					bi, bj, bestShared, best = i, j, shared, score
				}
			}
		}
		res := contract(bi, bj)
		flops += union(bi, bj)
		largest = max(largest, size(res))
		ops[bi] = res
		ops = append(ops[:bj], ops[bj+1:]...)
	}
	return flops, largest
}

func TestBuiltinSizesModest(t *testing.T) {
	seeds := []uint64{0, 1, 2, 3}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, seed := range seeds {
		for _, in := range Builtin(seed) {
			checkModest(t, seed, in)
		}
	}
}

func checkModest(t *testing.T, seed uint64, in Instance) {
	{
		flops, largest := greedyCost(in)
		if seed == 0 {
			t.Logf("%-45s %d operands, greedy %.3g multiply-adds, largest intermediate %.3g", in.Name, len(in.Shapes), flops, largest)
		}
		// About 0.3 s at an effective 1 GFLOP/s even with a naive path.
		if flops > 1.5e8 || largest > 1<<22 {
			t.Errorf("seed %d: %s: greedy path costs %.3g multiply-adds, largest %.3g elements", seed, in.Name, flops, largest)
		}
		if flops < 1e3 {
			t.Errorf("%s: only %.3g multiply-adds, too small to measure", in.Name, flops)
		}
	}
}
