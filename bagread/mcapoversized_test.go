package bagread

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOversizedRecords: in a plain file a record over the decode budget
// is stepped over and reading goes on. Losing a record bagread reads is a
// skipped problem naming its opcode, offset, declared size and the budget;
// a top-level message of a selected channel is also yielded with Err set;
// records bagread never reads go without a note.
func TestOversizedRecords(t *testing.T) {
	const limit = 1024
	u16 := func(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
	msg := func(ch uint16, lt uint64, data []byte) []byte {
		return rec(opMessage, cat(u16(ch), u32le(0), u64le(lt), u64le(lt+1), data))
	}
	head := cat(mcapMagic, rec(opHeader, cat(str32("ros2"), str32("hand"))),
		rec(opSchema, cat(u16(1), str32("pkg/msg/A"), str32("ros2msg"), str32("int32 a"))),
		rec(opChannel, cat(u16(1), u16(1), str32("/a"), str32("cdr"), u32le(0))),
		msg(1, 10, cdrPayload(1, 4)))
	start := int64(len(head))
	big := make([]byte, 2000)
	for _, c := range []struct {
		name    string
		record  []byte
		prob    string // "" for none
		errMsgs []string
		times   []int64
	}{
		{"schema", rec(opSchema, big), "record opcode 0x03 at byte %d declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)", nil, []int64{10, 30}},
		{"unknown record", rec(0x80, big), "", nil, []int64{10, 30}},
		{"chunk", rec(opChunk, big), "MCAP chunk at byte %[1]d skipped: record opcode 0x06 at byte %[1]d declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)", nil, []int64{10, 30}},
		{"message", msg(1, 20, big), "MCAP message at byte %[1]d skipped: record opcode 0x05 at byte %[1]d declares 2022 bytes: size exceeds limit (decode budget 1024 bytes)",
			[]string{"%[2]s: topic /a message 1 (byte %[1]d): record opcode 0x05 at byte %[1]d declares 2022 bytes: size exceeds limit (decode budget 1024 bytes)"}, []int64{10, 30}},
		{"message of an unknown channel", msg(9, 20, big), "MCAP message at byte %[1]d skipped: record opcode 0x05 at byte %[1]d declares 2022 bytes: size exceeds limit (decode budget 1024 bytes)", nil, []int64{10, 30}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "o.mcap")
			data := cat(head, c.record, msg(1, 30, cdrPayload(2, 4)), rec(opDataEnd, u32le(0)), mcapMagic)
			b := openWritten(t, p, data, Options{MaxRecordBytes: limit})
			msgs, probs, errs := collect(t, b, ReadOptions{})
			var times []int64
			for _, m := range msgs {
				times = append(times, m.logTime)
			}
			var gotErrs, wantErrs []string
			for _, e := range errs {
				gotErrs = append(gotErrs, e.Error())
			}
			for _, e := range c.errMsgs {
				wantErrs = append(wantErrs, fmt.Sprintf(e, start, p))
			}
			if !slices.Equal(times, c.times) || !slices.Equal(gotErrs, wantErrs) {
				t.Errorf("messages at %v, errors %q; want %v and %q", times, gotErrs, c.times, wantErrs)
			}
			var skipped []string
			for _, pr := range probs {
				if pr.Skipped {
					skipped = append(skipped, pr.String())
				}
			}
			var want []string
			if c.prob != "" {
				want = []string{fmt.Sprintf("%s: skipped at byte %d (reading went on): ", p, start) + fmt.Sprintf(c.prob, start)}
			}
			if !slices.Equal(skipped, want) {
				t.Errorf("skipped problems %q, want %q", skipped, want)
			}
		})
	}
}

// TestBadChannelRecord: a channel record that does not parse is a problem
// at its offset and reading goes on; its messages belong to no channel.
func TestBadChannelRecord(t *testing.T) {
	u16 := func(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
	msg := func(ch uint16, lt uint64) []byte {
		return rec(opMessage, cat(u16(ch), u32le(0), u64le(lt), u64le(lt), cdrPayload(int(lt), 4)))
	}
	data := cat(mcapMagic, rec(opHeader, cat(str32("ros2"), str32("hand"))),
		rec(opSchema, cat(u16(1), str32("pkg/msg/A"), str32("ros2msg"), str32("int32 a"))),
		rec(opChannel, cat(u16(1), u16(1), str32("/a"), str32("cdr"), u32le(0))))
	bad := int64(len(data))
	data = cat(data, rec(opChannel, cat(u16(2), u16(1), u32le(1000), []byte("/b"))), msg(2, 5), msg(1, 10), rec(opDataEnd, u32le(0)), mcapMagic)
	p := filepath.Join(t.TempDir(), "c.mcap")
	b := openWritten(t, p, data, Options{})
	msgs, probs, _ := collect(t, b, ReadOptions{})
	var got []string
	for _, pr := range probs {
		got = append(got, pr.String())
	}
	prefix := fmt.Sprintf("%s: damage at byte %d (reading went on): %[1]s: at byte %[2]d: parse channel: ", p, bad)
	if len(msgs) != 1 || msgs[0].topic != "/a" || len(got) == 0 || !strings.HasPrefix(got[0], prefix) {
		t.Errorf("messages %v, problems %q; want /a's message and a problem starting %q", msgs, got, prefix)
	}
}
