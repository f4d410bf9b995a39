package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var allX86 = x86Features{avx: true, avx2fma: true, avx512: true, bf16: true}

// coreTypeCases is the decision table of openblasCoreType, shared with the
// check of its Python twin.
var coreTypeCases = []struct {
	chosen string
	f      x86Features
	want   string
}{
	{"Prescott", allX86, "Cooperlake"},
	{"prescott", x86Features{avx: true, avx2fma: true, avx512: true}, "SkylakeX"},
	{"Nehalem", x86Features{avx: true, avx2fma: true}, "Haswell"},
	{"Core2", x86Features{avx: true}, "Sandybridge"},
	{"UNKNOWN", x86Features{avx: true, avx2fma: true, bf16: true}, "Haswell"},
	{"Barcelona", x86Features{avx: true, avx512: true}, "SkylakeX"},
	{"Prescott", x86Features{}, ""},
	{"Prescott", x86Features{bf16: true}, ""},
	{"Haswell", allX86, ""},
	{"Zen", allX86, ""},
	{"SkylakeX", allX86, ""},
	{"Cooperlake", allX86, ""},
	{"Sandybridge", allX86, ""},
	{"", allX86, ""},
}

func TestOpenBLASCoreType(t *testing.T) {
	for _, c := range coreTypeCases {
		if got := openblasCoreType(c.chosen, c.f); got != c.want {
			t.Errorf("openblasCoreType(%q, %+v) = %q, want %q", c.chosen, c.f, got, c.want)
		}
	}
	for _, k := range openblasPreAVX {
		if got := openblasCoreType(strings.ToUpper(k), x86Features{avx: true, avx2fma: true}); got != "Haswell" {
			t.Errorf("pre-AVX %s on an AVX2 CPU: %q, want Haswell", k, got)
		}
	}
}

func TestOpenBLASForce(t *testing.T) {
	avx2 := x86Features{avx: true, avx2fma: true}
	for _, c := range []struct {
		cores         []string
		f             x86Features
		chosen, force string
	}{
		{nil, allX86, "", ""},
		{[]string{}, avx2, "", ""},
		{[]string{"Prescott"}, allX86, "Prescott", "Cooperlake"},
		{[]string{"Prescott"}, avx2, "Prescott", "Haswell"},
		{[]string{"Prescott"}, x86Features{}, "", ""},
		{[]string{"SkylakeX"}, allX86, "", ""},
		// Two OpenBLAS libraries (NumPy's and another): one generic
		// choice forces the variable, which both read.
		{[]string{"Haswell", "Nehalem"}, avx2, "Nehalem", "Haswell"},
		{[]string{"Core2", "Prescott"}, allX86, "Core2", "Cooperlake"},
		{[]string{"Zen", "SkylakeX"}, allX86, "", ""},
	} {
		chosen, force := openblasForce(c.cores, c.f)
		if chosen != c.chosen || force != c.force {
			t.Errorf("openblasForce(%q, %+v) = %q, %q, want %q, %q", c.cores, c.f, chosen, force, c.chosen, c.force)
		}
	}
}

func TestOpenBLASDesc(t *testing.T) {
	core := "SkylakeX"
	for _, c := range []struct {
		p    peerResult
		want string
	}{
		{peerResult{}, "OpenBLAS core unknown"},
		{peerResult{OpenBLASCore: &core}, "OpenBLAS core SkylakeX"},
		{peerResult{OpenBLASCore: &core, CoreType: "SkylakeX", ChosenCore: "Prescott"},
			"OpenBLAS core SkylakeX (OPENBLAS_CORETYPE=SkylakeX; OpenBLAS alone chose Prescott)"},
	} {
		if got := c.p.openblasDesc(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
	v := "1.24.2"
	p := peerResult{NumpyVersion: &v, OpenBLASCore: &core, CoreType: "SkylakeX", ChosenCore: "Prescott"}
	if got, want := describeGemmPeer(p, 2), "numpy 1.24.2 matmul, OpenBLAS core SkylakeX (OPENBLAS_CORETYPE=SkylakeX; OpenBLAS alone chose Prescott), OPENBLAS_NUM_THREADS=2"; got != want {
		t.Errorf("gemm header %q, want %q", got, want)
	}
	if got, want := p.describe("OPENBLAS_NUM_THREADS=2"), "numpy 1.24.2 (OPENBLAS_NUM_THREADS=2), torch missing, OpenBLAS core SkylakeX"; !strings.HasPrefix(got, want) {
		t.Errorf("linalg header %q, want it to start with %q", got, want)
	}
	if got := describeGemmPeer(peerResult{Notes: []string{"peers skipped: x"}}, 1); got != "skipped: peers skipped: x" {
		t.Errorf("gemm header without numpy %q", got)
	}
}

// flagsOf lists the /proc/cpuinfo flags that give f.
func flagsOf(f x86Features) []string {
	var s []string
	if f.avx {
		s = append(s, "avx")
	}
	if f.avx2fma {
		s = append(s, "avx2", "fma")
	}
	if f.avx512 {
		s = append(s, "avx512f", "avx512dq", "avx512bw", "avx512vl")
	}
	if f.bf16 {
		s = append(s, "avx512_bf16")
	}
	return append(s, "sse2", "ssse3")
}

// runPython runs a script with peer_openblas.py first and decodes its
// JSON output into out.
func runPython(t *testing.T, script string, out any) {
	t.Helper()
	b, err := exec.Command(pythonPath, "-c", peerOpenBLAS+script).Output()
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// TestPeerOpenBLASDecision checks that the Python decision of
// bench/peers/einsum_peers.py (coretype_for, PRE_AVX) is the Go one, and
// that on this machine the flags it reads from /proc/cpuinfo decide as
// this process's CPU features do.
func TestPeerOpenBLASDecision(t *testing.T) {
	if _, err := os.Stat(pythonPath); err != nil {
		t.Skip(pythonPath + " not found")
	}
	type pyCase struct {
		Chosen string   `json:"chosen"`
		Flags  []string `json:"flags"`
	}
	var cases []pyCase
	for _, c := range coreTypeCases {
		cases = append(cases, pyCase{c.chosen, flagsOf(c.f)})
	}
	in, _ := json.Marshal(cases)
	var got struct {
		Decisions []string `json:"decisions"`
		PreAVX    []string `json:"pre_avx"`
		Host      string   `json:"host"`
	}
	runPython(t, `
import json
cases = json.loads('''`+string(in)+`''')
print(json.dumps({"decisions": [coretype_for(c["chosen"], set(c["flags"])) for c in cases],
                  "pre_avx": sorted(PRE_AVX), "host": coretype_for("Prescott", cpu_flags())}))
`, &got)
	for i, c := range coreTypeCases {
		if got.Decisions[i] != c.want {
			t.Errorf("coretype_for(%q, %v) = %q, want %q", c.chosen, cases[i].Flags, got.Decisions[i], c.want)
		}
	}
	if want := slices.Sorted(slices.Values(openblasPreAVX)); !slices.Equal(got.PreAVX, want) {
		t.Errorf("PRE_AVX %v, want openblasPreAVX %v", got.PreAVX, want)
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if want := openblasCoreType("Prescott", hostX86()); got.Host != want {
			t.Errorf("from /proc/cpuinfo Prescott gives %q, from this CPU's features %q", got.Host, want)
		}
	}
}

// hideThreadpoolctl puts a threadpoolctl that fails to import first on
// the peers' PYTHONPATH, so that they find the OpenBLAS kernel through
// ctypes.
func hideThreadpoolctl(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "threadpoolctl.py"), []byte("raise ImportError('hidden by the test')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", dir)
}

// TestOpenBLASProbe checks that the probe names the kernel NumPy's
// OpenBLAS runs, the same with threadpoolctl and through ctypes without
// it, and that both see OPENBLAS_CORETYPE applied by a peer script.
func TestOpenBLASProbe(t *testing.T) {
	if runtime.GOOS != "linux" || !havePython("numpy") {
		t.Skip("needs Linux and python3 with numpy")
	}
	tpc := havePython("numpy", "threadpoolctl")
	byThreadpoolctl, err := probeOpenBLAS(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(byThreadpoolctl) == 0 {
		t.Skip("NumPy does not load OpenBLAS")
	}
	in := map[string]any{"cases": []int{4}, "dtype": "float64", "budget": 0.001, "coretype": "Prescott"}
	var forced peerResult
	if err := runPeer(gemmPeerScript, 1, in, &forced); err != nil {
		t.Fatal(err)
	}
	hideThreadpoolctl(t)
	byCtypes, err := probeOpenBLAS(2)
	if err != nil {
		t.Fatal(err)
	}
	if !tpc {
		byThreadpoolctl = byCtypes // nothing to compare with
	}
	if !slices.Equal(byCtypes, byThreadpoolctl) {
		t.Errorf("through ctypes %v, through threadpoolctl %v", byCtypes, byThreadpoolctl)
	}
	var forcedCtypes peerResult
	if err := runPeer(gemmPeerScript, 1, in, &forcedCtypes); err != nil {
		t.Fatal(err)
	}
	for _, p := range []peerResult{forced, forcedCtypes} {
		if p.OpenBLASCore == nil || *p.OpenBLASCore != "Prescott" || len(p.NumpyMS) != 1 || p.NumpyMS[0] == nil {
			t.Errorf("OPENBLAS_CORETYPE=Prescott: core %v, times %v, notes %v", p.OpenBLASCore, p.NumpyMS, p.Notes)
		}
	}
}

// pretendGenericOpenBLAS makes the probe answer Prescott, as OpenBLAS does
// on a CPU it does not recognize, and returns the kernel the peers must
// then run (skipping the test on a CPU without AVX).
func pretendGenericOpenBLAS(t *testing.T) string {
	want := openblasCoreType("Prescott", hostX86())
	if want == "" {
		t.Skip("this CPU has no AVX: OpenBLAS's generic kernel stands")
	}
	saved := probeOpenBLAS
	probeOpenBLAS = func(int) ([]string, error) { return []string{"Prescott"}, nil }
	t.Cleanup(func() { probeOpenBLAS = saved })
	return want
}

// numpyOpenBLAS reports whether the peers' NumPy loads OpenBLAS and the
// probe finds its kernel (so that every peer row names it).
func numpyOpenBLAS() bool {
	cores, err := probeOpenBLAS(1)
	return err == nil && len(cores) > 0
}
