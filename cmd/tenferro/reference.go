package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
)

// pythonPath is the interpreter that runs the NumPy/PyTorch peers
// (Debian's python3 with python3-numpy and python3-torch).
const pythonPath = "/usr/bin/python3"

// peerEnv returns the environment for a peer process: OPENBLAS_CORETYPE
// and OPENBLAS_L2_SIZE, which an environment may set to force OpenBLAS
// onto some kernel, are removed (OpenBLAS then picks its kernel from the
// CPU, and runPeerTimes corrects a generic pick through the script's
// input), and the BLAS thread count is pinned to threads.
func peerEnv(threads int) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "OPENBLAS_CORETYPE=") || strings.HasPrefix(kv, "OPENBLAS_L2_SIZE=") ||
			strings.HasPrefix(kv, "OPENBLAS_NUM_THREADS=") || strings.HasPrefix(kv, "OMP_NUM_THREADS=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, fmt.Sprintf("OPENBLAS_NUM_THREADS=%d", threads), fmt.Sprintf("OMP_NUM_THREADS=%d", threads))
}

// runPeer runs a Python script with the peer environment, passing input
// as JSON on stdin and decoding its JSON output into out. It returns an
// error that explains why no reference ran (missing interpreter or
// module).
func runPeer(script string, threads int, input, out any) error {
	if _, err := os.Stat(pythonPath); err != nil {
		return fmt.Errorf("%s not found", pythonPath)
	}
	in, err := json.Marshal(input)
	if err != nil {
		return err
	}
	cmd := exec.Command(pythonPath, "-c", script)
	cmd.Env = peerEnv(threads)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		return fmt.Errorf("python reference failed: %v: %s", err, msg)
	}
	return json.Unmarshal(stdout.Bytes(), out)
}

// peerResult is what a benchmark's peer script prints: the peers'
// versions, the OpenBLAS kernel NumPy loaded, one time per case (null
// where a peer lacks the case or failed) and notes. runPeerTimes adds
// CoreType, the OPENBLAS_CORETYPE the peer ran with ("" for OpenBLAS's own
// choice), and ChosenCore, the kernel OpenBLAS chose without it.
type peerResult struct {
	OpenBLASCore *string    `json:"openblas_core"`
	NumpyVersion *string    `json:"numpy_version"`
	ScipyVersion *string    `json:"scipy_version"`
	TorchVersion *string    `json:"torch_version"`
	NumpyMS      []*float64 `json:"numpy_ms"`
	TorchMS      []*float64 `json:"torch_ms"`
	Notes        []string   `json:"notes"`
	CoreType     string     `json:"-"`
	ChosenCore   string     `json:"-"`
}

// describe names the peers that ran for a table's header; numpyThreads
// says how many threads NumPy's calls use.
func (p peerResult) describe(numpyThreads string) string {
	if p.NumpyVersion == nil && p.TorchVersion == nil {
		return "peers: none"
	}
	str := func(s *string) string {
		if s == nil {
			return "missing"
		}
		return *s
	}
	s := "numpy " + str(p.NumpyVersion) + " (" + numpyThreads + ")"
	if p.ScipyVersion != nil {
		s += ", scipy " + *p.ScipyVersion
	}
	return s + ", torch " + str(p.TorchVersion) + ", " + p.openblasDesc()
}

// peerPrelude follows peer_openblas.py at the start of every peer script
// (see peerScript).
//
//go:embed peer_prelude.py
var peerPrelude string

// runPeerTimes runs a peer script on in (whose "cases" has n entries),
// first probing which OpenBLAS kernel NumPy loads: when it is a generic
// one that ignores this CPU's vector units, OPENBLAS_CORETYPE is set for
// the peer's process (and said in a note and in CoreType). A missing
// interpreter or a failed run gives null times and a note, never an error.
func runPeerTimes(script string, threads int, in map[string]any, n int) peerResult {
	var notes []string
	chosen, force := peerCoreType(threads)
	if force != "" {
		in["coretype"] = force
		notes = append(notes, forceNote(chosen, force))
	}
	var res peerResult
	err := runPeer(script, threads, in, &res)
	if err == nil && (len(res.NumpyMS) != n || len(res.TorchMS) != n) {
		err = fmt.Errorf("peer returned %d numpy and %d torch times for %d cases", len(res.NumpyMS), len(res.TorchMS), n)
	}
	if err != nil {
		res = peerResult{Notes: []string{"peers skipped: " + err.Error()}}
	}
	res.Notes = append(notes, res.Notes...)
	res.CoreType, res.ChosenCore = force, chosen
	if res.NumpyMS == nil {
		res.NumpyMS, res.TorchMS = make([]*float64, n), make([]*float64, n)
	}
	return res
}

// timeRatio is a peer's time over ours (above 1: the library is faster),
// nil without a peer time.
func timeRatio(peer *float64, ours float64) *float64 {
	if peer == nil || ours <= 0 {
		return nil
	}
	q := *peer / ours
	return &q
}

// orDash formats v with f, or "-" when v is nil.
func orDash(v *float64, f string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(f, *v)
}

// geomeanSummary is a benchmark table's closing line: for each peer p of
// names, the geometric mean of ratio(p, i) over the rows i < n where it is
// positive.
func geomeanSummary(names []string, n int, ratio func(p, i int) *float64) string {
	var parts []string
	for p, name := range names {
		var s float64
		k := 0
		for i := range n {
			if q := ratio(p, i); q != nil && *q > 0 {
				s, k = s+math.Log(*q), k+1
			}
		}
		if k == 0 {
			parts = append(parts, name+"/ours n/a")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s/ours %.2f over %d cases", name, math.Exp(s/float64(k)), k))
	}
	return "geometric mean: " + strings.Join(parts, "; ")
}
