package simd

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lastLevelCache reads the data or unified caches of cpu0 from sysfs and
// returns the size of the highest level's.
func lastLevelCache() int {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	best, bestLevel := 0, 0
	for _, d := range dirs {
		read := func(name string) string {
			b, err := os.ReadFile(filepath.Join(d, name))
			if err != nil {
				return ""
			}
			return strings.TrimSpace(string(b))
		}
		if t := read("type"); t != "Data" && t != "Unified" {
			continue
		}
		level, err := strconv.Atoi(read("level"))
		if err != nil {
			continue
		}
		if size := parseCacheSize(read("size")); size > 0 && level >= bestLevel {
			if level > bestLevel || size > best {
				best, bestLevel = size, level
			}
		}
	}
	return best
}
