package cdr

import (
	"encoding/binary"
	"testing"
)

// Benchmarks use the shapes of the performance bag: 1080-range
// scans with intensities, and the three transforms a TurtleBot's /tf
// carries per message.

func BenchmarkDecodeLaserScan(b *testing.B) {
	data := AppendLaserScan(nil, ptr(sampleScan(1080, "laser")), binary.LittleEndian)
	b.Run("full", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeLaserScan(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("into", func(b *testing.B) {
		var m LaserScan
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeLaserScanInto(&m, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("header", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeLaserScanHeader(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("header-into", func(b *testing.B) {
		var h ScanHeader
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if err := DecodeLaserScanHeaderInto(&h, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("big-endian-into", func(b *testing.B) {
		be := AppendLaserScan(nil, ptr(sampleScan(1080, "laser")), binary.BigEndian)
		var m LaserScan
		b.SetBytes(int64(len(be)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeLaserScanInto(&m, be); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDecodeTFMessage(b *testing.B) {
	data := AppendTFMessage(nil, ptr(sampleTF()), binary.LittleEndian)
	b.Run("fresh", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeTFMessage(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("into", func(b *testing.B) {
		var m TFMessage
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeTFMessageInto(&m, data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkAppendLaserScan(b *testing.B) {
	m := sampleScan(1080, "laser")
	buf := AppendLaserScan(nil, &m, binary.LittleEndian)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendLaserScan(buf[:0], &m, binary.LittleEndian)
	}
}
