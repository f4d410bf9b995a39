package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersionAndUsage(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(out, "tenferro ") {
		t.Fatalf("version: %d %q", code, out)
	}
	if code, _, errs := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Fatalf("unknown command: %d %q", code, errs)
	}
	if code, _, _ := runCLI(t, "bench", "nope"); code != 2 {
		t.Fatalf("unknown bench: %d", code)
	}
	if code, _, _ := runCLI(t, "bench", "engine", "--threads", "0"); code != 2 {
		t.Fatalf("--threads 0: %d", code)
	}
}

func TestBenchEngineJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine benchmark")
	}
	code, out, errs := runCLI(t, "bench", "engine", "--json", "--threads", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	cases := map[string]int{}
	for _, r := range rows {
		c := r["case"].(string)
		cases[c]++
		switch c {
		case "pool-after-release":
			if r["buffers"].(float64) != 1 || r["capacity_bytes"].(float64) != 32768 {
				t.Errorf("pool-after-release: %v", r)
			}
		case "pool-fresh":
			if r["buffers"].(float64) != 0 || r["capacity_bytes"].(float64) != 0 {
				t.Errorf("pool-fresh: %v", r)
			}
		default:
			if r["min_ns"].(float64) <= 0 || r["median_ns"].(float64) < r["min_ns"].(float64) {
				t.Errorf("timing row %v", r)
			}
		}
	}
	for _, c := range []string{"reused-serial", "new-serial", "reused-team", "new-team", "new-dedicated-team"} {
		if cases[c] != 2 {
			t.Errorf("case %s appears %d times, want 2 (32 and 256)", c, cases[c])
		}
	}
}

func TestBenchDispatchJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the dispatch benchmark")
	}
	code, out, errs := runCLI(t, "bench", "dispatch", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	byCase := map[string]map[string]any{}
	for _, r := range rows {
		byCase[r["case"].(string)] = r
	}
	for _, c := range []string{"prepared-per-command", "prepared-allocs", "chain10-prepared", "chain10-direct-reused",
		"chain10-direct-new-engine", "team-entry-outside-w1", "team-entry-outside-w2", "team-entry-inside-w2", "compile", "prepare"} {
		if byCase[c] == nil {
			t.Errorf("missing case %s", c)
		}
	}
	if a, ok := byCase["prepared-allocs"]["allocs"].(float64); !ok || a != 0 {
		t.Errorf("prepared-allocs = %v, want allocs 0", byCase["prepared-allocs"])
	}
	if code, _, _ := runCLI(t, "bench", "dispatch", "--widths", "0"); code != 2 {
		t.Errorf("--widths 0: exit %d, want 2", code)
	}
}

func TestBenchGemmJSON(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "gemm", "--sizes", "8,33", "--dtype", "c64", "--no-reference", "--budget", "20ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1]["size"].(float64) != 33 || rows[0]["dtype"] != "c64" || rows[0]["gflops"].(float64) <= 0 || rows[0]["ratio"] != nil {
		t.Fatalf("rows %v", rows)
	}
	code, out, _ = runCLI(t, "bench", "gemm", "--sizes", "16", "--no-reference", "--budget", "10ms", "--json")
	if code != 0 || !strings.Contains(out, `"case": "dispatch32"`) {
		t.Fatalf("f64 serial run lacks the dispatch row: %d %s", code, out)
	}
	for _, bad := range [][]string{{"--sizes", "0"}, {"--dtype", "int8"}, {"--threads", "0"}} {
		if code, _, _ := runCLI(t, append([]string{"bench", "gemm"}, bad...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
