package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/repair"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestFixPairedDonor: a colour driver that stamps camera_info 0 (or the
// image 0 and camera_info right): fix gives each stamp of 0 the stamp of
// its partner, the message of the same frame, exactly; the plan and
// custom_data name the paired topic; the image_transport ExactTime
// synchronizer, starved before, pairs every frame after.
func TestFixPairedDonor(t *testing.T) {
	for _, zeroInfo := range []bool{true, false} {
		for _, in := range []string{"mcap", "sqlite3"} {
			zero, donor := scenario.TopicColourInfo, scenario.TopicColour
			if !zeroInfo {
				zero, donor = donor, zero
			}
			t.Run(filepath.Base(zero)+"/"+in, func(t *testing.T) {
				spec, err := scenario.Get(scenario.SyncAligned)
				if err != nil {
					t.Fatal(err)
				}
				spec.Duration = 4 * time.Second
				spec.Camera.InfoZero, spec.Camera.ColourZero = zeroInfo, !zeroInfo
				bag := specBag(t, spec, in)
				tmp := t.TempDir()
				planFile, dst := filepath.Join(tmp, "plan.json"), filepath.Join(tmp, "fixed")
				code, stdout, stderr := runCLI(t, "fix", bag, "-o", dst, "--plan", planFile)
				if code != exitOK {
					t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
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
				var entry *repair.Entry
				for i := range plan.Entries {
					if plan.Entries[i].Topic == zero {
						entry = &plan.Entries[i]
					}
				}
				if entry == nil || entry.Action != repair.ActionMap || entry.Zero == nil || entry.Zero.PairedTopic != donor {
					t.Fatalf("plan entry for %s: %+v, want stamps of 0 from %s", zero, entry, donor)
				}
				md, _ := os.ReadFile(filepath.Join(dst, "metadata.yaml"))
				if !strings.Contains(string(md), "bagclock.fix.synthesized_stamps") || !strings.Contains(string(md), "paired "+donor) {
					t.Errorf("custom_data does not name the paired topic:\n%s", md)
				}
				// Each frame's two messages carry one stamp in the copy.
				out, _ := readAll(t, dst)
				zs, ds := out[zero], out[donor]
				if len(zs) == 0 || len(zs) != len(ds) {
					t.Fatalf("%d %s and %d %s messages", len(zs), zero, len(ds), donor)
				}
				for i := range zs {
					if got, want := scanStamp(t, zs[i].data), scanStamp(t, ds[i].data); got != want || got == 0 {
						t.Fatalf("%s message %d: stamp %d, its %s partner's %d", zero, i, got, donor, want)
					}
				}
				if !strings.Contains(stdout, "from "+donor) {
					t.Errorf("the summary does not say the stamps came from %s:\n%s", donor, stdout)
				}
				before, after := analyzeReport(t, bag), analyzeReport(t, dst)
				for _, f := range after.Summary.Findings {
					if f == "clock-mismatch" || f == "drop" || f == "zero-stamp" {
						t.Errorf("the copy still finds %s: %s", f, after.Verdict.Sentence)
					}
				}
				b, a := exactInfoSets(before), exactInfoSets(after)
				if b != 0 || a != int64(len(zs)) {
					t.Errorf("image + camera_info ExactTime sets: %d before (want 0), %d after (want %d)", b, a, len(zs))
				}
			})
		}
	}
}

// exactInfoSets is the sets of the ExactTime synchronizer over the colour
// image and its camera_info, -1 when not emulated.
func exactInfoSets(rep *analysis.Report) int64 {
	for _, s := range rep.Sync {
		if s.Policy == "exact" && strings.Contains(strings.Join(s.Topics, " "), scenario.TopicColourInfo) {
			return s.Sets
		}
	}
	return -1
}
