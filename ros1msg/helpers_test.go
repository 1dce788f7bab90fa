package ros1msg

import (
	"fmt"
	"strconv"
)

func formatInt(v int64) string { return strconv.FormatInt(v, 10) }
func pad9(v int64) string      { return fmt.Sprintf("%09d", v) }

func decTF(b []byte) (string, error) {
	var m TFMessage
	if _, err := DecodeTFMessageInto(&m, b); err != nil {
		return "", err
	}
	s := strconv.Itoa(len(m.Transforms))
	for _, x := range m.Transforms {
		s += " " + x.Header.FrameID + ">" + x.ChildFrameID + " " + fmtTime(x.Header.Stamp)
	}
	return s, nil
}

func decClock(b []byte) (string, error) {
	c, _, err := DecodeClock(b)
	return fmtTime(c.Clock), err
}

func decScan(b []byte) (string, error) {
	var s ScanHeader
	if err := DecodeLaserScanHeaderInto(&s, b); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %s %s %d %d", s.Header.Seq, fmtTime(s.Header.Stamp), s.Header.FrameID, s.NumRanges, s.NumIntensities), nil
}

func decLog(b []byte) (string, error) {
	l, _, err := DecodeLog(b)
	return fmt.Sprintf("%d %s %s %s %s %d %v", l.Level, l.Name, l.Msg, l.File, l.Function, l.Line, l.Topics), err
}

func decHeader(b []byte) (string, error) {
	var h Header
	if err := DecodeHeaderInto(&h, b, TypeLaserScan); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %s %s", h.Seq, fmtTime(h.Stamp), h.FrameID), nil
}

func decScanPrefix(b []byte, size int) (string, error) {
	var s ScanHeader
	if err := DecodeLaserScanPrefixInto(&s, b, int64(size)); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %s %s %d %d", s.Header.Seq, fmtTime(s.Header.Stamp), s.Header.FrameID, s.NumRanges, s.NumIntensities), nil
}
