package analysis

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of damage.go (issue 15): each part of the damage
// headline and notes appears from its threshold on, on bags built in
// memory so that every count is exact.

// damageBoundsAssess runs assessDamage on bag with the given skipped
// count and reader problems, then the verdict; it also returns the
// verdict of the same report without its damage, which the damage is
// put in front of.
func damageBoundsAssess(bag *bagread.Bag, skipped int, problems ...string) (*Report, Verdict) {
	rep := &Report{}
	rep.Summary.Skipped = skipped
	rep.Bag.Problems = append([]string{}, problems...)
	assessDamage(rep, bag)
	undamaged := *rep
	undamaged.Damage = nil
	FinishForTest(&undamaged)
	FinishForTest(rep)
	return rep, undamaged.Verdict
}

// damageBoundsMeta is a bag whose metadata.yaml counts recorded messages
// and whose storage holds present.
func damageBoundsMeta(recorded, present uint64, files ...bagread.File) *bagread.Bag {
	return &bagread.Bag{Path: "/nonexistent/bag", Metadata: &bagread.Metadata{MessageCount: recorded}, MessageCount: present, Files: files}
}

func damageBoundsCut(name string) bagread.File {
	return bagread.File{Path: "/d/" + name, Recovery: &bagread.Recovery{Reason: "cut at byte 9", Offset: 9}}
}

// TestDamageHeadlineBoundary: the status and headline of bags at each
// threshold.
func TestDamageHeadlineBoundary(t *testing.T) {
	noMeta := func(present uint64, files ...bagread.File) *bagread.Bag {
		return &bagread.Bag{Path: "/nonexistent/bag", MessageCount: present, Files: files}
	}
	for _, tc := range []struct {
		name     string
		bag      *bagread.Bag
		skipped  int
		problems []string
		status   string
		headline string
	}{
		{"complete", damageBoundsMeta(5, 5), 0, nil, DamageOK, ""},
		{"empty recording", damageBoundsMeta(0, 0), 0, nil, DamageOK, ""},
		{"no metadata, empty", noMeta(0), 0, nil, DamageOK, ""},
		{"no metadata", noMeta(4), 0, nil, DamageOK, ""},
		{"one message short", damageBoundsMeta(5, 4), 0, nil, DamageDamaged, "partial bag: 4 of 5 messages present"},
		{"all present, one skipped", damageBoundsMeta(5, 5), 1, nil, DamageDamaged, "damaged bag: 1 message could not be read"},
		{"no metadata, two skipped", noMeta(4), 2, nil, DamageDamaged, "damaged bag: 2 messages could not be read"},
		{"none readable", damageBoundsMeta(1, 0), 0, nil, DamageUnreadable, "unreadable bag: no message can be read (0 of 1 messages present)"},
		{"cut, nothing recovered", noMeta(0, damageBoundsCut("a.mcap")), 0, nil, DamageUnreadable, "unreadable bag: no message can be read (a.mcap cut short)"},
		{"cut, one recovered", noMeta(1, damageBoundsCut("a.mcap")), 0, nil, DamageDamaged,
			"partial bag: 1 message recovered (how many were recorded is unknown: no usable metadata.yaml); a.mcap cut short"},
		{"cut with metadata", damageBoundsMeta(3, 3, damageBoundsCut("a.mcap")), 0, nil, DamageDamaged, "partial bag: a.mcap cut short"},
		{"cut, its own stop not repeated", damageBoundsMeta(3, 3, damageBoundsCut("a.mcap")), 0, []string{"/d/a.mcap: stopped at byte 9"}, DamageDamaged, "partial bag: a.mcap cut short"},
		{"cut, and a part skipped before", damageBoundsMeta(3, 3, damageBoundsCut("a.mcap")), 0, []string{"/d/a.mcap: skipped at byte 5"}, DamageDamaged,
			"partial bag: a.mcap cut short; damaged parts of a.mcap skipped"},
		{"cut, metadata counts 0", damageBoundsMeta(0, 3, damageBoundsCut("a.mcap")), 0, nil, DamageDamaged, "partial bag: a.mcap cut short"},
		{"only topic counts short, none read", &bagread.Bag{Path: "/nonexistent/bag", Metadata: &bagread.Metadata{},
			Topics: []bagread.Topic{{Name: "/t", MetadataCount: 2}}}, 0, nil, DamageUnreadable, "unreadable bag: no message can be read"},
		{"three cut", noMeta(9, damageBoundsCut("a"), damageBoundsCut("b"), damageBoundsCut("c")), 0, nil, DamageDamaged,
			"partial bag: 9 messages recovered (how many were recorded is unknown: no usable metadata.yaml); a, b, c cut short"},
		{"four cut", noMeta(9, damageBoundsCut("a"), damageBoundsCut("b"), damageBoundsCut("c"), damageBoundsCut("d")), 0, nil, DamageDamaged,
			"partial bag: 9 messages recovered (how many were recorded is unknown: no usable metadata.yaml); a, b, c and 1 more cut short"},
		{"a wal only is not damage", damageBoundsMeta(3, 3, bagread.File{Path: "/d/x.db3", Recovery: &bagread.Recovery{Offset: -1, WALMessages: 2}}), 0, nil, DamageOK, ""},
		{"stopped", damageBoundsMeta(3, 3, bagread.File{Path: "/d/x.mcap"}), 0, []string{"/d/x.mcap: stopped at byte 7", "/d/x.mcap: stopped again"}, DamageDamaged,
			"partial bag: reading x.mcap stopped before its end"},
		{"stopped, nothing read", damageBoundsMeta(3, 0, bagread.File{Path: "/d/x.mcap"}), 0, []string{"/d/x.mcap: stopped at byte 7"}, DamageUnreadable,
			"unreadable bag: no message can be read (0 of 3 messages present; reading x.mcap stopped before its end)"},
		{"another file's problem", damageBoundsMeta(3, 3, bagread.File{Path: "/d/x.mcap"}), 0, []string{"/d/y.mcap: stopped at byte 7"}, DamageOK, ""},
		{"skipped part", damageBoundsMeta(3, 3, bagread.File{Path: "/d/x.mcap"}), 0, []string{"/d/x.mcap: skipped at byte 7", "/d/x.mcap: skipped at byte 90"}, DamageDamaged,
			"partial bag: damaged parts of x.mcap skipped"},
		{"damage, reading went on", damageBoundsMeta(3, 3, bagread.File{Path: "/d/x.mcap"}), 0, []string{"/d/x.mcap: damage at byte 7", "/d/x.mcap: damage at byte 90"}, DamageDamaged,
			"damaged bag: damage inside x.mcap (reading went on)"},
		{"damage and a short count", damageBoundsMeta(3, 2, bagread.File{Path: "/d/x.mcap"}), 0, []string{"/d/x.mcap: damage at byte 7"}, DamageDamaged,
			"partial bag: 2 of 3 messages present; damage inside x.mcap (reading went on)"},
	} {
		rep, base := damageBoundsAssess(tc.bag, tc.skipped, tc.problems...)
		d := rep.Damage
		if d.Status != tc.status || d.Headline != tc.headline {
			t.Errorf("%s: status %q headline %q; want %q %q", tc.name, d.Status, d.Headline, tc.status, tc.headline)
			continue
		}
		switch tc.status {
		case DamageOK:
			if rep.Verdict.Sentence != base.Sentence || has(rep.Summary.Findings, "damage") {
				t.Errorf("%s: ok bag changed the verdict: %q, findings %q", tc.name, rep.Verdict.Sentence, rep.Summary.Findings)
			}
		case DamageUnreadable:
			want := strings.ToUpper(tc.headline[:1]) + tc.headline[1:] + ": there is nothing to analyse."
			if rep.Verdict.Sentence != want || rep.Summary.Verdict != want || has(rep.Summary.Findings, "damage") {
				t.Errorf("%s: verdict %q, findings %q; want %q and no damage finding", tc.name, rep.Verdict.Sentence, rep.Summary.Findings, want)
			}
		case DamageDamaged:
			want := strings.ToUpper(tc.headline[:1]) + tc.headline[1:] + ". What follows rests on what is present: " + base.Sentence
			if rep.Verdict.Sentence != want || rep.Summary.Verdict != want || !reflect.DeepEqual(rep.Summary.Findings, []string{"damage"}) {
				t.Errorf("%s: verdict %q, findings %q; want %q and the damage finding", tc.name, rep.Verdict.Sentence, rep.Summary.Findings, want)
			}
		}
	}
}

// TestDamageNotesBoundary: up to three cut files get a note each; the
// per-topic shortfalls are listed up to 8 topics; the verdict's evidence
// gets the notes after the headline, then its own.
func TestDamageNotesBoundary(t *testing.T) {
	cuts := func(n int) []bagread.File {
		var fs []bagread.File
		for i := range n {
			fs = append(fs, damageBoundsCut(fmt.Sprintf("f%d", i)))
		}
		return fs
	}
	short := func(n int) []bagread.Topic {
		var ts []bagread.Topic
		for i := range n {
			ts = append(ts, bagread.Topic{Name: fmt.Sprintf("/t%d", i), MessageCount: 1, MetadataCount: 2})
		}
		return ts
	}
	for _, tc := range []struct {
		name      string
		cut       int
		short     int
		cutNotes  int
		topicNote bool
	}{
		{"three cut", 3, 0, 3, false},
		{"four cut", 4, 0, 3, false},
		{"two cut", 2, 0, 2, false},
		{"8 topics short", 0, 8, 0, true},
		{"9 topics short", 0, 9, 0, false},
		{"1 topic short", 0, 1, 0, true},
	} {
		bag := damageBoundsMeta(10, 10, cuts(tc.cut)...)
		bag.Topics = short(tc.short)
		rep, base := damageBoundsAssess(bag, 0)
		d := rep.Damage
		var cutNotes int
		topicNote := false
		for _, n := range d.Notes {
			if strings.HasSuffix(n, ": cut at byte 9.") {
				cutNotes++
			}
			if strings.HasPrefix(n, "Messages present of those recorded, per topic: /t0: 1 of 2") {
				topicNote = true
			}
		}
		if cutNotes != tc.cutNotes || topicNote != tc.topicNote || d.Notes[0] != d.Headline+"." {
			t.Errorf("%s: notes %q: %d cut notes, topic note %v; want %d, %v", tc.name, d.Notes, cutNotes, topicNote, tc.cutNotes, tc.topicNote)
		}
		if want := append(append([]string{}, d.Notes[1:]...), base.Evidence...); !reflect.DeepEqual(rep.Verdict.Evidence, want) {
			t.Errorf("%s: evidence %q, want %q", tc.name, rep.Verdict.Evidence, want)
		}
	}
}

// TestDamageMetadataNotes: a rebuilt metadata.yaml is said differently
// for a damaged bag, a bag with counts (even of 0 messages) and one
// without; a leftover -wal gets its own note; an ok bag's notes go to
// the evidence after the verdict's.
func TestDamageMetadataNotes(t *testing.T) {
	for _, tc := range []struct {
		name string
		bag  *bagread.Bag
		want []string
	}{
		{"rebuilt, damaged", &bagread.Bag{Path: "/nonexistent", Metadata: &bagread.Metadata{MessageCount: 3}, MessageCount: 2, MetadataReconstructed: true, MetadataProblem: "bad yaml"},
			[]string{"partial bag: 2 of 3 messages present.", "metadata.yaml was rebuilt from storage (bad yaml)."}},
		{"rebuilt, counts of 0", &bagread.Bag{Path: "/nonexistent", Metadata: &bagread.Metadata{}, MetadataReconstructed: true},
			[]string{"metadata.yaml was rebuilt from storage (missing or unusable), but storage holds all 0 messages it counts: the bag is complete."}},
		{"rebuilt, complete", &bagread.Bag{Path: "/nonexistent", Metadata: &bagread.Metadata{MessageCount: 1}, MessageCount: 1, MetadataReconstructed: true},
			[]string{"metadata.yaml was rebuilt from storage (missing or unusable), but storage holds all 1 message it counts: the bag is complete."}},
		{"no metadata", &bagread.Bag{Path: "/nonexistent", MessageCount: 2, MetadataReconstructed: true, MetadataProblem: "missing"},
			[]string{"No usable metadata.yaml (missing): the bag was read from its storage files alone: 2 messages, no file cut short, no gap in the split numbering."}},
		{"wal", damageBoundsMeta(3, 3, bagread.File{Path: "/d/x.db3", Recovery: &bagread.Recovery{Offset: -1, WALMessages: 1}}),
			[]string{"The recording was not closed cleanly: x.db3 (1 message only in its -wal) never checkpointed"}},
	} {
		rep, base := damageBoundsAssess(tc.bag, 0)
		got := rep.Damage.Notes
		if len(got) != len(tc.want) {
			t.Errorf("%s: notes %q, want %q", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%s: note %d %q, want it to start %q", tc.name, i, got[i], tc.want[i])
			}
		}
		if rep.Damage.Status == DamageOK {
			if want := append(append([]string{}, base.Evidence...), got...); !reflect.DeepEqual(rep.Verdict.Evidence, want) {
				t.Errorf("%s: evidence %q, want %q", tc.name, rep.Verdict.Evidence, want)
			}
		}
	}
}

// TestDamageProblemsKept: a cut file's own "stopped" problem is dropped
// (its recovery reason says it); others stay.
func TestDamageProblemsKept(t *testing.T) {
	bag := damageBoundsMeta(3, 3, damageBoundsCut("a.mcap"), bagread.File{Path: "/d/b.mcap"})
	rep, _ := damageBoundsAssess(bag, 0, "/d/a.mcap: stopped at byte 9", "/d/b.mcap: stopped at byte 4", "/d/a.mcap: other")
	if want := []string{"/d/b.mcap: stopped at byte 4", "/d/a.mcap: other"}; !reflect.DeepEqual(rep.Bag.Problems, want) {
		t.Errorf("problems %q, want %q", rep.Bag.Problems, want)
	}
	// A damage finding already there is not repeated.
	rep = &Report{}
	rep.Summary.Findings = []string{"damage"}
	rep.Verdict.Sentence = "V."
	assessDamage(rep, damageBoundsMeta(3, 2))
	if !reflect.DeepEqual(rep.Summary.Findings, []string{"damage"}) {
		t.Errorf("findings %q, want one damage", rep.Summary.Findings)
	}
}

// TestFileListBoundary: three names in full, a fourth counted.
func TestFileListBoundary(t *testing.T) {
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{"a"}, "a"},
		{[]string{"a", "b", "c"}, "a, b, c"},
		{[]string{"a", "b", "c", "d"}, "a, b, c and 1 more"},
		{[]string{"a", "b", "c", "d", "e"}, "a, b, c and 2 more"},
	} {
		if got := fileList(tc.files); got != tc.want {
			t.Errorf("fileList(%q) = %q, want %q", tc.files, got, tc.want)
		}
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}} {
		if got := Plural(tc.n, "file"); got != tc.want {
			t.Errorf("plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
