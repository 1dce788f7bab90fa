package bombs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestBombRSS is the memory check of scripts/bomb-rss.sh, not a unit
// test: it builds bagclock, writes full-size bombs (the sizes of the
// audit in issue 10) and runs info, analyze and scan -j 2 on each with the
// default decode budget, printing peak RSS and failing above 256 MiB.
// Set BAGCLOCK_BOMB_RSS=1 to run it; it needs about a minute of CPU.
func TestBombRSS(t *testing.T) {
	if os.Getenv("BAGCLOCK_BOMB_RSS") == "" {
		t.Skip("set BAGCLOCK_BOMB_RSS=1 (scripts/bomb-rss.sh)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bagclock")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/bagclock")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gib, mib := int64(1<<30), int64(1<<20)
	arch := filepath.Join(dir, "bombs")
	os.MkdirAll(arch, 0o755)
	// Bombs are made first and small: the test process's own peak RSS
	// must stay low, as a child's peak starts from its parent's at fork.
	honest := must(Zeros(gib, true))
	noSize := must(Zeros(2*gib, false))
	bags := map[string]func(string) error{
		"chunk-honest-1GiB.mcap": func(p string) error { _, err := MCAPChunk(p, uint64(gib), honest); return err },
		"chunk-lying-1MiB-2GiB.mcap": func(p string) error {
			_, err := MCAPChunk(p, uint64(mib), noSize)
			return err
		},
		"message-mode-900MiB.db3": func(p string) error {
			row := must(Zeros(900*mib, false))
			return MessageModeDB3(p, row, row, row, row)
		},
		"file-mode-4x1GiB.db3.zstd": func(p string) error { return FileModeDB3(p, honest, honest, honest, honest) },
		// Not compressed: one /scan (LaserScan) row of 500 MB between two
		// small ones, over the budget: never loaded.
		"laserscan-row-500MB.db3": func(p string) error { return BigRowDB3(p, 500_000_000) },
	}
	// BAGCLOCK_BOMB_RSS_ONLY=substring runs the bags whose name holds it.
	if only := os.Getenv("BAGCLOCK_BOMB_RSS_ONLY"); only != "" {
		for name := range bags {
			if !strings.Contains(name, only) {
				delete(bags, name)
			}
		}
	}
	var names []string
	for name, write := range bags {
		p := filepath.Join(arch, name)
		if err := write(p); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		t.Logf("%s: %d bytes on disk", name, st.Size())
		names = append(names, name)
	}
	const limit = 256 << 20
	run := func(label string, args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "TMPDIR="+dir)
		out, err := cmd.CombinedOutput()
		code := 0
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				t.Fatalf("%s: %v", label, err)
			}
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
		t.Logf("%-48s exit %d, peak RSS %4d MiB", label, code, rss>>20)
		if rss > limit {
			t.Errorf("%s: peak RSS %d MiB over %d MiB\n%s", label, rss>>20, limit>>20, out)
		}
	}
	for _, n := range names {
		p := filepath.Join(arch, n)
		run("info "+n, "info", p)
		run("analyze "+n, "analyze", "-o", filepath.Join(dir, n+".json"), p)
	}
	run(fmt.Sprintf("scan -j 2 (%d bombs)", len(names)), "scan", "-q", "-j", "2", "-o", filepath.Join(dir, "out"), arch)
	if left, _ := filepath.Glob(filepath.Join(dir, "bagclock-*")); len(left) > 0 {
		t.Errorf("temp dirs left in TMPDIR: %v", left)
	}
}
