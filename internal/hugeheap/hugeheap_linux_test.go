package hugeheap

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAdvised checks what init promises: where the kernel's mode is
// "madvise", the heap mapping holding the advised address is flagged for
// huge pages ("hg" in smaps' VmFlags); elsewhere nothing is advised. This
// test binary's own initialisers ran after the advice, as bagclock's do.
func TestAdvised(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	madvise := err == nil && strings.Contains(string(mode), "[madvise]")
	size, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	want := madvise && strings.TrimSpace(string(size)) == "2097152"
	addr := Advised()
	if (addr != 0) != want {
		t.Fatalf("Advised() = %#x with transparent_hugepage %q, huge page size %q", addr, strings.TrimSpace(string(mode)), strings.TrimSpace(string(size)))
	}
	if addr == 0 {
		t.Skipf("transparent huge pages %q of %q bytes here: nothing to advise", strings.TrimSpace(string(mode)), strings.TrimSpace(string(size)))
	}
	if addr%(2<<20) != 0 {
		t.Errorf("advised address %#x is not on a huge page boundary", addr)
	}
	checkHugeFlag(t, addr)
}

// TestAdviseBlock: the block analyze advises before its pass is flagged
// for huge pages where the kernel's mode is "madvise", and nothing is
// advised elsewhere or for an empty block.
func TestAdviseBlock(t *testing.T) {
	if AdviseBlock(0) != 0 {
		t.Errorf("AdviseBlock(0) advised something")
	}
	mode, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	size, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	want := strings.Contains(string(mode), "[madvise]") && strings.TrimSpace(string(size)) == "2097152"
	addr := AdviseBlock(32 << 20)
	if (addr != 0) != want {
		t.Fatalf("AdviseBlock = %#x with transparent_hugepage %q, huge page size %q", addr, strings.TrimSpace(string(mode)), strings.TrimSpace(string(size)))
	}
	if addr == 0 {
		t.Skipf("transparent huge pages %q here: nothing to advise", strings.TrimSpace(string(mode)))
	}
	checkHugeFlag(t, addr)
}

// checkHugeFlag fails unless the mapping holding addr is flagged for huge
// pages ("hg" in smaps' VmFlags).
func checkHugeFlag(t *testing.T, addr uintptr) {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	inside, huge := false, ""
	for _, line := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := vmaRange(line); ok {
			inside = lo <= uint64(addr) && uint64(addr) < hi
			continue
		}
		if !inside {
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			huge = strings.TrimSpace(v)
		}
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			if !strings.Contains(" "+f+" ", " hg ") {
				t.Fatalf("the mapping holding %#x has VmFlags%s, without hg", addr, f)
			}
			// Whether the kernel had a free huge page to give is its
			// business (memory fragmentation), so it is only logged.
			t.Logf("advised %#x; its mapping holds %s of huge pages", addr, huge)
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
