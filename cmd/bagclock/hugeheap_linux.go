package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// hugeHeapBytes is how much of the heap's address space asks for
// transparent huge pages: an analyze of the 117 MB benchmark bag touches
// about 10 MiB of heap, so its pass fits.
const hugeHeapBytes = 32 << 20

// hugeHeap asks the kernel to back the next hugeHeapBytes of the Go heap
// with 2 MiB pages, where transparent huge pages are enabled only on
// request ("madvise", as on the benchmark machine). The Go runtime asks for
// none itself, so every 4 KiB heap page costs a page fault, and under a
// paravirtualised hypervisor a fault costs 11–16 µs: about 2,000 of them
// were a third of analyze's CPU (docs/performance.md). It allocates one
// large block, which the runtime maps fresh and does not touch, advises
// its range, and drops it: the collector frees it at its first cycle and
// later spans reuse those addresses. Where huge pages are "always" or
// "never" it does nothing. It returns the advised address (0: none).
func hugeHeap() uintptr {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		return 0
	}
	page := uintptr(2 << 20)
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"); err == nil {
		if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
			page = uintptr(n)
		}
	}
	block := make([]byte, hugeHeapBytes)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	beg := (p + page - 1) &^ (page - 1)
	end := (p + hugeHeapBytes) &^ (page - 1)
	var advised uintptr
	if beg < end {
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, syscall.MADV_HUGEPAGE); errno == 0 {
			advised = beg
		}
	}
	runtime.KeepAlive(block)
	return advised
}
