//go:build !linux

package hugepage

import "unsafe"

// advise does nothing where the system offers no huge-page advice for
// anonymous memory.
func advise(p unsafe.Pointer, size uintptr) {}
