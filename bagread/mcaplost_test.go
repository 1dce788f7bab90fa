package bagread

import (
	"encoding/binary"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLostChunkIndex: the messages of a chunk skipped as over the budget
// are yielded, from the Message Index records after it, as errors in
// chunk order (ties in index order), each naming its offset in the chunk
// when it can be one; a malformed index is a problem of its own; every
// message yielded counts in the file's recovered total.
func TestLostChunkIndex(t *testing.T) {
	const limit = 1024
	u16 := func(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
	msg := func(lt uint64) []byte {
		return rec(opMessage, cat(u16(1), u32le(0), u64le(lt), u64le(lt), cdrPayload(int(lt), 4)))
	}
	index := func(ch uint16, n uint32, entries ...uint64) []byte { // entries: time, offset pairs
		b := cat(u16(ch), u32le(n))
		for _, e := range entries {
			b = cat(b, u64le(e))
		}
		return rec(opMsgIndex, b)
	}
	head := cat(mcapMagic, rec(opHeader, cat(str32("ros2"), str32("hand"))),
		rec(opSchema, cat(u16(1), str32("pkg/msg/A"), str32("ros2msg"), str32("int32 a"))),
		rec(opChannel, cat(u16(1), u16(1), str32("/a"), str32("cdr"), u32le(0))),
		rec(opChannel, cat(u16(2), u16(1), str32("/b"), str32("cdr"), u32le(0))),
		msg(10))
	chunk := int64(len(head))
	head = cat(head, rec(opChunk, make([]byte, 2000)))
	idx := int64(len(head))
	for _, c := range []struct {
		name    string
		indexes []byte
		errs    []string // log time, then the message error after "PATH: topic /a message N "
		probs   []string // after "PATH: "
	}{
		{"chunk order, ties in index order", cat(index(1, 64, 5, 50, 6, 10, 7, 10, 8, 1<<62), index(2, 16, 9, 20)),
			[]string{"6 (chunk at byte {C}, offset 10)", "7 (chunk at byte {C}, offset 10)", "5 (chunk at byte {C}, offset 50)", "8 (chunk at byte {C}, offset 4611686018427387904)"},
			[]string{"skipped at byte {C} (reading went on): MCAP chunk at byte {C} skipped: record opcode 0x06 at byte {C} declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)",
				"stopped at byte {T} after 7 messages: MCAP truncated at byte {T}: recovered 7 messages: record header torn: need 9 bytes, have 5"}},
		{"offset past 2^62", index(1, 16, 5, 1<<62+1), []string{"5 (byte {C})"},
			[]string{"skipped at byte {C} (reading went on): MCAP chunk at byte {C} skipped: record opcode 0x06 at byte {C} declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)",
				"stopped at byte {T} after 4 messages: MCAP truncated at byte {T}: recovered 4 messages: record header torn: need 9 bytes, have 5"}},
		{"records past the index", index(1, 32, 5, 10), nil,
			[]string{"skipped at byte {C} (reading went on): MCAP chunk at byte {C} skipped: record opcode 0x06 at byte {C} declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)",
				"damage at byte {I} (reading went on): MCAP message index at byte {I} (after the skipped chunk at byte {C}) is malformed: its messages are not counted",
				"stopped at byte {T} after 3 messages: MCAP truncated at byte {T}: recovered 3 messages: record header torn: need 9 bytes, have 5"}},
		{"records not of 16 bytes", index(1, 8, 5), nil,
			[]string{"skipped at byte {C} (reading went on): MCAP chunk at byte {C} skipped: record opcode 0x06 at byte {C} declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)",
				"damage at byte {I} (reading went on): MCAP message index at byte {I} (after the skipped chunk at byte {C}) is malformed: its messages are not counted",
				"stopped at byte {T} after 3 messages: MCAP truncated at byte {T}: recovered 3 messages: record header torn: need 9 bytes, have 5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "l.mcap")
			data := cat(head, c.indexes, msg(20), msg(30))
			tail := int64(len(data))
			data = cat(data, msg(40)[:5])
			b := openWritten(t, p, data, Options{MaxRecordBytes: limit})
			r := strings.NewReplacer("{C}", itoa(chunk), "{I}", itoa(idx), "{T}", itoa(tail))
			it := b.Messages(ReadOptions{Topics: []string{"/a"}})
			var got, want []string
			for it.Next() {
				if m := it.Message(); m.Err != nil {
					got = append(got, itoa(m.LogTimeNS)+" "+m.Err.Error())
				}
			}
			probs := it.Problems()
			it.Close()
			for i, e := range c.errs {
				lt, where, _ := strings.Cut(r.Replace(e), " ")
				want = append(want, lt+" "+p+": topic /a message "+itoa(int64(i+1))+" "+where+": MCAP chunk at byte "+itoa(chunk)+
					" skipped: record opcode 0x06 at byte "+itoa(chunk)+" declares 2000 bytes: size exceeds limit (decode budget 1024 bytes)")
			}
			if !slices.Equal(got, want) {
				t.Errorf("message errors\n%q, want\n%q", got, want)
			}
			got, want = nil, nil
			for _, pr := range probs {
				got = append(got, pr.String())
			}
			for _, w := range c.probs {
				want = append(want, p+": "+r.Replace(w))
			}
			if !slices.Equal(got, want) {
				t.Errorf("problems\n%q, want\n%q", got, want)
			}
		})
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
