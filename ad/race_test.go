//go:build race

package ad_test

const raceEnabled = true
