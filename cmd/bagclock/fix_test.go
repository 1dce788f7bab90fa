package main

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/foxglove/mcap/go/mcap"
)

func TestFixRepairsEveryCase(t *testing.T) {
	for _, rc := range scenario.RepairCases() {
		name, spec := rc.Name, rc.Spec
		for _, in := range []string{"mcap", "sqlite3"} {
			for _, out := range []string{"mcap", "sqlite3"} {
				t.Run(name+"/"+in+"_to_"+out, func(t *testing.T) {
					bag := specBag(t, spec, in)
					sum := bagSum(t, bag)
					dst := filepath.Join(t.TempDir(), "fixed")
					code, stdout, stderr := runCLI(t, "fix", bag, "-o", dst, "--storage", out)
					if code != exitOK {
						t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
					}
					if bagSum(t, bag) != sum {
						t.Fatal("the input changed")
					}
					before := analyzeReport(t, bag)
					after := analyzeReport(t, dst)
					for _, f := range after.Summary.Findings {
						if f == "clock-mismatch" || f == "drop" || f == "zero-stamp" {
							t.Errorf("repaired bag still finds %s: %s\n%s", f, after.Verdict.Sentence, stdout)
						}
					}
					if d := drops(before); d == 0 && rc.Drops {
						t.Errorf("the input dropped nothing: not the case it should be")
					}
					if d := drops(after); d != 0 {
						t.Errorf("the repaired bag drops %d messages", d)
					}
					if !strings.Contains(stdout, "Before -> after") {
						t.Errorf("no before/after in the output:\n%s", stdout)
					}
					changed := compareCopies(t, bag, dst)
					if changed == 0 {
						t.Error("no stamp changed")
					}
					checkOutputStorage(t, dst, out)
				})
			}
		}
	}
}

// bagSum is the sha256 of every file of a bag directory.
func bagSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return string(h.Sum(nil))
}

func analyzeReport(t *testing.T, path string) *analysis.Report {
	t.Helper()
	rep, err := analyzeBag(path, analysis.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func drops(rep *analysis.Report) int {
	n := 0
	for _, p := range rep.Pairs {
		n += pairDrops(p) - p.StartupDrops
	}
	return n
}

type copied struct {
	log, pub int64
	data     []byte
}

func readAll(t *testing.T, path string) (map[string][]copied, *bagread.Bag) {
	t.Helper()
	b, err := bagread.Open(path, bagread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	out := map[string][]copied{}
	it := b.Messages(bagread.ReadOptions{Order: bagread.TimeOrder})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Fatalf("%s: %v", path, m.Err)
		}
		out[m.Topic] = append(out[m.Topic], copied{m.LogTimeNS, m.PublishTimeNS, append([]byte(nil), m.Data...)})
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out, b
}

// compareCopies checks that the output has the input's messages per
// topic, with the same record times, and that every byte outside the
// stamps is equal; it returns how many stamps changed.
func compareCopies(t *testing.T, in, out string) int {
	t.Helper()
	a, ab := readAll(t, in)
	b, _ := readAll(t, out)
	roles := map[string]topics.Role{}
	for _, ti := range topics.Classify(ab) {
		roles[ti.Name] = ti.Role
	}
	changed := 0
	for topic, ms := range a {
		got := b[topic]
		if len(got) != len(ms) {
			t.Errorf("%s: %d messages in the copy, %d in the input", topic, len(got), len(ms))
			continue
		}
		for i := range ms {
			x, y := ms[i], got[i]
			if x.log != y.log || len(x.data) != len(y.data) {
				t.Fatalf("%s message %d: log %d/%d, %d/%d bytes", topic, i, x.log, y.log, len(x.data), len(y.data))
			}
			var stamps []int
			switch roles[topic] {
			case topics.Stamped:
				stamps = []int{cdr.HeaderStampOffset}
			case topics.TF, topics.TFStatic:
				var err error
				if stamps, err = cdr.TFStampOffsets(nil, x.data); err != nil {
					t.Fatal(err)
				}
			}
			for k := range x.data {
				if x.data[k] == y.data[k] {
					continue
				}
				inStamp := false
				for _, off := range stamps {
					inStamp = inStamp || (k >= off && k < off+8)
				}
				if !inStamp {
					t.Fatalf("%s message %d: byte %d changed outside the stamps", topic, i, k)
				}
			}
			for _, off := range stamps {
				if !bytes.Equal(x.data[off:off+8], y.data[off:off+8]) {
					changed++
				}
			}
		}
	}
	for topic := range b {
		if _, ok := a[topic]; !ok {
			t.Errorf("the copy has a topic the input lacks: %s", topic)
		}
	}
	return changed
}

// checkOutputStorage reads the output with the mcap library (CRCs
// checked, log times in order, summary present) or checks a db3 with
// sqlite's integrity_check.
func checkOutputStorage(t *testing.T, dir, storage string) {
	t.Helper()
	ext := map[string]string{"mcap": ".mcap", "sqlite3": ".db3"}[storage]
	files, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	if len(files) == 0 {
		t.Fatalf("no %s file in %s", ext, dir)
	}
	for _, f := range files {
		if storage == "sqlite3" {
			db, err := sql.Open("sqlite3", "file:"+f+"?mode=ro")
			if err != nil {
				t.Fatal(err)
			}
			var res string
			if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
				t.Errorf("%s: integrity_check %q, %v", f, res, err)
			}
			db.Close()
			continue
		}
		checkMCAP(t, f)
	}
	md, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bagclock.fix.plan_sha256", "storage_identifier: " + storage} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("metadata.yaml lacks %q:\n%s", want, md)
		}
	}
}

func checkMCAP(t *testing.T, path string) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	lex, err := mcap.NewLexer(fh, &mcap.LexerOptions{ValidateChunkCRCs: true, ComputeAttachmentCRCs: true})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	n := 0
	seq := map[uint16]uint32{}
	for {
		tok, rec, err := lex.Next(nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: mcap lexer: %v", path, err)
		}
		if tok == mcap.TokenMessage {
			m, err := mcap.ParseMessage(rec)
			if err != nil {
				t.Fatal(err)
			}
			if m.Sequence != seq[m.ChannelID]+1 {
				t.Fatalf("%s: message %d of channel %d has sequence %d, want %d", path, n, m.ChannelID, m.Sequence, seq[m.ChannelID]+1)
			}
			seq[m.ChannelID] = m.Sequence
			if m.LogTime < last {
				t.Fatalf("%s: message %d log time %d after %d", path, n, m.LogTime, last)
			}
			last = m.LogTime
			n++
		}
		if tok == mcap.TokenFooter {
			break
		}
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	r, err := mcap.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	info, err := r.Info()
	if err != nil || info.Statistics == nil || int(info.Statistics.MessageCount) != n || len(info.ChunkIndexes) == 0 {
		t.Errorf("%s: summary %v (err %v), %d messages read", path, info, err, n)
	}
}

func TestFixHealthyBagWritesNothing(t *testing.T) {
	for _, in := range []string{"mcap", "sqlite3"} {
		bag := caseBag(t, scenario.BothSim, in)
		dst := filepath.Join(t.TempDir(), "fixed")
		code, stdout, stderr := runCLI(t, "fix", bag, "-o", dst)
		if code != exitOK || !strings.Contains(stderr, "nothing to repair") || !strings.Contains(stdout, "Nothing to repair") {
			t.Errorf("%s: exit %d\n%s\n%s", in, code, stdout, stderr)
		}
		if _, err := os.Stat(dst); !os.IsNotExist(err) {
			t.Errorf("%s: a healthy bag's fix wrote %s", in, dst)
		}
	}
}

func TestFixPlanApplyAndRefusals(t *testing.T) {
	bag := caseBag(t, scenario.LaserSystemTFSim, "mcap")
	tmp := t.TempDir()
	plan := filepath.Join(tmp, "plan.json")
	code, stdout, stderr := runCLI(t, "fix", bag, "--plan", plan, "--dry-run")
	if code != exitOK || !strings.Contains(stdout, "Repair:") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	raw, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	// The plan applies to its bag.
	dst := filepath.Join(tmp, "fixed")
	if code, stdout, stderr := runCLI(t, "fix", bag, "--apply", plan, "-o", dst); code != exitOK {
		t.Fatalf("--apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	refused := func(label, planFile, bagPath, want string) {
		t.Helper()
		out := filepath.Join(tmp, "out-"+label)
		code, _, stderr := runCLI(t, "fix", bagPath, "--apply", planFile, "-o", out)
		if code != exitFailure || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", label, code, stderr, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: wrote %s", label, out)
		}
		left, _ := filepath.Glob(filepath.Join(tmp, ".out-"+label+"*"))
		if len(left) > 0 {
			t.Errorf("%s: left %v", label, left)
		}
	}
	// Another bag: the hash differs.
	other := caseBag(t, scenario.LaserSimTFSystem, "mcap")
	refused("other-bag", plan, other, "another bag")
	// A topic the bag lacks.
	edited := strings.Replace(string(raw), `"topic": "/scan"`, `"topic": "/scan_missing"`, 1)
	ep := filepath.Join(tmp, "edited.json")
	os.WriteFile(ep, []byte(edited), 0o644)
	refused("missing-topic", ep, bag, "/scan_missing")
	// Not a plan.
	bad := filepath.Join(tmp, "bad.json")
	os.WriteFile(bad, []byte(`{"plan_version": 7}`), 0o644)
	refused("bad-plan", bad, bag, "plan_version")
	// An unreadable bag.
	junk := filepath.Join(tmp, "junk.mcap")
	os.WriteFile(junk, []byte("not a bag at all"), 0o644)
	if code, _, stderr := runCLI(t, "fix", junk, "-o", filepath.Join(tmp, "j")); code != exitFailure || !strings.Contains(stderr, "junk.mcap") {
		t.Errorf("junk bag: exit %d, stderr %q, want an error naming the file", code, stderr)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, ".j.fix-tmp*"))
	if _, err := os.Stat(filepath.Join(tmp, "j")); !os.IsNotExist(err) || len(left) > 0 {
		t.Errorf("junk bag: wrote j or left %v", left)
	}
	// A ROS 1 bag.
	ros1 := filepath.Join(tmp, "old.bag")
	os.WriteFile(ros1, []byte("#ROSBAG V2.0\n"), 0o644)
	if code, _, stderr := runCLI(t, "fix", ros1, "-o", filepath.Join(tmp, "r")); code != exitFailure || !strings.Contains(stderr, "ROS 2 bags only") {
		t.Errorf("ROS 1 bag: exit %d, %s", code, stderr)
	}
	// An existing -o.
	if code, _, stderr := runCLI(t, "fix", bag, "-o", dst); code != exitUsage || !strings.Contains(stderr, "already exists") {
		t.Errorf("existing -o: exit %d, %s", code, stderr)
	}
}
