package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteUnits are the suffixes parseBytes accepts (case-insensitive).
var byteUnits = []struct {
	suffix string
	scale  int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// parseBytes reads a byte count such as 4096, 64MiB, 1.5GB or 2g: a
// non-negative number with an optional unit (KiB, MiB, GiB, TiB; KB, MB,
// GB, TB; k, m, g, t for the binary units; B).
func parseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	scale := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("want a byte count such as 4096, 64MiB or 2GB, got %q", s)
	}
	b := v * float64(scale)
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("byte count %q is too large", s)
	}
	return int64(b), nil
}
