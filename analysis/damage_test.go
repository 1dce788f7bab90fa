package analysis

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// writeSplit writes the both_sim case as a bag split every splitS seconds
// and returns its directory and its storage files, in split order.
func writeSplit(t *testing.T, storage string, dur, split time.Duration) (string, []string) {
	t.Helper()
	spec, err := scenario.Get(scenario.BothSim)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration = dur
	spec.Ranges = 30
	dir, err := scenario.Write(filepath.Join(t.TempDir(), "bag"), spec, bagwrite.Options{Storage: storage, SplitEvery: split})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "metadata.yaml" {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Slice(files, func(i, j int) bool { return splitIndex(files[i]) < splitIndex(files[j]) })
	return dir, files
}

func splitIndex(p string) int {
	b := filepath.Base(p)
	b = b[strings.LastIndexByte(b, '_')+1:]
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		n = 10*n + int(c-'0')
	}
	return n
}

func analyseDir(t *testing.T, path string) *Report {
	t.Helper()
	return analyzeBag(t, path, Config{}, nil)
}

// TestDamageLeadsTheVerdict: missing split files, a cut file, rebuilt
// metadata and an unreadable file, in both storage formats, each with the
// status, figure and verdict lead a reader needs first.
func TestDamageLeadsTheVerdict(t *testing.T) {
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			t.Run("complete", func(t *testing.T) {
				dir, files := writeSplit(t, storage, 4*time.Second, time.Second)
				if len(files) < 4 {
					t.Fatalf("%d files, want a split bag", len(files))
				}
				rep := analyseDir(t, dir)
				d := rep.Damage
				if d.Status != DamageOK || len(d.Notes) != 0 || d.MessagesRecorded != int64(d.MessagesPresent) || d.FilesListed != len(files) {
					t.Errorf("damage %+v", d)
				}
				if !strings.Contains(rep.Verdict.Sentence, "no clock problem") {
					t.Errorf("verdict %q", rep.Verdict.Sentence)
				}
			})
			t.Run("split files missing", func(t *testing.T) {
				dir, files := writeSplit(t, storage, 4*time.Second, time.Second)
				for _, f := range files[1:] {
					os.Remove(f)
				}
				rep := analyseDir(t, dir)
				d := rep.Damage
				want := len(files) - 1
				if d.Status != DamageDamaged || len(d.FilesMissing) != want || d.FilesListed != len(files) || int64(d.MessagesPresent) >= d.MessagesRecorded {
					t.Fatalf("damage %+v", d)
				}
				lead := "Partial bag: " + itoa(int(d.MessagesPresent)) + " of " + itoa(int(d.MessagesRecorded)) + " messages present; " + itoa(want) + " of " + itoa(len(files)) + " files missing."
				if !strings.HasPrefix(rep.Verdict.Sentence, lead) || rep.Summary.Verdict != rep.Verdict.Sentence {
					t.Errorf("verdict %q, want it to start %q", rep.Verdict.Sentence, lead)
				}
				if !contains(rep.Summary.Findings, "damage") {
					t.Errorf("findings %v lack damage", rep.Summary.Findings)
				}
			})
			t.Run("gap in split numbering, no metadata", func(t *testing.T) {
				dir, files := writeSplit(t, storage, 4*time.Second, time.Second)
				os.Remove(filepath.Join(dir, "metadata.yaml"))
				os.Remove(files[1])
				rep := analyseDir(t, dir)
				d := rep.Damage
				if d.Status != DamageDamaged || len(d.FilesMissing) != 1 || d.FilesMissing[0] != filepath.Base(files[1]) || !d.MetadataRebuilt {
					t.Errorf("damage %+v", d)
				}
			})
			t.Run("no metadata, complete", func(t *testing.T) {
				dir, _ := writeSplit(t, storage, 2*time.Second, 0)
				os.Remove(filepath.Join(dir, "metadata.yaml"))
				rep := analyseDir(t, dir)
				d := rep.Damage
				if d.Status != DamageOK || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "read from its storage files alone") {
					t.Errorf("damage %+v", d)
				}
				if strings.HasPrefix(rep.Verdict.Sentence, "Partial") || !containsSub(rep.Verdict.Evidence, "No usable metadata.yaml") {
					t.Errorf("verdict %+v", rep.Verdict)
				}
			})
			t.Run("metadata names a renamed file", func(t *testing.T) {
				dir, files := writeSplit(t, storage, 2*time.Second, 0)
				if err := os.Rename(files[0], filepath.Join(dir, "renamed"+filepath.Ext(files[0]))); err != nil {
					t.Fatal(err)
				}
				rep := analyseDir(t, dir)
				d := rep.Damage
				if d.Status != DamageOK || !d.MetadataRebuilt || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "the bag is complete") {
					t.Errorf("damage %+v", d)
				}
			})
			t.Run("file cut", func(t *testing.T) {
				dir, files := writeSplit(t, storage, 4*time.Second, 0)
				st, _ := os.Stat(files[0])
				if err := os.Truncate(files[0], st.Size()/2); err != nil {
					t.Fatal(err)
				}
				bag, err := bagread.Open(dir, bagread.Options{})
				if err != nil {
					t.Skipf("a %s cut at half does not open (%v): the unreadable case covers it", storage, err)
				}
				bag.Close()
				rep := analyseDir(t, dir)
				d := rep.Damage
				if d.Status != DamageDamaged || len(d.FilesCut) != 1 || int64(d.MessagesPresent) >= d.MessagesRecorded {
					t.Fatalf("damage %+v", d)
				}
				if !strings.HasPrefix(rep.Verdict.Sentence, "Partial bag: "+itoa(int(d.MessagesPresent))+" of "+itoa(int(d.MessagesRecorded))+" messages present; "+filepath.Base(files[0])+" cut short.") {
					t.Errorf("verdict %q", rep.Verdict.Sentence)
				}
				// One figure: no second note restating the cut with
				// another count.
				for _, p := range rep.Bag.Problems {
					if strings.Contains(p, ": stopped ") {
						t.Errorf("problem %q restates the cut", p)
					}
				}
			})
		})
	}
	t.Run("mcap that is only its magic", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "magic.mcap")
		if err := os.WriteFile(p, []byte("\x89MCAP0\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rep := analyseDir(t, p)
		if d := rep.Damage; d.Status != DamageUnreadable || !strings.HasPrefix(rep.Verdict.Sentence, "Unreadable bag: no message can be read") {
			t.Errorf("damage %+v, verdict %q", d, rep.Verdict.Sentence)
		}
	})
	t.Run("empty bag is not damage", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "empty")
		w, err := bagwrite.Create(dir, bagwrite.Options{Storage: bagwrite.StorageSQLite3})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if d := analyseDir(t, dir).Damage; d.Status != DamageOK {
			t.Errorf("damage %+v", d)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
