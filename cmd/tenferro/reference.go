package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// pythonPath is the interpreter that runs the NumPy/PyTorch peers
// (Debian's python3 with python3-numpy and python3-torch).
const pythonPath = "/usr/bin/python3"

// peerEnv returns the environment for a peer process: this machine class
// sets OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE to force OpenBLAS onto a
// weaker kernel, so both are removed for the reference measurement, and
// the BLAS thread count is pinned to threads.
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
