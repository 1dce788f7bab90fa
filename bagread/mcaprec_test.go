package bagread

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"testing"

	"github.com/bagclock/bagclock/internal/bombs"
)

// rec is one MCAP record: opcode, u64 length, body.
func rec(op byte, body []byte) []byte {
	b := make([]byte, 9, 9+len(body))
	b[0] = op
	binary.LittleEndian.PutUint64(b[1:], uint64(len(body)))
	return append(b, body...)
}

// u32le, u64le and str32 build record bodies field by field.
func u32le(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u64le(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func str32(s string) []byte { return append(u32le(uint32(len(s))), s...) }

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// TestRecReaderHeader: each record header is checked against the bytes
// left in the file and against the decode budget, and the error gives the
// opcode and the sizes as read; a clean end is io.EOF.
func TestRecReaderHeader(t *testing.T) {
	const limit = 64
	cases := []struct {
		name    string
		data    []byte // after the leading magic
		op      byte
		length  uint64
		start   int64
		wantErr string // "" for none, "EOF" for io.EOF
	}{
		{"empty rest", nil, 0, 0, 8, "EOF"},
		{"trailing magic", mcapMagic, 0, 0, 8, "EOF"},
		{"torn header", []byte{opSchema, 1, 0}, 0, 0, 8, "record header torn: need 9 bytes, have 3"},
		{"torn header of 8 bytes", []byte{opSchema, 1, 0, 0, 0, 0, 0, 0}, 0, 0, 8, "record header torn: need 9 bytes, have 8"},
		{"opcode 0", rec(0, []byte{1}), 0, 1, 8, "invalid opcode 0"},
		{"exactly the rest", rec(opSchema, make([]byte, 5)), opSchema, 5, 8, ""},
		{"one past the rest", cat(rec(opSchema, nil)[:1], u64le(6), make([]byte, 5)), opSchema, 6, 8,
			"record opcode 0x03 of 6 bytes runs past end of data (5 bytes left)"},
		{"exactly the budget", rec(opChannel, make([]byte, limit)), opChannel, limit, 8, ""},
		{"one past the budget", rec(opChannel, make([]byte, limit+1)), opChannel, limit + 1, 8,
			"record opcode 0x04 of 65 bytes: size exceeds limit (64)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &mcapHandle{path: "x.mcap", limit: limit, mem: &memFile{name: "x.mcap", data: cat(mcapMagic, c.data)}}
			rr, err := newRecReader(h)
			if err != nil {
				t.Fatal(err)
			}
			defer rr.close()
			if err := rr.magic(); err != nil {
				t.Fatal(err)
			}
			op, length, start, err := rr.header()
			if op != c.op || length != c.length || start != c.start {
				t.Errorf("header() = opcode %#x, length %d, start %d; want %#x, %d, %d", op, length, start, c.op, c.length, c.start)
			}
			switch {
			case c.wantErr == "EOF":
				if err != io.EOF {
					t.Errorf("header() error %v, want io.EOF", err)
				}
			case c.wantErr == "":
				if err != nil {
					t.Errorf("header() error %v, want none", err)
				}
			case err == nil || err.Error() != c.wantErr:
				t.Errorf("header() error %v, want %q", err, c.wantErr)
			}
		})
	}
}

// TestRecReaderMagic: a short or wrong leading magic is an error saying
// how much there was or what it read.
func TestRecReaderMagic(t *testing.T) {
	for _, c := range []struct {
		name, data, want string
	}{
		{"short", "\x89MCA", "record header torn: need 8 bytes, have 4"},
		{"wrong", "\x89MCAP1\r\x0a", `bad MCAP magic "\x89MCAP1\r\n"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			rr, err := newRecReader(&mcapHandle{path: "x.mcap", limit: 64, mem: &memFile{data: []byte(c.data)}})
			if err != nil {
				t.Fatal(err)
			}
			defer rr.close()
			if err := rr.magic(); err == nil || err.Error() != c.want {
				t.Errorf("magic() error %v, want %q", err, c.want)
			}
		})
	}
}

// TestCursor: every field read is bounds-checked and the error names the
// field, the bytes it needs, its offset and what is left.
func TestCursor(t *testing.T) {
	for _, c := range []struct {
		name string
		body []byte
		want string // error; "" for a complete chunk header
	}{
		{"whole", cat(u64le(1), u64le(2), u64le(3), u32le(4), str32("zstd"), u64le(2), []byte{7, 8}), ""},
		{"no end time", cat(u64le(1), []byte{1, 2, 3, 4, 5, 6, 7}),
			"chunk message_end_time: need 8 bytes at offset 8, have 7"},
		{"torn crc", cat(u64le(1), u64le(2), u64le(3), []byte{1, 2, 3}),
			"chunk uncompressed_crc: need 4 bytes at offset 24, have 3"},
		{"torn compression", cat(u64le(1), u64le(2), u64le(3), u32le(4), u32le(5), []byte("zst")),
			"chunk compression: need 5 bytes at offset 32, have 3"},
		{"huge compression", cat(u64le(1), u64le(2), u64le(3), u32le(4), u32le(1<<32-1)),
			"chunk compression: need 2147483647 bytes at offset 32, have 0"},
		{"torn records length", cat(u64le(1), u64le(2), u64le(3), u32le(4), str32(""), []byte{1}),
			"chunk records: need 8 bytes at offset 32, have 1"},
		{"records past the end", cat(u64le(1), u64le(2), u64le(3), u32le(4), str32(""), u64le(3), []byte{7, 8}),
			"chunk records: length 3 exceeds the 2 bytes left"},
		{"records length past 2^63", cat(u64le(1), u64le(2), u64le(3), u32le(4), str32(""), u64le(1<<63), []byte{7, 8}),
			"chunk records: length 9223372036854775808 exceeds the 2 bytes left"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := parseChunk(c.body)
			if c.want != "" {
				if err == nil || err.Error() != c.want {
					t.Errorf("parseChunk error %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.start != 1 || h.end != 2 || h.usize != 3 || h.crc != 4 || h.compression != "zstd" || string(h.records) != "\x07\x08" {
				t.Errorf("parseChunk = %+v", h)
			}
		})
	}
	var c cursor
	c.b = []byte{1, 2, 3}
	if c.need(-1, "negative") || c.err == nil || c.err.Error() != "negative: need -1 bytes at offset 0, have 3" {
		t.Errorf("need(-1): err %v", c.err)
	}
	c = cursor{b: []byte{1, 2, 3}}
	if v := c.u16("a"); v != 0x0201 || c.off != 2 {
		t.Errorf("u16 = %#x at %d, want 0x201 then offset 2", v, c.off)
	}
	if v := c.u16("b"); v != 0 || c.err == nil || c.err.Error() != "b: need 2 bytes at offset 2, have 1" {
		t.Errorf("u16 past the end = %d, %v", v, c.err)
	}
	// After an error every read gives the zero value and keeps the first error.
	if v := c.u64("c"); v != 0 || c.err.Error() != "b: need 2 bytes at offset 2, have 1" {
		t.Errorf("u64 after an error = %d, %v", v, c.err)
	}
	if s := c.str("d"); s != "" {
		t.Errorf("str after an error = %q", s)
	}
	if b := c.bytes64("e"); b != nil {
		t.Errorf("bytes64 after an error = %v", b)
	}
}

// TestCountMessages: a damaged chunk's message count covers the message
// records that parse, and stops at the first record running past the end.
func TestCountMessages(t *testing.T) {
	msg := rec(opMessage, make([]byte, 22))
	for _, c := range []struct {
		name string
		recs []byte
		want int
	}{
		{"none", nil, 0},
		{"other records", cat(rec(opSchema, []byte{1}), rec(opChannel, nil)), 0},
		{"three", cat(msg, rec(opChannel, nil), msg, msg), 3},
		{"empty message body", rec(opMessage, nil), 1},
		{"torn header", cat(msg, msg[:8]), 1},
		{"torn body", cat(msg, msg[:len(msg)-1]), 1},
		{"length past 2^63", cat(msg, msg[:1], u64le(1<<63), make([]byte, 30)), 1},
	} {
		if got := countMessages(c.recs); got != c.want {
			t.Errorf("%s: countMessages = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestCRCErrors: a zero CRC is not checked; a mismatch gives the size and
// both CRCs.
func TestCRCErrors(t *testing.T) {
	recs := []byte("some records")
	good := crc32.ChecksumIEEE(recs)
	for _, c := range []struct {
		crc  uint32
		want string
	}{
		{0, ""},
		{good, ""},
		{good ^ 1, "CRC32 of its 12 uncompressed bytes is " + hex8(good) + ", header says " + hex8(good^1)},
	} {
		err := checkChunkCRC(&chunkHeader{crc: c.crc}, recs)
		if (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("crc %08x: error %v, want %q", c.crc, err, c.want)
		}
	}
	footer := make([]byte, footerLen)
	sum, offs := []byte("summary"), []byte("offsets")
	h := crc32.NewIEEE()
	h.Write(sum)
	h.Write(offs)
	h.Write(footer[:25])
	want := h.Sum32()
	binary.LittleEndian.PutUint32(footer[25:], want)
	if err := checkSummaryCRC(sum, offs, footer); err != nil {
		t.Errorf("matching summary CRC: %v", err)
	}
	binary.LittleEndian.PutUint32(footer[25:], want+1)
	err := checkSummaryCRC(sum, offs, footer)
	if !errors.Is(err, errSummaryCRC) || err.Error() != "MCAP summary CRC mismatch: CRC32 "+hex8(want)+", footer says "+hex8(want+1) {
		t.Errorf("mismatching summary CRC: %v", err)
	}
	binary.LittleEndian.PutUint32(footer[25:], 0)
	if err := checkSummaryCRC(sum, offs, footer); err != nil {
		t.Errorf("summary CRC 0: %v", err)
	}
}

func hex8(v uint32) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}

// TestSizeError: the message gives the declared size when there is one,
// what the data decoded to (or that it went past the budget, or was not
// decoded at all because the declared size is over it) and the budget.
func TestSizeError(t *testing.T) {
	for _, c := range []struct {
		e    SizeError
		want string
	}{
		{SizeError{What: "zstd frame", Actual: 10, Limit: 10},
			"zstd frame declares no size, decodes to 10 bytes: size exceeds limit (decode budget 10 bytes)"},
		{SizeError{What: "zstd frame", Actual: 11, Limit: 10},
			"zstd frame declares no size, decodes to more than 10 bytes: size exceeds limit (decode budget 10 bytes)"},
		{SizeError{What: "lz4 chunk", HasDeclared: true, Declared: 10, Actual: 9, Limit: 10},
			"lz4 chunk declares 10 bytes, decodes to 9 bytes: size exceeds limit (decode budget 10 bytes)"},
		{SizeError{What: "lz4 chunk", HasDeclared: true, Declared: 11, Limit: 10},
			"lz4 chunk declares 11 bytes, not decoded: size exceeds limit (decode budget 10 bytes)"},
		{SizeError{What: "zstd chunk", HasDeclared: true, Declared: 10, Actual: 11, Limit: 10},
			"zstd chunk declares 10 bytes, decodes to more than 10 bytes: size exceeds limit (decode budget 10 bytes)"},
		{SizeError{What: "zstd frame", Declared: 11, Actual: 3, Limit: 10},
			"zstd frame declares no size, decodes to 3 bytes: size exceeds limit (decode budget 10 bytes)"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
		if !errors.Is(&c.e, ErrTooLarge) {
			t.Errorf("%+v does not unwrap to ErrTooLarge", c.e)
		}
	}
}

// TestWALOnly: only a recovery at offset -1 with WAL messages is a
// leftover -wal read whole.
func TestWALOnly(t *testing.T) {
	for _, c := range []struct {
		r    *Recovery
		want bool
	}{
		{nil, false},
		{&Recovery{Offset: -1, WALMessages: 1}, true},
		{&Recovery{Offset: -1, WALMessages: 0}, false},
		{&Recovery{Offset: 0, WALMessages: 1}, false},
		{&Recovery{Offset: 100, WALMessages: 5}, false},
	} {
		if got := c.r.WALOnly(); got != c.want {
			t.Errorf("%+v.WALOnly() = %v, want %v", c.r, got, c.want)
		}
	}
}

// TestRecReaderBodyAndSkip: bodies and skips keep the offset right, in a
// plain file (skips past the buffer seek) and in a FILE-mode zstd stream
// (bodies grow in 16 MiB steps, skips discard); a torn body or skip says
// how much was needed and how much there was.
func TestRecReaderBodyAndSkip(t *testing.T) {
	big := make([]byte, 17<<20)
	for i := range big {
		big[i] = byte(i % 251)
	}
	small := []byte("hello")
	file := cat(mcapMagic, rec(opSchema, small), rec(opChannel, big), rec(opSchema, small), rec(opMessage, big[:100]))
	torn := file[:len(file)-10]
	for _, compressed := range []bool{false, true} {
		data, tornData := file, torn
		if compressed {
			data, tornData = bombs.Compress(file), bombs.Compress(torn)
		}
		open := func(b []byte) *recReader {
			rr, err := newRecReader(&mcapHandle{path: "x.mcap", compressed: compressed, limit: 32 << 20, mem: &memFile{data: b}})
			if err != nil {
				t.Fatal(err)
			}
			if err := rr.magic(); err != nil {
				t.Fatal(err)
			}
			return rr
		}
		rr := open(data)
		var buf []byte
		for i, want := range []struct {
			op   byte
			body []byte
			skip bool
		}{{opSchema, small, false}, {opChannel, big, true}, {opSchema, small, true}, {opMessage, big[:100], false}} {
			op, n, start, err := rr.header()
			if err != nil || op != want.op || n != uint64(len(want.body)) {
				t.Fatalf("compressed %v, record %d: header %#x %d %v", compressed, i, op, n, err)
			}
			if want.skip {
				err = rr.skip(n)
			} else {
				var b []byte
				b, err = rr.body(&buf, n)
				if err == nil && !bytes.Equal(b, want.body) {
					t.Errorf("compressed %v, record %d: body differs", compressed, i)
				}
			}
			if err != nil || rr.off != start+9+int64(n) {
				t.Fatalf("compressed %v, record %d at %d: offset %d after it, error %v", compressed, i, start, rr.off, err)
			}
		}
		if _, _, _, err := rr.header(); err != io.EOF {
			t.Errorf("compressed %v: after the last record: %v", compressed, err)
		}
		if err := rr.seekTo(8); compressed != (err != nil) || compressed && err.Error() != "cannot seek in a zstd-compressed MCAP stream" {
			t.Errorf("compressed %v: seekTo: %v", compressed, err)
		}
		rr.close()
		if !compressed {
			continue // a plain file's torn records are caught by header
		}
		rr = open(tornData)
		rr.header()
		rr.body(&buf, 5)
		rr.header()
		rr.skip(uint64(len(big)))
		rr.header()
		rr.skip(5)
		_, n, _, _ := rr.header()
		if _, err := rr.body(&buf, n); err == nil || err.Error() != "record opcode 0xff of 100 bytes runs past end of data (90 bytes left)" {
			t.Errorf("torn body: %v", err)
		}
		rr.close()
		rr = open(tornData)
		rr.header()
		rr.body(&buf, 5)
		rr.header()
		rr.skip(uint64(len(big)))
		rr.header()
		rr.skip(5)
		rr.header()
		if err := rr.skip(100); err == nil || err.Error() != "record opcode 0xff of 100 bytes runs past end of data (90 bytes left)" {
			t.Errorf("torn skip: %v", err)
		}
		rr.close()
	}
}
