package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/repair"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestFixRecordTime: --record-time puts every record time on sim time
// through the plan's /clock fit (and nothing else changes: the stamps are
// those of the run without it); it is refused where the reference is the
// recorder's clock or /clock jumps back.
func TestFixRecordTime(t *testing.T) {
	for _, in := range []string{"mcap", "sqlite3"} {
		for _, out := range []string{"mcap", "sqlite3"} {
			t.Run(in+"_to_"+out, func(t *testing.T) {
				spec, err := scenario.Get(scenario.LaserSystemTFSim)
				if err != nil {
					t.Fatal(err)
				}
				spec = spec.Sample()
				bag := specBag(t, spec, in)
				tmp := t.TempDir()
				planFile := filepath.Join(tmp, "plan.json")
				if code, so, se := runCLI(t, "fix", bag, "--plan", planFile, "--dry-run"); code != exitOK {
					t.Fatalf("plan: exit %d\n%s\n%s", code, so, se)
				}
				f, err := os.Open(planFile)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := repair.Load(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				plain, mapped := filepath.Join(tmp, "plain"), filepath.Join(tmp, "mapped")
				if code, so, se := runCLI(t, "fix", bag, "-o", plain, "--storage", out); code != exitOK {
					t.Fatalf("fix: exit %d\n%s\n%s", code, so, se)
				}
				if code, so, se := runCLI(t, "fix", bag, "-o", mapped, "--storage", out, "--record-time"); code != exitOK {
					t.Fatalf("fix --record-time: exit %d\n%s\n%s", code, so, se)
				}
				a, _ := readAll(t, plain)
				b, _ := readAll(t, mapped)
				moved := 0
				for topic, ms := range a {
					got := b[topic]
					if len(got) != len(ms) {
						t.Fatalf("%s: %d messages with --record-time, %d without", topic, len(got), len(ms))
					}
					for i := range ms {
						want, ok := plan.Clock.SimAt(ms[i].log)
						if !ok {
							want = ms[i].log // beyond the fit: left as it was
						}
						if got[i].log != want {
							t.Fatalf("%s message %d: record time %d, want %d (sim time at %d)", topic, i, got[i].log, want, ms[i].log)
						}
						if got[i].log != ms[i].log {
							moved++
						}
						if string(got[i].data) != string(ms[i].data) {
							t.Fatalf("%s message %d: payload differs from the copy without --record-time", topic, i)
						}
					}
				}
				if moved == 0 {
					t.Error("--record-time moved no record time")
				}
				checkOutputStorage(t, mapped, out)
			})
		}
	}
	refused := func(name, want string) {
		t.Helper()
		bag := caseBag(t, name, "mcap")
		dst := filepath.Join(t.TempDir(), "out")
		code, _, stderr := runCLI(t, "fix", bag, "-o", dst, "--record-time")
		if code != exitFailure || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", name, code, stderr, want)
		}
		if _, err := os.Stat(dst); !os.IsNotExist(err) {
			t.Errorf("%s: wrote %s", name, dst)
		}
	}
	refused(scenario.Skew2500ms, "recorder's")
	refused(scenario.ClockLoop, "jumps")
}
