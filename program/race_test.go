//go:build race

package program_test

// raceEnabled reports a race-detector build, whose sync.Pool drops items
// at random, so that pooled kernel state is sometimes reallocated.
const raceEnabled = true
