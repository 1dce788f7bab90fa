package verdict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func tfFindingFor(kind string, rank int) analysis.TFFinding {
	return analysis.TFFinding{Kind: kind, Rank: rank, Sentence: kind + " sentence", Evidence: []string{kind + " evidence"}}
}

// TestTFTreeLeadRanks: up to static conflicts a finding leads a healthy
// verdict; from backward stamps on it is a warning after the healthy
// sentence; rows with drops on tf's clock yield to every finding up to tf's
// offset from the recorder; with other unhealthy rows every finding is
// evidence, but tf's offset from the recorder when the evidence said every
// stamp lags record time.
func TestTFTreeLeadRanks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fs       []analysis.TFFinding
		healthy  bool
		drops    bool // the rows' fault is drops on tf's clock
		lags     bool // everyStampLags
		sentence string
		class    string
		evidence []string
	}{
		{"static conflict leads", []analysis.TFFinding{tfFindingFor(analysis.TFStaticConflict, analysis.RankTFStatic), tfFindingFor(analysis.TFRepeatedStamps, analysis.RankTFRepeated)}, true, false, false,
			analysis.TFStaticConflict + " sentence", analysis.VerdictTFTree + analysis.TFStaticConflict,
			[]string{"Sensor topics: rows healthy.", analysis.TFStaticConflict + " evidence", "tf tree: " + analysis.TFRepeatedStamps + " sentence"}},
		{"stale link leads", []analysis.TFFinding{tfFindingFor(analysis.TFStaleLink, analysis.RankTFStale)}, true, false, false,
			analysis.TFStaleLink + " sentence", analysis.VerdictTFTree + analysis.TFStaleLink, []string{"Sensor topics: rows healthy.", analysis.TFStaleLink + " evidence"}},
		{"backward stamps warn", []analysis.TFFinding{tfFindingFor(analysis.TFStampsBackward, analysis.RankTFBackward)}, true, false, false,
			"rows healthy; but the tf tree has a warning: " + analysis.TFStampsBackward + " sentence", analysis.VerdictTFTree + analysis.TFStampsBackward, []string{analysis.TFStampsBackward + " evidence"}},
		{"unhealthy rows keep their verdict", []analysis.TFFinding{tfFindingFor(analysis.TFStaleLink, analysis.RankTFStale), tfFindingFor(analysis.TFOffsetFromRecorder, analysis.RankTFOffset)}, false, false, false,
			"rows healthy.", "rows", []string{"tf tree: " + analysis.TFStaleLink + " sentence", "tf tree: " + analysis.TFOffsetFromRecorder + " sentence"}},
		{"every stamp lags: tf's offset not repeated", []analysis.TFFinding{tfFindingFor(analysis.TFStaleLink, analysis.RankTFStale), tfFindingFor(analysis.TFOffsetFromRecorder, analysis.RankTFOffset)}, false, false, true,
			"rows healthy.", "rows", []string{"tf tree: " + analysis.TFStaleLink + " sentence"}},
		{"drops yield to a stale link", []analysis.TFFinding{tfFindingFor(analysis.TFStaleLink, analysis.RankTFStale)}, false, true, false,
			analysis.TFStaleLink + " sentence", analysis.VerdictTFTree + analysis.TFStaleLink, []string{"Sensor topics: rows healthy.", analysis.TFStaleLink + " evidence"}},
		{"drops yield to tf's offset from the recorder", []analysis.TFFinding{tfFindingFor(analysis.TFOffsetFromRecorder, analysis.RankTFOffset), tfFindingFor(analysis.TFRepeatedStamps, analysis.RankTFRepeated)}, false, true, false,
			analysis.TFOffsetFromRecorder + " sentence", analysis.VerdictTFTree + analysis.TFOffsetFromRecorder,
			[]string{"Sensor topics: rows healthy.", analysis.TFOffsetFromRecorder + " evidence", "tf tree: " + analysis.TFRepeatedStamps + " sentence"}},
		{"drops outrank repeated stamps", []analysis.TFFinding{tfFindingFor(analysis.TFRepeatedStamps, analysis.RankTFRepeated)}, false, true, false,
			"rows healthy.", "rows", []string{"tf tree: " + analysis.TFRepeatedStamps + " sentence"}},
		{"no findings", nil, true, false, false, "rows healthy.", "rows", nil},
	} {
		a := &analysis.Report{}
		a.TFFindings = tc.fs
		v := draft{head: built(text("rows healthy"))}
		v.Class = "rows"
		deciderFor(a).tfTreeLead(&v, tc.healthy, tc.drops, tc.lags)
		if got := v.head.String(); !strings.HasSuffix(got, tc.sentence) || v.Class != tc.class || fmt.Sprint(v.Evidence) != fmt.Sprint(tc.evidence) {
			t.Errorf("%s: verdict %q (%s) %q; want %q (%s) %q", tc.name, got, v.Class, v.Evidence, tc.sentence, tc.class, tc.evidence)
		}
	}
}

// TestTFTreeVerdictLines: without analysed messages the first finding is
// the verdict, the others' sentences its evidence.
func TestTFTreeVerdictLines(t *testing.T) {
	a := &analysis.Report{}
	var v draft
	if deciderFor(a).tfTreeVerdict(&v) {
		t.Fatal("a verdict without findings")
	}
	a.TFFindings = []analysis.TFFinding{tfFindingFor(analysis.TFStaleLink, analysis.RankTFStale), tfFindingFor(analysis.TFRepeatedStamps, analysis.RankTFRepeated), tfFindingFor(analysis.TFOffsetFromRecorder, analysis.RankTFOffset)}
	if !deciderFor(a).tfTreeVerdict(&v) {
		t.Fatal("no verdict")
	}
	want := []string{analysis.TFStaleLink + " evidence", analysis.TFRepeatedStamps + " sentence", analysis.TFOffsetFromRecorder + " sentence"}
	if v.head.String() != analysis.TFStaleLink+" sentence" || v.Class != analysis.VerdictTFTree+analysis.TFStaleLink || fmt.Sprint(v.Evidence) != fmt.Sprint(want) {
		t.Errorf("verdict %q (%s) %q", v.head, v.Class, v.Evidence)
	}
}
