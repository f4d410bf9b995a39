package main

import (
	"strings"
	"testing"
)

// gemmRowKeys is the schema of a `bench gemm --json` row with the
// reference (without it "reference" is left out).
var gemmRowKeys = []string{"dtype", "gflops", "kernel", "median_ns", "openblas_core", "ratio", "reference", "reference_gflops", "size", "threads"}

func TestBenchGemmNoReferenceJSON(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "gemm", "--sizes", "1,7", "--dtype", "c128", "--no-reference", "--budget", "1ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	keys := []string{"dtype", "gflops", "kernel", "median_ns", "openblas_core", "ratio", "reference_gflops", "size", "threads"}
	rows, raw := decodeBenchRows[gemmRow](t, out, keys)
	if len(rows) != 2 || rows[0].Size != 1 || rows[1].Size != 7 {
		t.Fatalf("rows %+v", rows)
	}
	for i := range rows {
		if raw[i]["openblas_core"] != nil || raw[i]["reference_gflops"] != nil {
			t.Errorf("row %v with --no-reference", raw[i])
		}
	}
}

// TestBenchGemmPeer runs the NumPy reference at one and two threads: every
// row has a reference speed and names the kernel the probe finds, and so
// does the table's header.
func TestBenchGemmPeer(t *testing.T) {
	if !havePython("numpy") || !numpyOpenBLAS() {
		t.Skip("needs python3 with numpy on OpenBLAS")
	}
	cores, _ := probeOpenBLAS(1)
	for _, threads := range []string{"1", "2"} {
		code, out, errs := runCLI(t, "bench", "gemm", "--sizes", "5,16", "--dtype", "f32", "--threads", threads, "--budget", "1ms", "--json")
		if code != 0 {
			t.Fatalf("threads %s: exit %d: %s", threads, code, errs)
		}
		rows, _ := decodeBenchRows[gemmRow](t, out, gemmRowKeys)
		for _, r := range rows {
			if r.ReferenceGFlops == nil || *r.ReferenceGFlops <= 0 || r.Ratio == nil || r.Reference != "numpy" {
				t.Errorf("threads %s: row %+v", threads, r)
			}
			if r.OpenBLASCore == nil || *r.OpenBLASCore != cores[0] {
				t.Errorf("threads %s, n=%d: openblas_core %v, the probe finds %v", threads, r.Size, r.OpenBLASCore, cores)
			}
		}
		code, out, errs = runCLI(t, "bench", "gemm", "--sizes", "5", "--dtype", "c64", "--threads", threads, "--budget", "1ms")
		header, _, _ := strings.Cut(out, "\n")
		if code != 0 || !strings.Contains(header, "OpenBLAS core "+cores[0]+", OPENBLAS_NUM_THREADS="+threads) {
			t.Errorf("threads %s: exit %d, header %q, stderr %q", threads, code, header, errs)
		}
	}
}

// TestBenchGemmPeerForced stands in for a CPU that OpenBLAS does not
// recognize: NumPy must then run the CPU's optimized kernel, named in the
// rows, the header and a note.
func TestBenchGemmPeerForced(t *testing.T) {
	if !havePython("numpy") || !numpyOpenBLAS() {
		t.Skip("needs python3 with numpy on OpenBLAS")
	}
	want := pretendGenericOpenBLAS(t)
	note := "OpenBLAS chose Prescott, which does not use this CPU's vector units: OPENBLAS_CORETYPE=" + want + " set for the peer"
	for _, threads := range []string{"1", "2"} {
		code, out, errs := runCLI(t, "bench", "gemm", "--sizes", "3,8", "--dtype", "c128", "--threads", threads, "--budget", "1ms", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(errs, note) {
			t.Errorf("threads %s: stderr %q lacks %q", threads, errs, note)
		}
		rows, _ := decodeBenchRows[gemmRow](t, out, gemmRowKeys)
		for _, r := range rows {
			if r.OpenBLASCore == nil || *r.OpenBLASCore != want || r.ReferenceGFlops == nil {
				t.Errorf("threads %s, n=%d: openblas_core %v, reference %v; want %s", threads, r.Size, r.OpenBLASCore, r.ReferenceGFlops, want)
			}
		}
		code, out, _ = runCLI(t, "bench", "gemm", "--sizes", "4", "--dtype", "f32", "--threads", threads, "--budget", "1ms")
		header, _, _ := strings.Cut(out, "\n")
		if wantHeader := "OpenBLAS core " + want + " (OPENBLAS_CORETYPE=" + want + "; OpenBLAS alone chose Prescott)"; code != 0 || !strings.Contains(header, wantHeader) {
			t.Errorf("threads %s: header %q lacks %q", threads, header, wantHeader)
		}
	}
}
