//go:build race

package lapack

// raceEnabled reports whether the race detector is on (allocation counts are
// not meaningful under it).
const raceEnabled = true
