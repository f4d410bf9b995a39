//go:build !race

package cpu_test

// raceEnabled reports a race-detector build, under which allocation
// counts are not meaningful.
const raceEnabled = false
