package crosscheck

import (
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestFixOutputsReadByFoxglove runs `bagclock fix` (the built binary) on
// the generated fault cases, from both storage formats to both, and has
// Foxglove's decoders read every output: the same messages per topic as
// the input, and per scan, transform and /clock message the record time
// and stamp bagread reads from the output.
func TestFixOutputsReadByFoxglove(t *testing.T) {
	dump := peerJS(t)
	bin := filepath.Join(t.TempDir(), "bagclock")
	build := exec.Command("go", "build", "-o", bin, "github.com/bagclock/bagclock/cmd/bagclock")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, rc := range scenario.RepairCases() {
		name, spec := rc.Name, rc.Spec
		// Input db3 and MCAP alternate by case (the cmd tests cover every
		// pair): node on 24 outputs would cost CI five minutes.
		ins := []string{bagwrite.StorageMCAP}
		if len(name)%2 == 0 {
			ins = []string{bagwrite.StorageSQLite3}
		}
		for _, in := range ins {
			for _, out := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
				t.Run(name+"/"+in+"_to_"+out, func(t *testing.T) {
					src, err := scenario.Write(filepath.Join(t.TempDir(), "bag"), spec, bagwrite.Options{Storage: in})
					if err != nil {
						t.Fatal(err)
					}
					dst := filepath.Join(t.TempDir(), "fixed")
					cmd := exec.Command(bin, "fix", src, "-o", dst, "--storage", out, "--quiet")
					if o, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("bagclock fix: %v\n%s", err, o)
					}
					inBag := openBag(t, src)
					outBag := openBag(t, dst)
					// Message counts per topic, every topic, from the peer.
					sum := map[string]int{}
					recs, err := runPeer(t, dump, dst, []string{peerSummaryOnly})
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range recs {
						sum[r.Topic] = r.Count
					}
					for _, tp := range inBag.Topics {
						if sum[tp.Name] != int(tp.MessageCount) {
							t.Errorf("%s: Foxglove reads %d messages in the copy, the input has %d", tp.Name, sum[tp.Name], tp.MessageCount)
						}
					}
					// Scans, transforms and /clock, message by message.
					peer, err := runPeer(t, dump, dst, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := ownRecords(t, outBag)
					got := map[string][][2]int64{}
					for _, r := range peer {
						got[r.Topic] = append(got[r.Topic], [2]int64{r.LogTime, r.Stamp})
					}
					for topic, w := range want {
						g := got[topic]
						sortPairs(g)
						sortPairs(w)
						if len(g) != len(w) {
							t.Errorf("%s: Foxglove %d records, bagread %d", topic, len(g), len(w))
							continue
						}
						for i := range w {
							if g[i] != w[i] {
								t.Errorf("%s record %d: Foxglove (log, stamp) %v, bagread %v", topic, i, g[i], w[i])
								break
							}
						}
					}
				})
			}
		}
	}
}

// ownRecords is (record time, stamp) per scan, per transform and per
// /clock message of the bag, as bagread and cdr read them.
func ownRecords(t *testing.T, b *bagread.Bag) map[string][][2]int64 {
	t.Helper()
	out := map[string][][2]int64{}
	it := b.Messages(bagread.ReadOptions{})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		switch kind(m.Type) {
		case cdr.TypeLaserScan:
			h, err := cdr.DecodeHeader(m.Data, m.Type)
			if err != nil {
				t.Fatal(err)
			}
			out[m.Topic] = append(out[m.Topic], [2]int64{m.LogTimeNS, h.Stamp.Nanoseconds()})
		case cdr.TypeTFMessage:
			tf, err := cdr.DecodeTFMessage(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			for _, tr := range tf.Transforms {
				out[m.Topic] = append(out[m.Topic], [2]int64{m.LogTimeNS, tr.Header.Stamp.Nanoseconds()})
			}
		case cdr.TypeClock:
			c, err := cdr.DecodeClock(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			out[m.Topic] = append(out[m.Topic], [2]int64{m.LogTimeNS, c.Clock.Nanoseconds()})
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func sortPairs(p [][2]int64) {
	sort.Slice(p, func(i, j int) bool {
		if p[i][0] != p[j][0] {
			return p[i][0] < p[j][0]
		}
		return p[i][1] < p[j][1]
	})
}
