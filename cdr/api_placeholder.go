package cdr

import (
	"encoding/binary"
	"errors"
)

// The functions below are the package's contract; the placeholder bodies
// are replaced by the real decoder.

var errPlaceholder = errors.New("cdr: not implemented")

// DecodeLaserScan decodes a whole LaserScan message (4-byte encapsulation
// header included).
func DecodeLaserScan(data []byte) (LaserScan, error) { return LaserScan{}, errPlaceholder }

// ScanHeader is what the LaserScan fast path returns: the header, and the
// array lengths without copying the arrays.
type ScanHeader struct {
	Header         Header
	NumRanges      int
	NumIntensities int
}

// DecodeLaserScanHeader reads stamp and frame_id and checks the arrays'
// bounds without copying them.
func DecodeLaserScanHeader(data []byte) (ScanHeader, error) { return ScanHeader{}, errPlaceholder }

// DecodeTFMessage decodes a TFMessage.
func DecodeTFMessage(data []byte) (TFMessage, error) { return TFMessage{}, errPlaceholder }

// DecodeClock decodes a rosgraph_msgs/Clock.
func DecodeClock(data []byte) (Clock, error) { return Clock{}, errPlaceholder }

// DecodeLog decodes an rcl_interfaces/msg/Log.
func DecodeLog(data []byte) (Log, error) { return Log{}, errPlaceholder }

// AppendLaserScan appends the encapsulation header and the CDR encoding of
// m in the given byte order to dst.
func AppendLaserScan(dst []byte, m *LaserScan, order binary.ByteOrder) []byte { return dst }

// AppendTFMessage appends an encoded TFMessage to dst.
func AppendTFMessage(dst []byte, m *TFMessage, order binary.ByteOrder) []byte { return dst }

// AppendClock appends an encoded Clock to dst.
func AppendClock(dst []byte, m *Clock, order binary.ByteOrder) []byte { return dst }

// AppendLog appends an encoded Log to dst.
func AppendLog(dst []byte, m *Log, order binary.ByteOrder) []byte { return dst }
