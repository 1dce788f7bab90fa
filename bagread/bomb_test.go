package bagread

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bombs"
)

// testBudget is the decode budget of the bomb tests: the bombs inflate to
// 4x it, so they show the limit without costing real memory.
const testBudget = 4 << 20

func zeros(t *testing.T, n int64, withSize bool) []byte {
	t.Helper()
	b, err := bombs.Zeros(n, withSize)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestChunkBombs: an MCAP chunk over the budget is skipped with a problem
// that names the file, the chunk's offset and declared vs real size; the
// chunks around it are still read.
func TestChunkBombs(t *testing.T) {
	cases := []struct {
		name     string
		declared uint64
		frame    []byte
		want     []string
	}{
		{"honest", 4 * testBudget, zeros(t, 4*testBudget, true),
			[]string{"zstd chunk declares 16777216 bytes, not decoded"}},
		{"lying", 1024, zeros(t, 4*testBudget, false),
			[]string{"zstd chunk declares 1024 bytes, decodes to more than 4194304 bytes"}},
		{"lying small", 1024, zeros(t, 3000, false),
			[]string{"zstd chunk declares 1024 bytes, decodes to 3000 bytes"}},
		{"lying with size", 1024, zeros(t, 4*testBudget, true),
			[]string{"zstd chunk declares 1024 bytes, decodes to more than 4194304 bytes"}},
		{"absurd", 1 << 63, zeros(t, 10, true),
			[]string{"zstd chunk declares 9223372036854775808 bytes, not decoded"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := tempPath(t, "bomb.mcap")
			off, err := bombs.MCAPChunk(p, c.declared, c.frame)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Open(p, Options{TempDir: t.TempDir(), MaxRecordBytes: testBudget})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			msgs, probs, errs := collect(t, b, ReadOptions{})
			// The 2 messages outside the bomb, and the one its Message
			// Index lists as a skipped message naming file, topic, index,
			// offset and both sizes.
			if len(msgs) != 2 || len(errs) != 1 {
				t.Fatalf("read %d messages and %d errors, want the 2 outside the bomb and 1 skipped", len(msgs), len(errs))
			}
			wantMsg := fmt.Sprintf("%s: topic /scan message 1 (chunk at byte %d, offset 0): MCAP chunk at byte %d skipped: ", p, off, off)
			if e := errs[0].Error(); !strings.HasPrefix(e, wantMsg) || !strings.Contains(e, c.want[0]) {
				t.Errorf("skipped message error %q, want %q...%q", e, wantMsg, c.want[0])
			}
			if len(probs) != 1 || !probs[0].Skipped {
				t.Fatalf("problems %v, want one for the bomb chunk, reading going on", probs)
			}
			s := probs[0].String()
			for _, w := range append(c.want, p+": skipped at byte "+strconv.FormatInt(off, 10), "decode budget 4194304") {
				if !strings.Contains(s, w) {
					t.Errorf("problem %q does not contain %q", s, w)
				}
			}
			if !errors.Is(probs[0].Err, ErrTooLarge) {
				t.Errorf("problem %v does not wrap ErrTooLarge", probs[0].Err)
			}
		})
	}
}

// TestLZ4ChunkLongerThanDeclared: an lz4 chunk whose frame decodes to
// more than the chunk header declares is not cut to the declared size: it
// is damage giving both sizes as read, in a whole read and in a prefix
// read that parses the chunk record by record.
func TestLZ4ChunkLongerThanDeclared(t *testing.T) {
	records := make([]byte, 3<<20) // zeros: record opcode 0, a bad record
	for _, c := range []struct {
		name     string
		declared uint64
		want     string
	}{
		{"a little", 2 << 20, "lz4 chunk declares 2097152 bytes, decodes to 3145728 bytes"},
		{"past the budget", 1 << 20, "lz4 chunk declares 1048576 bytes, decodes to 3145728 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := tempPath(t, "lz4.mcap")
			off, err := bombs.MCAPChunkWith(p, "lz4", c.declared, bombs.LZ4(records))
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range []ReadOptions{{}, {Topics: []string{"/scan"}, PrefixTopics: []string{"/scan"}, PrefixBytes: 64}} {
				b, err := Open(p, Options{TempDir: t.TempDir(), MaxRecordBytes: testBudget})
				if err != nil {
					t.Fatal(err)
				}
				_, probs, _ := collect(t, b, opts)
				b.Close()
				var all []string
				found := false
				for _, pr := range probs {
					s := pr.String()
					all = append(all, s)
					found = found || (strings.Contains(s, c.want) && strings.Contains(s, p) && strings.Contains(s, "at byte "+strconv.FormatInt(off, 10)))
				}
				if !found {
					t.Errorf("prefix %d: problems %q, want one at byte %d saying %q", opts.PrefixBytes, all, off, c.want)
				}
			}
		})
	}
}

// TestMessageModeBombs: a MESSAGE-mode row over the budget (with or
// without a content size, or two frames back to back) is a message error
// naming the sizes; the rows around it are read.
func TestMessageModeBombs(t *testing.T) {
	small := bombs.Compress(bombs.Payload(7))
	cases := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"with size", zeros(t, 4*testBudget, true), "zstd frame declares 16777216 bytes, not decoded"},
		{"no size", zeros(t, 4*testBudget, false), "zstd frame declares no size, decodes to more than 4194304 bytes"},
		{"second frame", append(append([]byte{}, small...), zeros(t, 4*testBudget, false)...), "decodes to more than 4194304 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := tempPath(t, "bomb.db3")
			if err := bombs.MessageModeDB3(p, c.frame); err != nil {
				t.Fatal(err)
			}
			b, err := Open(p, Options{TempDir: t.TempDir(), MaxRecordBytes: testBudget})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			msgs, _, errs := collect(t, b, ReadOptions{})
			if len(msgs) != 2 || len(errs) != 1 {
				t.Fatalf("read %d messages, %d errors; want 2 and the bomb row", len(msgs), len(errs))
			}
			var me *MessageError
			if !errors.As(errs[0], &me) || !me.Rowid || me.Position != 2 || !errors.Is(errs[0], ErrTooLarge) {
				t.Errorf("error %v: want a MessageError at rowid 2 wrapping ErrTooLarge", errs[0])
			}
			if !strings.Contains(errs[0].Error(), c.want) || !strings.Contains(errs[0].Error(), p) {
				t.Errorf("error %q does not name the file and %q", errs[0], c.want)
			}
		})
	}
}

// TestFileModeBomb: a FILE-mode .db3.zstd of concatenated frames, each
// under the budget, stops at the total bound instead of filling TMPDIR,
// and leaves nothing in the temp dir.
func TestFileModeBomb(t *testing.T) {
	frame := zeros(t, testBudget-1, true)
	p := tempPath(t, "bomb.db3.zstd")
	if err := bombs.FileModeDB3(p, frame, frame, frame, frame); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	_, err := Open(p, Options{TempDir: tmp, MaxRecordBytes: testBudget})
	if err == nil || !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "decompresses past 4194304 bytes") ||
		!strings.Contains(err.Error(), p) {
		t.Fatalf("Open = %v, want the FILE-mode bound exceeded, naming the file", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temp dir keeps %d entries (%s...)", len(left), left[0].Name())
	}
	// The same bag with one frame of padding opens.
	ok := tempPath(t, "ok.db3.zstd")
	if err := bombs.FileModeDB3(ok, zeros(t, 4096, true)); err != nil {
		t.Fatal(err)
	}
	b, err := Open(ok, Options{TempDir: tmp, MaxRecordBytes: testBudget})
	if err != nil {
		t.Fatalf("small FILE-mode bag: %v", err)
	}
	b.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temp dir keeps %d entries after Close", len(left))
	}
	_ = filepath.Join
}

// TestHugeLengthPrintedAsRead: a record length of 2^63 is reported as
// the file says it, not clamped.
func TestHugeLengthPrintedAsRead(t *testing.T) {
	p := tempPath(t, "huge.mcap")
	data := append([]byte{0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'}, 0x05, 0, 0, 0, 0, 0, 0, 0, 0x80)
	data = append(data, make([]byte, 30)...)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(p, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := b.Files[0].Recovery
	if r == nil || !strings.Contains(r.Reason, "record opcode 0x05 of 9223372036854775808 bytes runs past end of data (30 bytes left)") {
		t.Errorf("recovery %+v, want the length 2^63 as read", r)
	}
}

// TestRowOverBudget: a db3 row longer than the decode budget is never
// loaded: it comes as a message error naming file, topic, index, rowid
// and its real size, whole read or prefix read, one connection or
// several; the rows around it are read.
func TestRowOverBudget(t *testing.T) {
	p := tempPath(t, "big.db3")
	big := make([]byte, testBudget+1<<20)
	if err := bombs.MessageModeDB3(p, big); err != nil {
		t.Fatal(err)
	}
	for _, seq := range []bool{false, true} {
		for _, opts := range []ReadOptions{{}, {PrefixTopics: []string{"/scan"}, PrefixBytes: 64}} {
			b, err := Open(p, Options{TempDir: t.TempDir(), MaxRecordBytes: testBudget, Sequential: seq})
			if err != nil {
				t.Fatal(err)
			}
			msgs, probs, errs := collect(t, b, opts)
			b.Close()
			want := fmt.Sprintf("%s: topic /scan message 1 (rowid 2): row of %d bytes: size exceeds limit (decode budget %d bytes)", p, len(big), testBudget)
			if opts.PrefixBytes > 0 {
				// A prefix read takes the first bytes of a prefix topic's
				// row, however long.
				if len(msgs) != 3 || len(errs) != 0 || len(probs) != 0 {
					t.Errorf("sequential %v, prefix: %d messages, errors %v, problems %v; want 3 messages", seq, len(msgs), errs, probs)
				}
				continue
			}
			if len(msgs) != 2 || len(errs) != 1 || errs[0].Error() != want || len(probs) != 0 {
				t.Errorf("sequential %v: %d messages, errors %v, problems %v; want 2 and the error %q", seq, len(msgs), errs, probs, want)
			}
		}
	}
}

// TestOversizedRecordSkipped: one MCAP record longer than the budget in a
// plain file (its length fits in the file) is stepped over, not read, and
// the records after it are read: a chunk's messages are counted as skipped
// from its Message Index, a top-level message is yielded as skipped (or
// read as a prefix when its topic asks for one); a problem names the
// file, the offset and the declared size.
func TestOversizedRecordSkipped(t *testing.T) {
	const big = testBudget + 1<<20
	chunkFile := tempPath(t, "chunk.mcap")
	chunkOff, err := bombs.MCAPChunkWith(chunkFile, "", big, make([]byte, big))
	if err != nil {
		t.Fatal(err)
	}
	msgFile := tempPath(t, "message.mcap")
	msgOff, err := bombs.MCAPBigMessage(msgFile, big)
	if err != nil {
		t.Fatal(err)
	}
	prefix := ReadOptions{Topics: []string{"/scan"}, PrefixTopics: []string{"/scan"}, PrefixBytes: 64}
	cases := []struct {
		name        string
		path        string
		off         int64
		opts        ReadOptions
		msgs, skips int
		declares    string
	}{
		{"chunk", chunkFile, chunkOff, ReadOptions{}, 2, 1, "record opcode 0x06 at byte %d declares %d bytes"},
		{"chunk, prefix read", chunkFile, chunkOff, prefix, 2, 1, "record opcode 0x06 at byte %d declares %d bytes"},
		{"chunk, time order", chunkFile, chunkOff, ReadOptions{Order: TimeOrder}, 2, 1, "record opcode 0x06 at byte %d declares %d bytes"},
		{"message", msgFile, msgOff, ReadOptions{}, 2, 1, "record opcode 0x05 at byte %d declares %d bytes"},
		{"message, prefix read", msgFile, msgOff, prefix, 3, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := Open(c.path, Options{TempDir: t.TempDir(), MaxRecordBytes: testBudget})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			msgs, probs, errs := collect(t, b, c.opts)
			if len(msgs) != c.msgs || len(errs) != c.skips {
				t.Fatalf("read %d messages and %d skipped (%v), want %d and %d", len(msgs), len(errs), errs, c.msgs, c.skips)
			}
			// The message after the big record is read: stamped 3 s.
			if last := msgs[len(msgs)-1]; last.logTime != 3_000_000_000 {
				t.Errorf("last message at %d ns, want the one after the big record (3 s)", last.logTime)
			}
			if c.declares == "" {
				if len(probs) != 0 {
					t.Errorf("problems %v, want none: a prefix read takes the first bytes of any message", probs)
				}
				return
			}
			if !errors.Is(errs[0], ErrTooLarge) || !strings.Contains(errs[0].Error(), c.path) {
				t.Errorf("skipped message error %v: want ErrTooLarge naming the file", errs[0])
			}
			var record uint64
			if c.name == "message" || c.name == "message, prefix read" {
				record = big + 22
			} else {
				record = uint64(8 + 8 + 8 + 4 + 4 + 8 + big) // chunk header fields, no compression name
			}
			want := []string{
				fmt.Sprintf("%s: skipped at byte %d (reading went on)", c.path, c.off),
				fmt.Sprintf(c.declares, c.off, record),
				fmt.Sprintf("decode budget %d bytes", testBudget),
			}
			if len(probs) != 1 || !probs[0].Skipped || !errors.Is(probs[0].Err, ErrTooLarge) {
				t.Fatalf("problems %v, want one skip over the budget", probs)
			}
			for _, w := range want {
				if s := probs[0].String(); !strings.Contains(s, w) {
					t.Errorf("problem %q does not contain %q", s, w)
				}
			}
		})
	}
}
