package hugepage

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// advise marks the aligned huge pages inside the size bytes at p
// MADV_HUGEPAGE.
// An error (a kernel built without transparent huge pages) leaves the
// memory on ordinary pages, which is all the advice could change.
func advise(p unsafe.Pointer, size uintptr) {
	lo, hi := interior(uintptr(p), size)
	if hi == lo {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo)), hi-lo), unix.MADV_HUGEPAGE)
}
