package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

// analyzeShared opens a private copy of ../shared/bags/<name> and analyses it.
func analyzeShared(t *testing.T, name string, cfg Config) (*Report, []ScanRow) {
	t.Helper()
	dir := testenv.CopyTree(t, testenv.SharedBag(t, name))
	bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer bag.Close()
	var rows []ScanRow
	rep, err := Analyze(bag, cfg, func(r *ScanRow) error { rows = append(rows, *r); return nil })
	if err != nil {
		t.Fatalf("analyze %s: %v", name, err)
	}
	return rep, rows
}

func TestDumpShared(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	entries, _ := os.ReadDir(filepath.Join(testenv.SharedDir(t), "bags"))
	for _, e := range entries {
		if !e.IsDir() || !scanBags[e.Name()] {
			continue
		}
		rep, _ := analyzeShared(t, e.Name(), Config{})
		t.Logf("%s: scans=%d classes=%v filter=%v jumps=%d stampjumps=%d zero=%+v findings=%v\n  verdict: %s\n  evidence: %q\n  tf=%d skew=%+v rosout=%d pairs=%+v", e.Name(), rep.Summary.Scans, rep.Summary.Classes, rep.Summary.Filter, rep.Counts.ClockJumps, rep.Counts.StampJumps, rep.ZeroStamp, rep.Summary.Findings, rep.Verdict.Sentence, rep.Verdict.Evidence, len(rep.TFTree), rep.Skew, len(rep.Rosout), rep.Pairs)
	}
}

// scanBags are the shared bags that hold LaserScan messages or topics.
var scanBags = map[string]bool{
	"tb3-walker-humble-nitesh": true, "tb3-walker-humble-sameer": true, "tb3-walker-simstart": true,
	"tb3-walker-no-metadata": true, "tb3-walker-corrupt-metadata": true, "tb3-roomba-v4-empty-scan": true,
	"tb3-amcl-foxy-a": true, "tb3-amcl-foxy-b": true, "tb3-unclean-wal-no-metadata": true,
	"uts-pfms-quiz5": true, "uts-pfms-a3-sample": true, "selfdriving-real-scan-no-tf": true,
	"mumble-isaac-scan": true, "rerun-rosbag2-humble-mcap": true, "evo-nav2-turtlebot-mcap": true,
}
