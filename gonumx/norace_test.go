//go:build !race

package gonumx

// raceEnabled reports a race-detector build, ten times slower, in which
// the tests leave out their largest shapes (the concurrency they exercise
// is the same at every size).
const raceEnabled = false
