package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestMakeAdvises checks that the kernel recorded the advice: the memory
// area holding a large slice's first aligned page carries the "hg" flag
// (MADV_HUGEPAGE) in /proc/self/smaps.
func TestMakeAdvises(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages on this kernel:", err)
	}
	s := Make[float64](Threshold / 8 * 2)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo, hi := interior(p, uintptr(len(s))*8)
	if hi == lo {
		t.Fatalf("a slice of %d bytes holds no aligned page", len(s)*8)
	}
	flags, err := vmFlags(p + lo)
	if err != nil {
		t.Skip("cannot read /proc/self/smaps:", err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("memory area of %#x has VmFlags %q, want hg (MADV_HUGEPAGE)", p+lo, flags)
	}
}

// vmFlags returns the VmFlags line of the smaps entry holding address a.
func vmFlags(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	inside := false
	for sc.Scan() {
		line := sc.Text()
		var start, end uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &start, &end); n == 2 {
			inside = start <= a && a < end
			continue
		}
		if inside && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no memory area holds %#x", a)
}
