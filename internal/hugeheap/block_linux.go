package hugeheap

import (
	"runtime"
	"syscall"
	"unsafe"
)

// AdviseBlock asks the kernel to back the next n bytes of the heap's
// address space with 2 MiB pages, where transparent huge pages are given
// on request only, and returns the advised address (0: none). analyze
// calls it before its pass, which allocates about 10 MiB on the 117 MB
// benchmark bag: fresh 4 KiB heap pages cost a fault each, and there one
// costs 11–17 µs (docs/performance.md). It allocates one large block,
// which the runtime maps fresh and does not touch, advises its range and
// drops it: the collector frees it at its first cycle and later spans
// reuse those addresses.
func AdviseBlock(n int) uintptr {
	if n <= 0 || !madviseMode() || !twoMiBPages() {
		return 0
	}
	block := make([]byte, n)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	beg := (p + hugePage - 1) &^ (hugePage - 1)
	end := (p + uintptr(n)) &^ (hugePage - 1)
	var adv uintptr
	if beg < end {
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, syscall.MADV_HUGEPAGE); errno == 0 {
			adv = beg
		}
	}
	runtime.KeepAlive(block)
	return adv
}
