//go:build race

package enginetest

// raceEnabled reports a -race build: sync.Pool drops items at random there,
// so allocation counts are not checked.
const raceEnabled = true
