//go:build !race

package lapack

// svdRace reports whether the race detector is on (allocation counts are
// not meaningful under it).
const svdRace = false
