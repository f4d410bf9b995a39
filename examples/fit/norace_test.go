//go:build !race

package main

// raceEnabled reports a race-detector build, whose sync.Pool drops items
// at random, so that pooled engine state is sometimes reallocated.
const raceEnabled = false
