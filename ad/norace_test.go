//go:build !race

package ad_test

const raceEnabled = false
