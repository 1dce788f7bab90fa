package hugeheap

import (
	"syscall"
	"unsafe"
)

// Sizes of the advice: the runtime maps the heap in 4 MiB steps (one page
// allocator chunk), so the first step's last two huge pages are what is
// mapped and not yet touched when this runs.
const (
	hugePage    = 2 << 20
	advisedSpan = 2 * hugePage
	// A large object (over 32 KiB) gets pages of its own, at the lowest
	// free address that fits: where the heap's used part ends.
	probeBytes = 64 << 10
)

// advised is the start of the advised range (0: none).
var advised uintptr

// Advised returns the start of the heap range that was advised for huge
// pages at initialisation, 0 when none was.
func Advised() uintptr { return advised }

func init() { advised = advise() }

// advise finds where the heap's used part ends (a probe, a large object),
// fills the rest of that 2 MiB page with a spacer (another one, never
// touched: fresh pages need no zeroing), and advises the two huge pages
// after it. Spans allocated next land there, since the runtime takes the
// lowest free pages and those below are used or taken by the spacer. Probe
// and spacer are garbage at once; the first collection frees them. No
// collection runs here: one would cost more than it saves (about 5 ms).
func advise() uintptr {
	if !madviseMode() || !twoMiBPages() {
		return 0
	}
	probe := make([]byte, probeBytes)
	end := uintptr(unsafe.Pointer(unsafe.SliceData(probe))) + probeBytes
	beg := (end + hugePage - 1) &^ (hugePage - 1)
	var spacer []byte
	if beg-end > 32<<10 {
		spacer = make([]byte, beg-end)
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, advisedSpan, syscall.MADV_HUGEPAGE)
	if errno != 0 {
		// Less of the heap is mapped: the first huge page then.
		_, _, errno = syscall.Syscall(syscall.SYS_MADVISE, beg, hugePage, syscall.MADV_HUGEPAGE)
	}
	keep(probe, spacer)
	if errno != 0 {
		return 0
	}
	return beg
}

// keep holds both blocks until the advice is given, so that neither is
// freed (and its pages handed out) before.
//
//go:noinline
func keep(_, _ []byte) {}

// madviseMode reports whether transparent huge pages are given on request
// only, the one mode in which advising changes anything.
func madviseMode() bool {
	const want = "[madvise]"
	b := readSmall("/sys/kernel/mm/transparent_hugepage/enabled")
	for i := 0; i+len(want) <= len(b); i++ {
		if string(b[i:i+len(want)]) == want {
			return true
		}
	}
	return false
}

// twoMiBPages reports whether the kernel's huge pages are of 2 MiB (the
// page table's middle level on x86-64 and 4 KiB-page arm64), the size the
// advice is laid out for.
func twoMiBPages() bool {
	b := readSmall("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	return len(b) >= 7 && string(b[:7]) == "2097152"
}

// readSmall reads the first 128 bytes of a file with bare system calls
// (os is not initialised yet).
func readSmall(path string) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	buf := make([]byte, 128)
	n, err := syscall.Read(fd, buf)
	if err != nil || n <= 0 {
		return nil
	}
	return buf[:n]
}
