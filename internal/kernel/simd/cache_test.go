package simd

import (
	"os"
	"testing"
)

func TestParseCacheSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"32768K", 32 << 20}, {"1024K\n", 1 << 20}, {"32K", 32 << 10}, {"2M", 2 << 20},
		{"1G", 1 << 30}, {"512", 512}, {"", 0}, {"K", 0}, {"-4K", 0}, {"12Q", 0},
		{"99999999999999999999K", 0}, {"2000000G", 0},
	} {
		if got := parseCacheSize(c.in); got != c.want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// TestLastLevelCache checks the size against the system's report where
// there is one.
func TestLastLevelCache(t *testing.T) {
	c := LastLevelCache()
	if c < 0 {
		t.Fatalf("LastLevelCache() = %d", c)
	}
	if _, err := os.Stat("/sys/devices/system/cpu/cpu0/cache/index0"); err == nil && c == 0 {
		t.Fatalf("LastLevelCache() = 0, but sysfs describes cpu0's caches")
	}
	t.Logf("last-level cache %d KiB", c>>10)
}

// TestStreamThreshold checks the working-set rule: a loop streams when
// vectors·len(z)·size exceeds StreamBytes, and the default threshold is
// half the last-level cache (8 MiB when unknown).
func TestStreamThreshold(t *testing.T) {
	old := StreamBytes
	defer func() { StreamBytes = old }()
	StreamBytes = -1
	want := 8 << 20
	if c := LastLevelCache(); c > 0 {
		want = c / 2
	}
	if got := streamBytes(); got != want {
		t.Errorf("default threshold %d, want %d", got, want)
	}
	if !Vectorized() {
		t.Skip("no vector loops: nothing streams")
	}
	StreamBytes = 3000
	z := make([]float64, 200) // 1600 bytes
	if _, ok := stream(z[:125], 3); ok {
		t.Errorf("3·125·8 = 3000 bytes streamed at a threshold of 3000")
	}
	if _, ok := stream(z[:126], 3); !ok {
		t.Errorf("3·126·8 = 3024 bytes did not stream at a threshold of 3000")
	}
	if _, ok := stream(z[:187], 2); ok {
		t.Errorf("2·187·8 = 2992 bytes streamed at a threshold of 3000")
	}
	if _, ok := stream(z[:188], 2); !ok {
		t.Errorf("2·188·8 = 3008 bytes did not stream at a threshold of 3000")
	}
}
