package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestHugeHeapAdvises checks the outcome hugeHeap promises: the mapping
// holding the address it advised is flagged for huge pages ("hg" in
// smaps' VmFlags), or, where the kernel's mode is not "madvise", nothing
// is advised.
func TestHugeHeapAdvises(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	madvise := err == nil && strings.Contains(string(mode), "[madvise]")
	addr := hugeHeap()
	if (addr != 0) != madvise {
		t.Fatalf("hugeHeap() = %#x with transparent_hugepage %q", addr, strings.TrimSpace(string(mode)))
	}
	if addr == 0 {
		t.Skipf("transparent huge pages are %q here: nothing to advise", strings.TrimSpace(string(mode)))
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	inside := false
	for _, line := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := vmaRange(line); ok {
			inside = lo <= uint64(addr) && uint64(addr) < hi
			continue
		}
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok && inside {
			if !strings.Contains(" "+f+" ", " hg ") {
				t.Fatalf("the mapping holding %#x has VmFlags%s, without hg", addr, f)
			}
			return
		}
	}
	t.Fatalf("no mapping holds the advised address %#x", addr)
}

// vmaRange parses an smaps mapping line ("start-end perms ...").
func vmaRange(line string) (lo, hi uint64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 2 || strings.HasSuffix(f[0], ":") {
		return 0, 0, false
	}
	a, b, found := strings.Cut(f[0], "-")
	if !found {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(a, 16, 64)
	hi, err2 := strconv.ParseUint(b, 16, 64)
	return lo, hi, err1 == nil && err2 == nil
}
