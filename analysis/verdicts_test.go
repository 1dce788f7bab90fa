package analysis

import (
	"bufio"
	"fmt"
	"github.com/bagclock/bagclock/analysis/finding"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

// verdictsFile is the verdict regression file: for every bag bagclock scan
// finds under ../shared/bags, what the verdict says (damage status,
// headline class, --fail-on findings, the nodes the bag names and the
// headline itself) and, written by hand after reading that bag's data, why
// that is right. `go test ./analysis -run TestVerdictRegression -update`
// rewrites every field but the reasons, which it keeps; a bag new to the
// file gets a TODO reason, which fails the test until someone writes one.
const verdictsFile = "testdata/verdicts.txt"

// verdictEntry is one bag of the regression file.
type verdictEntry struct {
	Bag      string // path relative to shared/bags
	Status   string // Damage.Status
	Class    string // Verdict.Class
	Findings string // Summary.Findings joined by ",", "-" when none
	Nodes    string // "name=use_sim_time" joined by ", " ("?" unknown), "-" when none
	Headline string // Verdict.Sentence
	Reason   string // hand-written
}

const todoReason = "TODO: read this bag (bagclock info, the JSON report) and say why this verdict is right"

func (e verdictEntry) fields() []string {
	return []string{"status: " + e.Status, "class: " + e.Class, "findings: " + e.Findings, "nodes: " + e.Nodes, "headline: " + e.Headline}
}

// TestVerdictRegression analyses every shared bag and compares its verdict
// with verdicts.txt: any change of headline, class, findings, status or
// node names fails until the file is regenerated and reviewed.
func TestVerdictRegression(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	d := bagread.Discover(root)
	if len(d.Bags) == 0 {
		t.Fatalf("no bags under %s", root)
	}
	var got []verdictEntry
	for _, db := range d.Bags {
		got = append(got, verdictOf(t, db))
	}
	want, err := readVerdicts(verdictsFile)
	if err != nil && !*update {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	reasons := map[string]string{}
	for _, w := range want {
		reasons[w.Bag] = w.Reason
	}
	if *update {
		for i := range got {
			got[i].Reason = reasons[got[i].Bag]
			if got[i].Reason == "" {
				got[i].Reason = todoReason
			}
		}
		if err := writeVerdicts(verdictsFile, got); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bags): review the diff, and write a reason for every TODO", verdictsFile, len(got))
		want = got
	}
	byBag := map[string]verdictEntry{}
	for _, w := range want {
		byBag[w.Bag] = w
	}
	for _, g := range got {
		w, ok := byBag[g.Bag]
		if !ok {
			t.Errorf("%s: not in %s (run with -update, then write its reason)", g.Bag, verdictsFile)
			continue
		}
		delete(byBag, g.Bag)
		if w.Reason == "" || strings.HasPrefix(w.Reason, "TODO") {
			t.Errorf("%s: no reason written in %s", g.Bag, verdictsFile)
		}
		gf, wf := g.fields(), w.fields()
		for i := range gf {
			if gf[i] != wf[i] {
				t.Errorf("%s:\n got %s\nwant %s", g.Bag, gf[i], wf[i])
			}
		}
	}
	for b := range byBag {
		t.Errorf("%s: in %s but not found under %s", b, verdictsFile, root)
	}
}

func verdictOf(t *testing.T, db bagread.Discovered) verdictEntry {
	t.Helper()
	e := verdictEntry{Bag: db.Rel}
	bag, err := bagread.Open(db.Path, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		e.Status, e.Class, e.Findings, e.Nodes = "error", "-", "-", "-"
		e.Headline = "open: " + strings.ReplaceAll(err.Error(), filepath.Dir(db.Path), "$BAG")
		return e
	}
	defer bag.Close()
	rep, err := analyzeFinished(bag, Config{}, nil)
	if rep == nil {
		t.Fatalf("%s: %v", db.Rel, err)
	}
	// Every finding is complete, and the summary's categories are theirs.
	for i := range rep.Findings {
		if err := rep.Findings[i].Validate(); err != nil {
			t.Errorf("%s: findings[%d]: %v", db.Rel, i, err)
		}
	}
	if got := finding.Categories(rep.Findings); !reflect.DeepEqual(got, rep.Summary.Findings) {
		t.Errorf("%s: summary.findings %q, categories of findings %q", db.Rel, rep.Summary.Findings, got)
	}
	e.Status = rep.Damage.Status
	e.Class = rep.Verdict.Class
	e.Findings = strings.Join(rep.Summary.Findings, ",")
	if e.Findings == "" {
		e.Findings = "-"
	}
	var nodes []string
	for _, n := range rep.Nodes {
		v := n.UseSimTime
		if v == "" {
			v = "?"
		}
		nodes = append(nodes, n.Node+"="+v)
	}
	e.Nodes = strings.Join(nodes, ", ")
	if e.Nodes == "" {
		e.Nodes = "-"
	}
	e.Headline = strings.ReplaceAll(rep.Verdict.Sentence, db.Path, "$BAG")
	if err != nil {
		e.Headline += " [error: " + err.Error() + "]"
	}
	return e
}

// readVerdicts parses the file: blocks that start "bag: REL", then
// "key: value" lines; "#" lines are comments.
func readVerdicts(path string) ([]verdictEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []verdictEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, val, ok := strings.Cut(text, ": ")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want \"key: value\", got %q", path, line, text)
		}
		if key == "bag" {
			out = append(out, verdictEntry{Bag: val})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s:%d: %s before the first bag", path, line, key)
		}
		e := &out[len(out)-1]
		switch key {
		case "status":
			e.Status = val
		case "class":
			e.Class = val
		case "findings":
			e.Findings = val
		case "nodes":
			e.Nodes = val
		case "headline":
			e.Headline = val
		case "reason":
			e.Reason = val
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q", path, line, key)
		}
	}
	return out, sc.Err()
}

func writeVerdicts(path string, es []verdictEntry) error {
	sort.Slice(es, func(i, j int) bool { return es[i].Bag < es[j].Bag })
	var b strings.Builder
	b.WriteString(`# Verdict regression file: one block per bag that bagclock scan finds under
# ../shared/bags. Every field but "reason" is what Analyze says today and is
# rewritten by: go test ./analysis -run TestVerdictRegression -update
# "reason" is written by hand after reading the bag's data (bagclock info,
# the JSON report) as a ROS engineer would; -update keeps it. A verdict that
# is wrong is fixed in the code, not enshrined here.
`)
	for _, e := range es {
		fmt.Fprintf(&b, "\nbag: %s\n", e.Bag)
		for _, f := range e.fields() {
			b.WriteString(f + "\n")
		}
		fmt.Fprintf(&b, "reason: %s\n", e.Reason)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
