package analysis

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

// sharedFaults are the shared bags whose faults are known (verdicts.txt
// gives each one's reason) and the verdict class that names the fault;
// every other shared bag is healthy as far as clocks go.
var sharedFaults = map[string]string{
	"ait-ros2bag-tools/images.bag": "zero_stamp",
}

// sharedClockAlarms are the healthy shared bags that still get a clock or
// time finding, and why: the figure holds them, any other is a regression,
// and an entry that no longer alarms must go. Goal (reached): none.
var sharedClockAlarms = map[string]string{}

// TestFalseAlarmFigure prints and holds the false-alarm figure over the
// noise matrix and every shared bag: healthy bags with a clock or time
// finding (goal 0) and faulty bags whose verdict leads with their fault
// (goal all). Healthy in the matrix means no clock fault: a tf stall there
// really drops scans (drop findings, worded as not a clock problem), which
// is counted apart and is not a false alarm.
func TestFalseAlarmFigure(t *testing.T) {
	if testing.Short() {
		t.Skip("generates many bags")
	}
	f := noiseMatrix(t)
	root := filepath.Join(testenv.SharedDir(t), "bags")
	d := bagread.Discover(root)
	var healthy, alarms, faulty, right int
	var wrong []string
	for _, db := range d.Bags {
		e := verdictOf(t, db)
		clock := slices.ContainsFunc(strings.Split(e.Findings, ","), func(k string) bool { return slices.Contains(clockFindings, k) })
		if class, ok := sharedFaults[db.Rel]; ok {
			faulty++
			if e.Class == class {
				right++
			} else {
				wrong = append(wrong, db.Rel+": verdict "+e.Class+", want "+class)
			}
			continue
		}
		healthy++
		_, known := sharedClockAlarms[db.Rel]
		switch {
		case clock && !known:
			wrong = append(wrong, db.Rel+": healthy, yet findings "+e.Findings)
		case !clock && known:
			wrong = append(wrong, db.Rel+": listed in sharedClockAlarms but has no clock finding now: remove it")
		}
		if clock {
			alarms++
		}
	}
	t.Logf("false-alarm figure: healthy %d, with a clock or time finding %d (noise matrix %d of %d, shared bags %d of %d); faulty %d, right lead %d (noise matrix %d of %d, shared bags %d of %d)",
		f.healthy+healthy, f.healthyClock+alarms, f.healthyClock, f.healthy, alarms, healthy,
		f.faulty+faulty, f.faultyOK+right, f.faultyOK, f.faulty, right, faulty)
	if f.healthyClock > 0 || f.faultyOK != f.faulty || len(f.wrong) > 0 {
		t.Errorf("noise matrix: %d healthy with a clock finding, %d of %d faulty right:\n%s", f.healthyClock, f.faultyOK, f.faulty, strings.Join(f.wrong, "\n"))
	}
	if len(wrong) > 0 {
		t.Errorf("shared bags:\n%s", strings.Join(wrong, "\n"))
	}
}
