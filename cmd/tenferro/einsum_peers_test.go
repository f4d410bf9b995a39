package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runEinsumPeers runs bench/peers/einsum_peers.py with NumPy only on the
// suite rows in rowsFile, with env added to the environment, and returns
// its table (stdout), stderr and JSON rows.
func runEinsumPeers(t *testing.T, rowsFile string, env ...string) (string, string, []map[string]any) {
	t.Helper()
	jsonOut := filepath.Join(t.TempDir(), "peers.json")
	cmd := exec.Command(pythonPath, "../../bench/peers/einsum_peers.py", "--suite-json", rowsFile, "--runs", "1", "--no-torch", "--json", jsonOut)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	table, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(data, &rows); err != nil || len(rows) == 0 {
		t.Fatalf("%v: %s", err, data)
	}
	return string(table), stderr.String(), rows
}

// checkEinsumPeersCore checks that the header and every row name the
// OpenBLAS kernel core and, when chose is not "", the kernel OpenBLAS had
// chosen itself.
func checkEinsumPeersCore(t *testing.T, what, table string, rows []map[string]any, core, chose string) {
	t.Helper()
	header, _, _ := strings.Cut(table, "\n")
	if !strings.HasPrefix(header, "peers: numpy ") || !strings.Contains(header, "OpenBLAS core "+core) ||
		strings.Contains(header, "OpenBLAS chose") != (chose != "") {
		t.Errorf("%s: header %q, want OpenBLAS core %s (chose %q)", what, header, core, chose)
	}
	for _, r := range rows {
		var wantChose any
		if chose != "" {
			wantChose = chose
		}
		if r["openblas_core"] != core || r["openblas_chose"] != wantChose {
			t.Errorf("%s: %v: openblas_core %v, openblas_chose %v; want %s, %v", what, r["name"], r["openblas_core"], r["openblas_chose"], core, wantChose)
		}
	}
}

// TestEinsumPeersOpenBLAS checks that the einsum peer script names the
// kernel OpenBLAS runs, removes an OPENBLAS_CORETYPE it inherits, keeps
// the one it set itself, and runs itself again with the CPU's kernel when
// OpenBLAS chose a generic one (shown by a threadpoolctl that reports
// Prescott unless OPENBLAS_CORETYPE is set).
func TestEinsumPeersOpenBLAS(t *testing.T) {
	if testing.Short() || !havePython("numpy") || !numpyOpenBLAS() {
		t.Skip("needs " + pythonPath + " with numpy on OpenBLAS; not in -short")
	}
	cores, _ := probeOpenBLAS(1)
	code, out, errs := runCLI(t, "suite", "--json", "--runs", "1", "builtin_random_regular3_20")
	if code != 0 {
		t.Fatalf("suite: exit %d: %s", code, errs)
	}
	rowsFile := writeTemp(t, "rows.json", out)

	table, _, rows := runEinsumPeers(t, rowsFile, "OPENBLAS_CORETYPE=Prescott")
	checkEinsumPeersCore(t, "inherited OPENBLAS_CORETYPE", table, rows, cores[0], "")

	table, _, rows = runEinsumPeers(t, rowsFile, "OPENBLAS_CORETYPE=Prescott", "TENFERRO_PEERS_OPENBLAS_CHOSE=Nehalem")
	checkEinsumPeersCore(t, "forced Prescott", table, rows, "Prescott", "Nehalem")

	want := openblasCoreType("Prescott", hostX86())
	if want == "" {
		t.Skip("this CPU has no AVX: OpenBLAS's generic kernel stands")
	}
	shim := t.TempDir()
	fake := "import os\ndef threadpool_info():\n    return [{'internal_api': 'openblas', 'architecture': os.environ.get('OPENBLAS_CORETYPE', 'Prescott')}]\n"
	if err := os.WriteFile(filepath.Join(shim, "threadpoolctl.py"), []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	table, stderr, rows := runEinsumPeers(t, rowsFile, "PYTHONPATH="+shim)
	checkEinsumPeersCore(t, "generic kernel", table, rows, want, "Prescott")
	if !strings.Contains(stderr, "running again with OPENBLAS_CORETYPE="+want) {
		t.Errorf("stderr %q", stderr)
	}
}
