package analysis

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// TestSyncSkipsUndecodable: in both storage formats, a synchronizer's
// message that does not decode is not fed to it and is counted in its
// skipped (and in the report's skipped messages); a topic none of whose
// messages decodes makes it never fire, saying so.
func TestSyncSkipsUndecodable(t *testing.T) {
	const n = 6
	garbage := []byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bag")
			w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
			if err != nil {
				t.Fatal(err)
			}
			for _, tp := range []string{"/a", "/b", "/c"} {
				if err := w.AddTopic(tp, cdr.TypeLaserScan); err != nil {
					t.Fatal(err)
				}
			}
			for i := range n {
				ns := int64(i+1) * 100_000_000
				scan := cdr.LaserScan{Header: cdr.Header{FrameID: "laser", Stamp: cdr.Time{Sec: 1, Nanosec: uint32(ns)}}}
				good := cdr.AppendLaserScan(nil, &scan, binary.LittleEndian)
				for _, m := range []struct {
					topic string
					data  []byte
				}{{"/a", good}, {"/b", good}, {"/c", garbage}} {
					if m.topic == "/b" && i == 2 {
						m.data = garbage
					}
					if err := w.Write(m.topic, 1e9+ns, 1e9+ns, m.data); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			rep := analyzeBag(t, dir, Config{Sync: []SyncSpec{
				{Topics: []string{"/a", "/b"}, Policy: "exact", QueueSize: 10, Source: "--sync"},
				{Topics: []string{"/a", "/c"}, Policy: "approximate", QueueSize: 10, Source: "--sync"},
			}}, nil)
			if len(rep.Sync) != 2 {
				t.Fatalf("%d synchronizers", len(rep.Sync))
			}
			ab, ac := rep.Sync[0], rep.Sync[1]
			if ab.Skipped[0] != 0 || ab.Skipped[1] != 1 || ab.Received[1] != n-1 || ab.Sets != n-1 || !ab.Fires {
				t.Errorf("/a,/b: skipped %v received %v sets %d: %s", ab.Skipped, ab.Received, ab.Sets, ab.Sentence)
			}
			if ac.Skipped[1] != n || ac.Received[1] != 0 || ac.Fires || ac.Reason != SyncReasonEmptyTopic ||
				!strings.Contains(ac.Sentence, "/c has no message that decodes (6 messages skipped)") {
				t.Errorf("/a,/c: skipped %v received %v reason %s: %s", ac.Skipped, ac.Received, ac.Reason, ac.Sentence)
			}
			if rep.Summary.Skipped != 1+n {
				t.Errorf("report skipped %d, want %d", rep.Summary.Skipped, 1+n)
			}
		})
	}
}
