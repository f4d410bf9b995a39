package simd

import (
	"strconv"
	"strings"
)

// LastLevelCache returns the size in bytes of the largest data cache the
// system reports for its first CPU (on Linux, the cache descriptions under
// /sys/devices/system/cpu/cpu0/cache), or 0 when it reports none.
func LastLevelCache() int { return lastLevelCache() }

// parseCacheSize reads a cache size as sysfs writes it ("32768K", "1M",
// "512"), in bytes; 0 when it is not one.
func parseCacheSize(s string) int {
	s = strings.TrimSpace(s)
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0
	}
	return n * mult
}
