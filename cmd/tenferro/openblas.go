package main

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	xcpu "golang.org/x/sys/cpu"
)

// Debian's OpenBLAS (DYNAMIC_ARCH) picks its kernel from the CPU it finds;
// on a CPU it does not recognize it falls back to a pre-AVX kernel
// (Prescott) that ignores the vector units and runs several times slower.
// Every peer process is probed first (openblasProbeScript); when the
// kernel is such a fallback on a CPU with AVX or better, the peer runs
// with OPENBLAS_CORETYPE set to the matching optimized kernel
// (openblasForce), and the table says so.

// peerOpenBLAS defines openblas_cores (the kernels of the OpenBLAS
// libraries a Python process loaded: threadpoolctl, else
// openblas_get_corename through ctypes) and record_openblas (which stores
// the first in a peer result's "openblas_core"); every peer script starts
// with it.
//
//go:embed peer_openblas.py
var peerOpenBLAS string

// peerScript is a peer script with body after the shared start
// (peer_openblas.py, then peer_prelude.py).
func peerScript(body string) string { return peerOpenBLAS + peerPrelude + body }

// openblasProbeScript prints the kernels of the OpenBLAS libraries NumPy
// loads, as a JSON list.
var openblasProbeScript = peerOpenBLAS + "import json, numpy\nprint(json.dumps(openblas_cores()))\n"

// x86Features are the CPU features that decide which OpenBLAS kernel fits.
type x86Features struct{ avx, avx2fma, avx512, bf16 bool }

func hostX86() x86Features {
	x := xcpu.X86
	return x86Features{avx: x.HasAVX, avx2fma: x.HasAVX2 && x.HasFMA,
		avx512: x.HasAVX512F && x.HasAVX512DQ && x.HasAVX512BW && x.HasAVX512VL, bf16: x.HasAVX512BF16}
}

// openblasPreAVX are OpenBLAS's x86 kernels without AVX: the ones it falls
// back to for a CPU it does not recognize (the Python twin is PRE_AVX in
// peer_openblas.py).
var openblasPreAVX = []string{"unknown", "prescott", "katmai", "coppermine", "northwood", "banias", "atom",
	"core2", "penryn", "dunnington", "nehalem", "athlon", "opteron", "opteron_sse3", "barcelona", "nano", "bobcat"}

// openblasCoreType returns the OPENBLAS_CORETYPE the peer needs when
// OpenBLAS chose the kernel chosen: the fastest kernel the CPU's features
// f run when chosen is a pre-AVX fallback on a CPU with AVX or better,
// and "" (leave OpenBLAS's choice) otherwise.
func openblasCoreType(chosen string, f x86Features) string {
	if !slices.Contains(openblasPreAVX, strings.ToLower(chosen)) {
		return ""
	}
	switch {
	case f.avx512 && f.bf16:
		return "Cooperlake"
	case f.avx512:
		return "SkylakeX"
	case f.avx2fma:
		return "Haswell"
	case f.avx:
		return "Sandybridge"
	}
	return ""
}

// openblasForce decides, from the kernels cores that a peer's OpenBLAS
// libraries chose on their own, whether the peer must run with
// OPENBLAS_CORETYPE set: it returns the first kernel of cores that
// openblasCoreType replaces on a CPU with features f, and its
// replacement; both are "" when every choice stands (no OpenBLAS, an
// optimized kernel, or a CPU without AVX).
func openblasForce(cores []string, f x86Features) (chosen, force string) {
	for _, c := range cores {
		if ct := openblasCoreType(c, f); ct != "" {
			return c, ct
		}
	}
	return "", ""
}

// probeOpenBLAS returns the kernels of the OpenBLAS libraries NumPy
// loads in a peer process with threads BLAS threads. It is a variable so
// that tests can stand in for a CPU that OpenBLAS does not recognize.
var probeOpenBLAS = func(threads int) ([]string, error) {
	var cores []string
	err := runPeer(openblasProbeScript, threads, nil, &cores)
	return cores, err
}

// peerCoreType probes the OpenBLAS kernels a peer process loads and
// decides (openblasForce on this CPU) the OPENBLAS_CORETYPE the peer
// needs, "" for none. A failed probe (no interpreter, no NumPy) decides
// nothing: the peer script then reports why.
func peerCoreType(threads int) (chosen, force string) {
	cores, err := probeOpenBLAS(threads)
	if err != nil {
		return "", ""
	}
	return openblasForce(cores, hostX86())
}

// forceNote is the note a table prints when the peer ran with
// OPENBLAS_CORETYPE=force instead of OpenBLAS's choice chosen.
func forceNote(chosen, force string) string {
	return fmt.Sprintf("OpenBLAS chose %s, which does not use this CPU's vector units: OPENBLAS_CORETYPE=%s set for the peer", chosen, force)
}

// openblasDesc names the kernel the peer's OpenBLAS ran ("unknown" when
// the probe found none) and whether OPENBLAS_CORETYPE chose it.
func (p peerResult) openblasDesc() string {
	core := "unknown"
	if p.OpenBLASCore != nil {
		core = *p.OpenBLASCore
	}
	s := "OpenBLAS core " + core
	if p.CoreType != "" {
		s += fmt.Sprintf(" (OPENBLAS_CORETYPE=%s; OpenBLAS alone chose %s)", p.CoreType, p.ChosenCore)
	}
	return s
}
