package bagread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// MCAP integrity checks. The format stores CRC32s (IEEE) of each chunk's
// uncompressed records, of the data section and of the summary; 0 means
// "not computed" (rosbag2 writes chunks without CRCs by default).
//
//   - A chunk read whole is checked after decompression (a chunk with a
//     CRC costs one CRC32 pass over its records). A mismatch is damage:
//     a Problem naming the file and the chunk's offset, and the chunk's
//     messages are skipped; the Problem says how many.
//   - A chunk parsed record by record for a prefix read is checked when
//     every byte of it was decoded anyway (compressed chunks); its
//     messages were delivered by then, and the Problem says so. Bytes an
//     uncompressed chunk's prefix read seeks over are never read, so such
//     a chunk cannot be checked at all.
//   - The summary CRC is checked whenever Open uses the summary (it reads
//     the whole summary anyway); on a mismatch the summary is ignored, the
//     file is scanned, and File.Recovery says why.
//   - The data section CRC is not checked: it covers every byte of the
//     data section, which a topic-filtered or prefix read skips by design.

// errSummaryCRC marks a summary whose CRC does not match.
var errSummaryCRC = errors.New("MCAP summary CRC mismatch")

// checkChunkCRC compares the records of a whole chunk with its header's
// uncompressed_crc.
func checkChunkCRC(ch *chunkHeader, recs []byte) error {
	if ch.crc == 0 {
		return nil
	}
	if got := crc32.ChecksumIEEE(recs); got != ch.crc {
		return fmt.Errorf("CRC32 of its %d uncompressed bytes is %08x, header says %08x", len(recs), got, ch.crc)
	}
	return nil
}

// countMessages counts the message records in chunk records (as far as
// they parse), to say how many a skipped chunk held.
func countMessages(recs []byte) (n int) {
	for len(recs) >= 9 {
		l := binary.LittleEndian.Uint64(recs[1:])
		if l > uint64(len(recs)-9) {
			break
		}
		if recs[0] == opMessage {
			n++
		}
		recs = recs[9+l:]
	}
	return n
}

// chunkCRCProblem reports a whole chunk whose CRC does not match and
// skips it.
func (s *mcapStream) chunkCRCProblem(start int64, recs []byte, err error) {
	s.skipProblem(start, fmt.Errorf("MCAP chunk at byte %d skipped (%d messages): damaged: %w", start, countMessages(recs), err))
}

// summaryCRC reads the summary offset section (from end, where the
// summary records read into sum stop, to the footer) and checks the
// summary CRC.
func summaryCRC(f io.ReaderAt, sum []byte, end uint64, size int64, footer []byte) error {
	if binary.LittleEndian.Uint32(footer[25:]) == 0 {
		return nil
	}
	offsets := make([]byte, uint64(size-footerLen)-end)
	if _, err := f.ReadAt(offsets, int64(end)); err != nil {
		return err
	}
	return checkSummaryCRC(sum, offsets, footer)
}

// checkSummaryCRC checks the footer's summary_crc over the summary
// section (summary, then the summary offset section) and the footer's
// fields before the CRC.
func checkSummaryCRC(summary, offsets, footer []byte) error {
	want := binary.LittleEndian.Uint32(footer[25:])
	if want == 0 {
		return nil
	}
	h := crc32.NewIEEE()
	h.Write(summary)
	h.Write(offsets)
	h.Write(footer[:25])
	if got := h.Sum32(); got != want {
		return fmt.Errorf("%w: CRC32 %08x, footer says %08x", errSummaryCRC, got, want)
	}
	return nil
}
