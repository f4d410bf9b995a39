package main

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/einsum"
)

func TestParseShape(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"2x3", []int{2, 3}}, {"5", []int{5}}, {"", []int{}}, {"scalar", []int{}},
		{"0x7x1", []int{0, 7, 1}},
	} {
		got, err := parseShape(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parseShape(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"2x", "x3", "-1", "2*3", "a", "2x-3"} {
		if _, err := parseShape(bad); err == nil {
			t.Errorf("parseShape(%q) succeeded", bad)
		}
	}
}

// oneLine reports whether s is exactly one non-empty line.
func oneLine(s string) bool {
	s = strings.TrimSuffix(s, "\n")
	return s != "" && !strings.Contains(s, "\n")
}

func TestPathReport(t *testing.T) {
	// Flags may follow the positional arguments.
	code, out, errs := runCLI(t, "path", "ij,jk,kl->il", "10x20", "20x30", "30x5", "--optimize", "optimal")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The optimal order contracts the two right matrices first:
	// 20*30*5*2 + 10*20*5*2 = 8000 FLOPs against 10*20*30*2 + 10*30*5*2 = 15000.
	for _, want := range []string{"Complete contraction:  ij,jk,kl->il", "8.000e+03", "(1,2)", "jk,kl->jl"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestPathJSON(t *testing.T) {
	code, out, errs := runCLI(t, "path", "--json", "--optimize", "greedy", "ij,jk,kl->il", "10x20", "20x30", "30x5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"path", "flops", "naive_flops", "largest_intermediate", "steps", "strategy", "subscripts"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out)
		}
	}
	if r["strategy"] != "greedy" || r["subscripts"] != "ij,jk,kl->il" {
		t.Errorf("strategy/subscripts: %v %v", r["strategy"], r["subscripts"])
	}
	steps := r["steps"].([]any)
	path := r["path"].([]any)
	if len(steps) != 2 || len(path) != 2 {
		t.Fatalf("want 2 steps and pairs, got %d, %d", len(steps), len(path))
	}
	// The flops field is the sum of the steps' flops.
	var sum float64
	for _, s := range steps {
		sum += s.(map[string]any)["flops"].(float64)
	}
	if sum != r["flops"].(float64) || sum <= 0 {
		t.Errorf("flops %v, steps sum to %v", r["flops"], sum)
	}
	// Naive: one loop over i,j,k,l (10*20*30*5 points) with two products
	// and an add per point.
	if r["naive_flops"].(float64) != 10*20*30*5*3 {
		t.Errorf("naive_flops = %v", r["naive_flops"])
	}
}

func TestPathScalarAndMemoryLimit(t *testing.T) {
	code, out, errs := runCLI(t, "path", "--json", "i,,i->", "4", "scalar", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r pathJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Shapes) != 3 || len(r.Shapes[1]) != 0 || len(r.Path) != 2 {
		t.Errorf("scalar operand: %+v", r)
	}
	// A limit below every possible intermediate is a planning error.
	code, _, errs = runCLI(t, "path", "--memory-limit", "2", "ij,jk,kl->il", "10x20", "20x30", "30x5")
	if code != 2 || !oneLine(errs) || !strings.Contains(errs, "memory") {
		t.Errorf("memory limit: exit %d, %q", code, errs)
	}
}

func TestPathBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"path"}, "missing SUBSCRIPTS"},
		{[]string{"path", "ij,jk->ik", "2x3", "4x5"}, "operand 1"},
		{[]string{"path", "ij,jk->ik", "2x3"}, "operand"},
		{[]string{"path", "ij,j?->ik", "2x3", "3x4"}, "invalid character"},
		{[]string{"path", "ij,jk->ik", "2x3", "3xq"}, "shape of operand 1"},
		{[]string{"path", "--optimize", "fastest", "ij->ji", "2x3"}, "--optimize"},
		{[]string{"path", "--optimize", "given", "ij->ji", "2x3"}, "--optimize"},
		{[]string{"path", "--memory-limit", "-1", "ij->ji", "2x3"}, "--memory-limit"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 2 || out != "" || !oneLine(errs) || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want one line with %q)", c.args, code, out, errs, c.want)
		}
	}
}

// TestPathJSONBeyondFloat64: counts that overflow float64 come out as the
// strings "+Inf" and "NaN" in valid JSON, and a long operand list is
// elided in each step's remaining list.
func TestPathJSONBeyondFloat64(t *testing.T) {
	// 80 vectors of 10^5 elements each under distinct labels, summed to a
	// scalar: one nested loop would cost 10^400 FLOPs.
	n := 80
	terms := make([]string, n)
	shapes := make([]string, n)
	for i := range terms {
		terms[i] = string(rune(0x4e00 + i))
		shapes[i] = "100000"
	}
	args := append([]string{"path", "--json", "--optimize", "greedy", strings.Join(terms, ",") + "->"}, shapes...)
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r["naive_flops"] != "+Inf" || r["speedup"] != "+Inf" {
		t.Errorf("naive_flops %v, speedup %v: want \"+Inf\"", r["naive_flops"], r["speedup"])
	}
	if _, ok := r["flops"].(float64); !ok {
		t.Errorf("flops %v: want a finite number", r["flops"])
	}
	first := r["steps"].([]any)[0].(map[string]any)["remaining"].(string)
	if len(first) > 3*einsum.RemainingWidth || !strings.Contains(first, ",...(+") {
		t.Errorf("first step's remaining list is not elided: %q", first)
	}
	for _, c := range []struct {
		in   count
		want string
	}{{count(math.Inf(1)), `"+Inf"`}, {count(math.NaN()), `"NaN"`}, {2.5, `2.5`}} {
		if b, err := json.Marshal(c.in); err != nil || string(b) != c.want {
			t.Errorf("count(%v) marshals to %s, %v; want %s", float64(c.in), b, err, c.want)
		}
	}
}
