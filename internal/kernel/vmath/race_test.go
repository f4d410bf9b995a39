//go:build race

package vmath

// The race detector slows the reference computations tenfold; the
// accuracy sweeps shrink accordingly.
const raceEnabled = true
