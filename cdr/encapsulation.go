package cdr

import (
	"encoding/binary"
	"fmt"
)

// Encapsulation is the representation id in bytes 0–1 of a serialized
// message (big-endian on the wire: byte 0 is the high byte).
type Encapsulation uint16

// Representation ids (eProsima Fast-CDR EncodingAlgorithmFlag | endianness
// bit). Only CDRBE and CDRLE (plain XCDR1) are decoded.
const (
	CDRBE    Encapsulation = 0x0000 // XCDR1 plain, big endian
	CDRLE    Encapsulation = 0x0001 // XCDR1 plain, little endian: what ROS 2 bags hold
	PLCDRBE  Encapsulation = 0x0002 // XCDR1 parameter list, big endian
	PLCDRLE  Encapsulation = 0x0003 // XCDR1 parameter list, little endian
	CDR2BE   Encapsulation = 0x0006 // XCDR2 plain (final types)
	CDR2LE   Encapsulation = 0x0007
	DCDR2BE  Encapsulation = 0x0008 // XCDR2 delimited (appendable, DHEADER)
	DCDR2LE  Encapsulation = 0x0009
	PLCDR2BE Encapsulation = 0x000a // XCDR2 parameter list (mutable, EMHEADER)
	PLCDR2LE Encapsulation = 0x000b
)

// EncapsulationSize is the length of the encapsulation header; CDR
// alignment is counted from the byte after it.
const EncapsulationSize = 4

var encapNames = map[Encapsulation]string{
	CDRBE: "CDR_BE", CDRLE: "CDR_LE",
	PLCDRBE: "PL_CDR_BE", PLCDRLE: "PL_CDR_LE",
	CDR2BE: "CDR2_BE", CDR2LE: "CDR2_LE",
	DCDR2BE: "D_CDR2_BE", DCDR2LE: "D_CDR2_LE",
	PLCDR2BE: "PL_CDR2_BE", PLCDR2LE: "PL_CDR2_LE",
}

// String returns the Fast-CDR style name and the hex id, e.g.
// "CDR2_LE (0x0007)", or "unknown (0x1234)".
func (e Encapsulation) String() string {
	name, ok := encapNames[e]
	if !ok {
		name = "unknown"
	}
	return fmt.Sprintf("%s (0x%04x)", name, uint16(e))
}

// Supported reports whether the decoder reads this representation.
func (e Encapsulation) Supported() bool { return e == CDRBE || e == CDRLE }

// ByteOrder returns the byte order selected by the endianness bit.
func (e Encapsulation) ByteOrder() binary.ByteOrder {
	if e&1 == 1 {
		return binary.LittleEndian
	}
	return binary.BigEndian
}

// ReadEncapsulation returns the representation id of data without decoding
// anything else; err is a *DecodeError when data is shorter than 4 bytes.
// It does not judge the id: see Encapsulation.Supported.
func ReadEncapsulation(data []byte) (Encapsulation, error) {
	if len(data) < EncapsulationSize {
		return 0, shortErr("", "encapsulation", 0, EncapsulationSize, len(data))
	}
	return Encapsulation(uint16(data[0])<<8 | uint16(data[1])), nil
}

// encapsulationFor returns the id an encoder writes for order: big endian
// only for binary.BigEndian, little endian otherwise (nil included).
func encapsulationFor(order binary.ByteOrder) Encapsulation {
	if order == binary.BigEndian {
		return CDRBE
	}
	return CDRLE
}
