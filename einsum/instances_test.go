package einsum

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// instanceDir holds public einsum workloads; tests and benchmarks that
// read it skip when it is absent. The data is never copied here.
const instanceDir = "../../shared/einsum-instances"

type instance struct {
	Name   string
	Format string  `json:"format_string_colmajor"`
	Shapes [][]int `json:"shapes_colmajor"`
	Paths  map[string]struct {
		Path [][2]int `json:"path"`
	} `json:"paths"`
}

func loadInstances(tb testing.TB) []instance {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(instanceDir, "*.json"))
	if len(files) == 0 {
		tb.Skip("no einsum instances in " + instanceDir)
	}
	var out []instance
	for _, f := range files {
		if filepath.Base(f) == "permutation_patterns.json" {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var in instance
		if err := json.Unmarshal(raw, &in); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		in.Name = strings.TrimSuffix(filepath.Base(f), ".json")
		out = append(out, in)
	}
	return out
}

func (in instance) problem(tb testing.TB) *Problem {
	e, err := ParseSymbols(in.Format)
	if err != nil {
		tb.Fatalf("%s: %v", in.Name, err)
	}
	p, err := e.Bind(in.Shapes)
	if err != nil {
		tb.Fatalf("%s: %v", in.Name, err)
	}
	return p
}

// TestInstances checks that Auto is within 10% of the shipped opt_flops
// path on every instance, both costed with this package's model. With
// -short only instances of up to 100 operands are planned.
func TestInstances(t *testing.T) {
	for _, in := range loadInstances(t) {
		p := in.problem(t)
		if testing.Short() && len(p.Inputs) > 100 {
			continue
		}
		ref, ok := in.Paths["opt_flops"]
		if !ok {
			continue
		}
		shipped, err := NewPlan(p, Options{Strategy: Given, Path: ref.Path})
		if err != nil {
			t.Errorf("%s: shipped path: %v", in.Name, err)
			continue
		}
		start := time.Now()
		auto, err := NewPlan(p, Options{})
		took := time.Since(start)
		if err != nil {
			t.Errorf("%s: %v", in.Name, err)
			continue
		}
		ratio := auto.Flops / shipped.Flops
		t.Logf("%-60s n=%3d auto %.4e (%s, %v) shipped %.4e ratio %.3f", in.Name, len(p.Inputs), auto.Flops, auto.Strategy, took.Round(time.Millisecond), shipped.Flops, ratio)
		if ratio > 1.10 {
			t.Errorf("%s: Auto costs %.4e FLOPs, %.1f%% more than the shipped path (%.4e)", in.Name, auto.Flops, 100*(ratio-1), shipped.Flops)
		}
	}
}
