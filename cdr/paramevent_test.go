package cdr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"testing"
)

// hexParamEventLE is the first /parameter_events message of
// tb3-walker-simstart as laid out in docs/stamped-types.md §4.1: node
// /spawn_entity announces use_sim_time=false (112 bytes).
const hexParamEventLE = `00 01 00 00  21 85 43 67 43 e2 9e 26
	0e 00 00 00 2f 73 70 61 77 6e 5f 65 6e 74 69 74 79 00 00 00
	01 00 00 00
	0d 00 00 00 75 73 65 5f 73 69 6d 5f 74 69 6d 65 00
	01 00  00 00 00 00 00
	00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
	01 00 00 00 00 00 00 00
	00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
	00 00 00 00 00 00 00 00`

func TestParameterEventDocExample(t *testing.T) {
	data := unhex(t, hexParamEventLE)
	if len(data) != 112 {
		t.Fatalf("example is %d bytes, doc says 112", len(data))
	}
	m, info, err := DecodeParameterEventInfo(data)
	if err != nil {
		t.Fatal(err)
	}
	want := ParameterEvent{Stamp: Time{Sec: 1732478241, Nanosec: 647946819}, Node: "/spawn_entity",
		NewParameters: []Parameter{{Name: "use_sim_time", Value: ParameterValue{Type: ParameterBool}}}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("decoded %+v, want %+v", m, want)
	}
	if info.Size != 112 || info.Trailing != 0 {
		t.Errorf("info %+v", info)
	}
	if enc := AppendParameterEvent(nil, &want, binary.LittleEndian); !bytes.Equal(enc, data) {
		t.Errorf("encoding differs from the recorded bytes:\n got %x\nwant %x", enc, data)
	}
}

func sampleParamEvent() ParameterEvent {
	return ParameterEvent{
		Stamp: Time{Sec: 12, Nanosec: 345}, Node: "/ns/node",
		NewParameters: []Parameter{
			{Name: "b", Value: ParameterValue{Type: ParameterBool, BoolValue: true}},
			{Name: "integer", Value: ParameterValue{Type: ParameterInteger, IntegerValue: -1 << 40}},
			{Name: "dbl", Value: ParameterValue{Type: ParameterDouble, DoubleValue: 2.5}},
			{Name: "str", Value: ParameterValue{Type: ParameterString, StringValue: "hello"}},
		},
		ChangedParameters: []Parameter{
			{Name: "bytes", Value: ParameterValue{Type: ParameterByteArray, ByteArrayValue: []byte{1, 2, 3}}},
			{Name: "bools", Value: ParameterValue{Type: ParameterBoolArray, BoolArrayValue: []bool{true, false, true}}},
			{Name: "ints", Value: ParameterValue{Type: ParameterIntegerArray, IntegerArrayValue: []int64{1, -2, 3}}},
			{Name: "dbls", Value: ParameterValue{Type: ParameterDoubleArray, DoubleArrayValue: []float64{0.5, -1}}},
			{Name: "strs", Value: ParameterValue{Type: ParameterStringArray, StringArrayValue: []string{"a", "", "ccc"}}},
		},
		DeletedParameters: []Parameter{{Name: "gone"}},
	}
}

func TestParameterEventRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    ParameterEvent
	}{
		{"empty", ParameterEvent{Node: "/n"}},
		{"every kind", sampleParamEvent()},
	} {
		for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			b := AppendParameterEvent(nil, &tc.m, o)
			got, err := DecodeParameterEvent(b)
			if err != nil {
				t.Fatalf("%s %v: %v", tc.name, o, err)
			}
			if !reflect.DeepEqual(got, tc.m) {
				t.Fatalf("%s %v: got %+v want %+v", tc.name, o, got, tc.m)
			}
			// every prefix is a clean short-input error
			for n := 0; n < len(b); n++ {
				_, err := DecodeParameterEvent(b[:n])
				if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrBadLength) {
					t.Fatalf("%s: prefix %d: %v", tc.name, n, err)
				}
			}
		}
	}
}

func TestParameterEventErrors(t *testing.T) {
	good := AppendParameterEvent(nil, ptr(sampleParamEvent()), binary.LittleEndian)
	bad := bytes.Clone(good)
	binary.LittleEndian.PutUint32(bad[28:], 0xffffff) // new_parameters count: 4 + 8 + 4 + len("/ns/node\x00") + 3 pad
	_, err := DecodeParameterEvent(bad)
	var de *DecodeError
	if !errors.As(err, &de) || !errors.Is(err, ErrBadLength) || de.Field != "ParameterEvent.new_parameters" {
		t.Fatalf("lying count: %v", err)
	}
	_, err = DecodeParameterEvent(good[:len(good)-10]) // ends inside the third-last count
	if !errors.As(err, &de) || de.Field != "ParameterEvent.deleted_parameters[0].value.integer_array_value" {
		t.Fatalf("short: %v", err)
	}
}

// TestParameterCountBound: a parameter count is checked against the
// smallest Parameter, 46 bytes without padding (name length 4, type 1,
// bool 1, int64 8, float64 8, string length 4, five counts 20): in the doc
// example, 76 bytes follow the new_parameters count at byte 32, so a count
// of 2 claims 92.
func TestParameterCountBound(t *testing.T) {
	data := unhex(t, hexParamEventLE)
	binary.LittleEndian.PutUint32(data[32:], 2)
	_, err := DecodeParameterEvent(data)
	checkDecodeError(t, err, &DecodeError{Field: "ParameterEvent.new_parameters", Offset: 32, Need: 92, Have: 76,
		Detail: "count 2", Err: ErrBadLength})
}

func TestParameterTypeString(t *testing.T) {
	for typ, want := range map[ParameterType]string{ParameterNotSet: "not_set", ParameterBool: "bool",
		ParameterStringArray: "string_array", 10: "type(10)", 42: "type(42)"} {
		if got := typ.String(); got != want {
			t.Errorf("%d: %q want %q", typ, got, want)
		}
	}
}

func FuzzDecodeParameterEvent(f *testing.F) {
	seeds(f, []string{hexParamEventLE}, func(o binary.ByteOrder) [][]byte {
		return [][]byte{
			AppendParameterEvent(nil, ptr(sampleParamEvent()), o),
			AppendParameterEvent(nil, &ParameterEvent{}, o),
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeParameterEvent(data)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		enc := AppendParameterEvent(nil, &m, orderOf(data))
		m2, err := DecodeParameterEvent(enc)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if !sameParamEvent(&m, &m2) {
			t.Fatalf("round trip changed the event: %+v vs %+v", m, m2)
		}
		if enc2 := AppendParameterEvent(nil, &m2, orderOf(data)); !bytes.Equal(enc, enc2) {
			t.Fatal("re-encoding is not a fixed point")
		}
	})
}

// sameParamEvent compares with floats by bit pattern (NaN payloads).
func sameParamEvent(a, b *ParameterEvent) bool {
	lists := func(m *ParameterEvent) [][]Parameter {
		return [][]Parameter{m.NewParameters, m.ChangedParameters, m.DeletedParameters}
	}
	if a.Stamp != b.Stamp || a.Node != b.Node {
		return false
	}
	la, lb := lists(a), lists(b)
	for k := range la {
		if len(la[k]) != len(lb[k]) {
			return false
		}
		for i := range la[k] {
			pa, pb := la[k][i], lb[k][i]
			va, vb := pa.Value, pb.Value
			if pa.Name != pb.Name || va.Type != vb.Type || va.BoolValue != vb.BoolValue ||
				va.IntegerValue != vb.IntegerValue || !sameF64(va.DoubleValue, vb.DoubleValue) ||
				va.StringValue != vb.StringValue || !bytes.Equal(va.ByteArrayValue, vb.ByteArrayValue) ||
				!reflect.DeepEqual(va.BoolArrayValue, vb.BoolArrayValue) ||
				!reflect.DeepEqual(va.IntegerArrayValue, vb.IntegerArrayValue) ||
				!reflect.DeepEqual(va.StringArrayValue, vb.StringArrayValue) ||
				len(va.DoubleArrayValue) != len(vb.DoubleArrayValue) {
				return false
			}
			for j := range va.DoubleArrayValue {
				if !sameF64(va.DoubleArrayValue[j], vb.DoubleArrayValue[j]) {
					return false
				}
			}
		}
	}
	return true
}
