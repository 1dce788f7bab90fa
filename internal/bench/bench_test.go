package bench

import (
	"bufio"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/verdict"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/render"
	"github.com/bagclock/bagclock/ros1msg"
	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	_ "github.com/mattn/go-sqlite3"
)

var huge = flag.Bool("huge", false, "also measure peak RSS on the 10x (~1.2 GB per bag) bags, generating them if needed")

var (
	measuredMu sync.Mutex
	// measured holds ns per pass of each "bag/variant", from the last
	// (largest b.N) run of its benchmark.
	measured = map[string]float64{}
	rssLines []string
)

func TestMain(m *testing.M) {
	if path := os.Getenv("BAGCLOCK_RSS_CHILD"); path != "" {
		if os.Getenv("BAGCLOCK_RSS_PREFIX") == "1" {
			os.Exit(prefixRSSChild(path))
		}
		os.Exit(rssChild(path, os.Getenv("BAGCLOCK_RSS_ANALYZE") == "1"))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	if len(measured) > 0 {
		fmt.Print(FormatRatios(measured))
	}
	for _, l := range rssLines {
		fmt.Println(l)
	}
	os.Exit(code)
}

func record(b *testing.B, key string) {
	measuredMu.Lock()
	defer measuredMu.Unlock()
	measured[key] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

var (
	bagsOnce sync.Once
	bags     []Bag
	bagsErr  error
)

func largeBags(b testing.TB) []Bag {
	bagsOnce.Do(func() { bags, bagsErr = EnsureBags(CacheDir(), 1) })
	if bagsErr != nil {
		b.Fatal(bagsErr)
	}
	return bags
}

// readDecoded reads the analysis topics through bagread in record order
// and decodes what analyze needs (scan headers, transforms, clocks; CDR
// or ROS 1),
// opening the bag as analyze does. It returns messages read, decode
// failures and payload bytes.
func readDecoded(path string) (msgs, bad int, payload int64, err error) {
	bag, err := bagread.Open(path, bagread.Options{MetadataTopicCounts: true})
	if err != nil {
		return 0, 0, 0, err
	}
	defer bag.Close()
	it := bag.Messages(bagread.ReadOptions{Topics: Topics, Order: bagread.RecordOrder})
	defer it.Close()
	var (
		sh  cdr.ScanHeader
		tf  cdr.TFMessage
		sh1 ros1msg.ScanHeader
		tf1 ros1msg.TFMessage
	)
	for it.Next() {
		m := it.Message()
		msgs++
		if m.Err != nil {
			bad++
			continue
		}
		payload += int64(len(m.Data))
		var derr error
		switch m.Type {
		case cdr.TypeLaserScan:
			derr = cdr.DecodeLaserScanHeaderInto(&sh, m.Data)
		case cdr.TypeTFMessage:
			_, derr = cdr.DecodeTFMessageInto(&tf, m.Data)
		case cdr.TypeClock:
			_, derr = cdr.DecodeClock(m.Data)
		case ros1msg.TypeLaserScan:
			derr = ros1msg.DecodeLaserScanHeaderInto(&sh1, m.Data)
		case ros1msg.TypeTFMessage:
			_, derr = ros1msg.DecodeTFMessageInto(&tf1, m.Data)
		case ros1msg.TypeClock:
			_, _, derr = ros1msg.DecodeClock(m.Data)
		}
		if derr != nil {
			bad++
		}
	}
	return msgs, bad, payload, it.Err()
}

// BenchmarkRead measures, on each large bag, bagclock's reader with
// header decoding and the baselines the issue compares it with. Ratios are
// printed at the end of the run. "analyze" is analysis.Analyze alone;
// "analyze-job" is what `bagclock analyze --format json` does in process
// (rows, verdict, JSON to io.Discard), beside "raw" (the file read from
// the page cache, the in-process cat); "binary-analyze" and "binary-cat"
// run the built binary and cat as processes, the figures issue 22's
// targets (3x of cat on the MCAP, 3.5x on the db3) are about.
func BenchmarkRead(b *testing.B) {
	for _, bag := range largeBags(b) {
		want := scenarioMessages()
		b.Run(bag.Name+"/bagread", func(b *testing.B) {
			b.SetBytes(bag.Size)
			b.ReportAllocs()
			var msgs int
			for range b.N {
				n, bad, _, err := readDecoded(bag.Dir)
				if err != nil {
					b.Fatal(err)
				}
				if bad != 0 || n != want {
					b.Fatalf("read %d messages (%d undecodable), want %d", n, bad, want)
				}
				msgs += n
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msg/s")
			record(b, bag.Name+"/bagread")
		})
		b.Run(bag.Name+"/analyze", func(b *testing.B) {
			b.SetBytes(bag.Size)
			b.ReportAllocs()
			for range b.N {
				rb, err := bagread.Open(bag.Dir, bagread.Options{MetadataTopicCounts: true})
				if err != nil {
					b.Fatal(err)
				}
				rep, err := analysis.Analyze(rb, analysis.Config{}, nil)
				rb.Close()
				if err != nil {
					if strings.Contains(err.Error(), "not implemented") {
						b.Skip("analysis.Analyze is not implemented yet")
					}
					b.Fatal(err)
				}
				if rep == nil {
					b.Fatal("nil report")
				}
			}
			record(b, bag.Name+"/analyze")
		})
		b.Run(bag.Name+"/analyze-job", func(b *testing.B) {
			b.SetBytes(bag.Size)
			b.ReportAllocs()
			// The collector's pacing of the binary's analyze (runAnalyze).
			defer debug.SetGCPercent(debug.SetGCPercent(400))
			for range b.N {
				rows, err := analyzeJob(bag.Dir, io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				if rows == 0 {
					b.Fatal("the job wrote no rows")
				}
			}
			record(b, bag.Name+"/analyze-job")
		})
		b.Run(bag.Name+"/binary-analyze", func(b *testing.B) {
			bin := bagclockBinary(b)
			for range b.N {
				if out, err := exec.Command(bin, "analyze", "--format", "json", "-o", os.DevNull, bag.Dir).CombinedOutput(); err != nil {
					b.Fatalf("bagclock analyze: %v\n%s", err, out)
				}
			}
			record(b, bag.Name+"/binary-analyze")
		})
		b.Run(bag.Name+"/binary-cat", func(b *testing.B) {
			for range b.N {
				cmd := exec.Command("cat", bag.File)
				cmd.Stdout = devNull(b)
				if err := cmd.Run(); err != nil {
					b.Fatalf("cat: %v", err)
				}
			}
			record(b, bag.Name+"/binary-cat")
		})
		b.Run(bag.Name+"/raw", func(b *testing.B) {
			b.SetBytes(bag.Size)
			buf := make([]byte, 1<<20)
			for range b.N {
				n, err := RawRead(bag.File, buf)
				if err != nil || n != bag.Size {
					b.Fatalf("read %d of %d bytes: %v", n, bag.Size, err)
				}
			}
			record(b, bag.Name+"/raw")
		})
		switch {
		case strings.HasSuffix(bag.Name, "-db3"):
			b.Run(bag.Name+"/sqlite-select", func(b *testing.B) { benchSelect(b, bag, want) })
		default:
			for _, useIndex := range []bool{true, false} {
				name := bag.Name + "/mcaplib-linear"
				if useIndex {
					name = bag.Name + "/mcaplib-index"
				}
				b.Run(name, func(b *testing.B) { benchMCAPLib(b, bag, useIndex, want, name) })
			}
			if strings.HasSuffix(bag.Name, "-zstd") {
				b.Run(bag.Name+"/zstd-chunks", func(b *testing.B) {
					b.SetBytes(bag.Size)
					b.ReportAllocs()
					dec, err := zstd.NewReader(nil)
					if err != nil {
						b.Fatal(err)
					}
					defer dec.Close()
					var rec, out []byte
					for range b.N {
						var n int64
						n, rec, out, err = DecompressChunks(bag.File, dec, rec, out)
						if err != nil || n == 0 {
							b.Fatalf("decompressed %d bytes: %v", n, err)
						}
					}
					record(b, bag.Name+"/zstd-chunks")
				})
			}
		}
	}
}

// scenarioMessages is how many messages the large bags hold on Topics.
func scenarioMessages() int {
	s := LargeSpec()
	tr := s.Truth()
	return tr.Scans + tr.TFMessages + tr.StaticMessages + tr.ClockMessages
}

func benchMCAPLib(b *testing.B, bag Bag, useIndex bool, want int, key string) {
	b.SetBytes(bag.Size)
	b.ReportAllocs()
	var msg mcap.Message
	for range b.N {
		f, err := os.Open(bag.File)
		if err != nil {
			b.Fatal(err)
		}
		r, err := mcap.NewReader(f)
		if err != nil {
			b.Fatal(err)
		}
		it, err := r.Messages(mcap.UsingIndex(useIndex), mcap.WithTopics(Topics), mcap.InOrder(mcap.FileOrder))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, _, _, err := it.NextInto(&msg)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if n != want {
			b.Fatalf("mcap library read %d messages, want %d", n, want)
		}
	}
	record(b, key)
}

func benchSelect(b *testing.B, bag Bag, want int) {
	b.SetBytes(bag.Size)
	b.ReportAllocs()
	for range b.N {
		db, err := sql.Open("sqlite3", "file:"+bag.File+"?mode=ro")
		if err != nil {
			b.Fatal(err)
		}
		q := "SELECT data FROM messages WHERE topic_id IN (SELECT id FROM topics WHERE name IN ('" + strings.Join(Topics, "','") + "'))"
		rows, err := db.Query(q)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		var data sql.RawBytes
		for rows.Next() {
			if err := rows.Scan(&data); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		rows.Close()
		db.Close()
		if n != want {
			b.Fatalf("SELECT gave %d rows, want %d", n, want)
		}
	}
	record(b, bag.Name+"/sqlite-select")
}

// rssChild is the subprocess side of TestPeakRSS: read (or analyze) the
// bag, then print the process's peak resident set size.
func rssChild(path string, analyze bool) int {
	var err error
	if analyze {
		var rb *bagread.Bag
		rb, err = bagread.Open(path, bagread.Options{MetadataTopicCounts: true})
		if err == nil {
			_, err = analysis.Analyze(rb, analysis.Config{}, nil)
			rb.Close()
		}
	} else {
		_, _, _, err = readDecoded(path)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	kb, err := vmHWM()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("VmHWM %d\n", kb)
	return 0
}

// vmHWM reads the peak resident set size (kB) from /proc/self/status.
func vmHWM() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

// TestPeakRSS runs the reader (and analyze, once it exists) on each large
// bag in a fresh process and checks its peak RSS against the issue's
// bound: 64 MiB plus the largest message. It runs only with -bench (it
// needs the generated bags); -huge adds the 10x bags.
func TestPeakRSS(t *testing.T) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		t.Skip("peak RSS is measured only in benchmark runs (-bench)")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status on this system")
	}
	all := largeBags(t)
	if *huge {
		more, err := EnsureBags(CacheDir(), 10)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, more...)
	}
	// The largest message: a scan of 1080 ranges and 1080 intensities.
	const largestMessage = 8 << 10
	limitKB := int64((64<<20 + largestMessage) / 1024)
	for _, bag := range all {
		for _, mode := range []string{"read", "analyze"} {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "BAGCLOCK_RSS_CHILD="+bag.Dir)
			if mode == "analyze" {
				cmd.Env = append(cmd.Env, "BAGCLOCK_RSS_ANALYZE=1")
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				if mode == "analyze" && strings.Contains(string(out), "not implemented") {
					t.Logf("%s: analyze not implemented yet", bag.Name)
					continue
				}
				t.Errorf("%s %s: %v\n%s", bag.Name, mode, err, out)
				continue
			}
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "VmHWM %d", &kb); err != nil {
				t.Errorf("%s %s: unexpected output %q", bag.Name, mode, out)
				continue
			}
			line := fmt.Sprintf("peak RSS %-16s %-7s %6.1f MiB (bag %.0f MB; limit %.1f MiB)", bag.Name, mode, float64(kb)/1024, float64(bag.Size)/1e6, float64(limitKB)/1024)
			measuredMu.Lock()
			rssLines = append(rssLines, line)
			measuredMu.Unlock()
			t.Log(line)
			if kb > limitKB {
				t.Errorf("%s %s: peak RSS %d kB over the bound %d kB", bag.Name, mode, kb, limitKB)
			}
		}
	}
}

// analyzeJob is the whole job of `bagclock analyze --format json` in
// process (cmd/bagclock analyzeBagChecked and writeReport): open, analyse
// with the JSON rows written on a goroutine of their own, verdict, the
// report's end. It returns the rows written.
func analyzeJob(dir string, w io.Writer) (int, error) {
	bag, err := bagread.Open(dir, bagread.Options{MetadataTopicCounts: true})
	if err != nil {
		return 0, err
	}
	defer bag.Close()
	jw := render.NewJSON(w)
	p := newRowHandover(jw.Row)
	rep, err := analysis.Analyze(bag, analysis.Config{}, p.row)
	if cerr := p.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	verdict.Finish(rep)
	return p.rows, jw.Finish(rep)
}

// rowHandover is the binary's row pipe (cmd/bagclock/pipeline.go rowPipe)
// as far as its cost goes: copies of the rows, in batches of 256 with
// four in flight, to a sink on another goroutine.
type rowHandover struct {
	sink       analysis.ScanSink
	batch      []analysis.ScanRow
	full, free chan []analysis.ScanRow
	done       chan error
	rows       int
}

func newRowHandover(sink analysis.ScanSink) *rowHandover {
	const batch, inFlight = 256, 4
	p := &rowHandover{sink: sink, full: make(chan []analysis.ScanRow, inFlight),
		free: make(chan []analysis.ScanRow, inFlight), done: make(chan error, 1)}
	for range inFlight - 1 {
		p.free <- make([]analysis.ScanRow, 0, batch)
	}
	p.batch = make([]analysis.ScanRow, 0, batch)
	go func() {
		var err error
		for b := range p.full {
			for i := range b {
				if err == nil {
					err = p.sink(&b[i])
				}
			}
			p.free <- b
		}
		p.done <- err
	}()
	return p
}

func (p *rowHandover) row(r *analysis.ScanRow) error {
	p.rows++
	p.batch = append(p.batch, *r)
	if len(p.batch) == cap(p.batch) {
		p.full <- p.batch
		p.batch = (<-p.free)[:0]
	}
	return nil
}

func (p *rowHandover) close() error {
	if len(p.batch) > 0 {
		p.full <- p.batch
	}
	close(p.full)
	return <-p.done
}

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// bagclockBinary builds cmd/bagclock once per test process, for the
// benchmarks that time the whole binary beside cat.
func bagclockBinary(b *testing.B) string {
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "bagclock-bench-bin")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "bagclock")
		if out, err := exec.Command("go", "build", "-o", binPath, "github.com/bagclock/bagclock/cmd/bagclock").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build ./cmd/bagclock: %w\n%s", err, out)
		}
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return binPath
}

// devNull is /dev/null opened for writing, closed when b ends: cat
// writes there as `cat FILE > /dev/null` does (no pipe to drain).
func devNull(b *testing.B) *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}
