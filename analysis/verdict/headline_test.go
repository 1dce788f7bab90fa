package verdict

import (
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestHeadlineParts: the rules that rework a headline do it by its parts,
// so the words they would have searched for may appear anywhere else in
// it without effect.
func TestHeadlineParts(t *testing.T) {
	ok := part{partNoClockProblem, noClockProblem}
	// The stem quotes the words the rules once searched for.
	stem := text(`/a and tf ("no clock problem in this bag: not a clock problem") are on the same clock`)
	notCP := part{partNotClockProblem, ": not a clock problem; look at the queue size"}
	for _, tc := range []struct {
		name                    string
		h                       headline
		sentence, demoted, stem string
		blamed                  string
	}{
		{"healthy", built(stem, ok),
			stem.text + noClockProblem + ".", stem.text + ".", stem.text, stem.text + noClockProblem + "."},
		{"healthy, a clause after the verdict", built(stem, ok, text(", though the bag cannot tell")),
			stem.text + noClockProblem + ", though the bag cannot tell.", stem.text + ", though the bag cannot tell.", stem.text + ", though the bag cannot tell",
			stem.text + noClockProblem + ", though the bag cannot tell."},
		{"drops on one clock", built(stem, notCP),
			stem.text + notCP.text + ".", stem.text + notCP.text + ".", stem.text + notCP.text,
			stem.text + ": the headline's clock fault makes them wait for tf until the filter drops them."},
		{"drops, and an empty topic after", func() headline { h := built(stem, notCP); h.add(" And /e was recorded without a message."); return h }(),
			stem.text + notCP.text + ". And /e was recorded without a message.", stem.text + notCP.text + ". And /e was recorded without a message.",
			stem.text + notCP.text + ". And /e was recorded without a message.",
			stem.text + ": the headline's clock fault makes them wait for tf until the filter drops them."},
		{"a whole sentence", whole("Drops: not a clock problem in this bag" + noClockProblem + "."),
			"Drops: not a clock problem in this bag" + noClockProblem + ".", "Drops: not a clock problem in this bag" + noClockProblem + ".",
			"Drops: not a clock problem in this bag" + noClockProblem + ".", "Drops: not a clock problem in this bag" + noClockProblem + "."},
	} {
		if got := tc.h.String(); got != tc.sentence {
			t.Errorf("%s: sentence %q, want %q", tc.name, got, tc.sentence)
		}
		if got := tc.h.demoted().String(); got != tc.demoted {
			t.Errorf("%s: demoted %q, want %q", tc.name, got, tc.demoted)
		}
		if got := tc.h.healthyStem().String(); got != tc.stem {
			t.Errorf("%s: stem %q, want %q", tc.name, got, tc.stem)
		}
		if got := tc.h.blamedOnClock().String(); got != tc.blamed {
			t.Errorf("%s: blamed %q, want %q", tc.name, got, tc.blamed)
		}
		if got := tc.h.String(); got != tc.sentence {
			t.Errorf("%s: reworking changed the headline: %q", tc.name, got)
		}
	}
}

// TestTreeHeadlineAsks: a tree on two clocks asks for use_sim_time:=true
// by its kind; another finding that mentions use_sim_time:=true (the
// re-recorded bag's "use_sim_time:=true on the recorder") asks nothing,
// so nameNodes names no node with false under it.
func TestTreeHeadlineAsks(t *testing.T) {
	for _, tc := range []struct {
		f    analysis.TFFinding
		want ask
	}{
		{analysis.TFFinding{Kind: analysis.TFOtherClockFamily, Sentence: "Two clocks."}, askSimTimeTrue},
		{analysis.TFFinding{Kind: analysis.TFOffsetFromRecorder, Sentence: "Replay with --clock (and use_sim_time:=true on the recorder)."}, askNothing},
		{analysis.TFFinding{Kind: analysis.TFStaleLink, Sentence: "Stale."}, askNothing},
	} {
		h := deciderFor(&analysis.Report{}).treeHeadline(tc.f)
		if h.ask != tc.want || h.String() != tc.f.Sentence {
			t.Errorf("%s: ask %d %q, want %d", tc.f.Kind, h.ask, h, tc.want)
		}
	}
	// Under the rows' warning, a re-recorded bag's headline with nodes
	// announcing use_sim_time=false lists them as evidence, not as the
	// node to fix.
	r := sensorReport(pairs(pairWith("/a", analysis.SameClock, 10, 0)))
	r.TFFindings = []analysis.TFFinding{{Kind: analysis.TFOffsetFromRecorder, Rank: analysis.RankTFOffset, Sentence: "Replay with --clock (and use_sim_time:=true on the recorder)."}}
	r.Pass.ParamEvents = true
	r.Nodes = []analysis.NodeClock{{Node: "/drv", UseSimTime: "false", UseSimTimeAtS: 1}, {Node: "/rsp", UseSimTime: "true"}}
	v := Decide(r)
	const want = "/a and tf are on the same clock (median 2.0 ms apart) and no scan is dropped by the rviz filter; but the tf tree has a warning: Replay with --clock (and use_sim_time:=true on the recorder)."
	if v.Sentence != want || !containsSub(v.Evidence, "Nodes and their clocks: /drv has use_sim_time=false") || containsSub(v.Commands, "ros2 param get /drv") {
		t.Errorf("headline %q\nevidence %q\ncommands %q", v.Sentence, v.Evidence, v.Commands)
	}
}
