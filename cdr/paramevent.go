package cdr

import (
	"encoding/binary"
	"math"
)

// TypeParameterEvent is the ROS type name of ParameterEvent.
const TypeParameterEvent = "rcl_interfaces/msg/ParameterEvent"

// ParameterType is rcl_interfaces/msg/ParameterType: which member of a
// ParameterValue is meaningful.
type ParameterType uint8

// ParameterType constants (rcl_interfaces/msg/ParameterType.msg).
const (
	ParameterNotSet       ParameterType = 0
	ParameterBool         ParameterType = 1
	ParameterInteger      ParameterType = 2
	ParameterDouble       ParameterType = 3
	ParameterString       ParameterType = 4
	ParameterByteArray    ParameterType = 5
	ParameterBoolArray    ParameterType = 6
	ParameterIntegerArray ParameterType = 7
	ParameterDoubleArray  ParameterType = 8
	ParameterStringArray  ParameterType = 9
)

var parameterTypeNames = [...]string{"not_set", "bool", "integer", "double", "string",
	"byte_array", "bool_array", "integer_array", "double_array", "string_array"}

// String returns the lower-case name ("bool", "integer_array", ...), or
// "type(N)" for a value outside the constants.
func (t ParameterType) String() string {
	if int(t) < len(parameterTypeNames) {
		return parameterTypeNames[t]
	}
	return "type(" + itoa(uint64(t)) + ")"
}

// ParameterValue is rcl_interfaces/msg/ParameterValue. All ten members are
// always on the wire; only the one Type names is meaningful.
type ParameterValue struct {
	Type              ParameterType
	BoolValue         bool
	IntegerValue      int64
	DoubleValue       float64
	StringValue       string
	ByteArrayValue    []byte
	BoolArrayValue    []bool
	IntegerArrayValue []int64
	DoubleArrayValue  []float64
	StringArrayValue  []string
}

// Parameter is rcl_interfaces/msg/Parameter.
type Parameter struct {
	Name  string
	Value ParameterValue
}

// ParameterEvent is rcl_interfaces/msg/ParameterEvent (what
// /parameter_events carries): Stamp is the publishing node's ROS clock,
// Node its fully qualified name.
type ParameterEvent struct {
	Stamp             Time
	Node              string
	NewParameters     []Parameter
	ChangedParameters []Parameter
	DeletedParameters []Parameter
}

// minParameter is the smallest encoding of a Parameter without alignment
// padding: name length 4, type 1, bool 1, int64 8, float64 8, string
// length 4, five sequence counts 20. It bounds parameter counts before
// anything is allocated.
const minParameter = 4 + 1 + 1 + 8 + 8 + 4 + 5*4

// DecodeParameterEvent decodes an rcl_interfaces/msg/ParameterEvent
// (4-byte encapsulation header included). Bools are true for any non-zero
// byte, as Foxglove's reader does.
func DecodeParameterEvent(data []byte) (ParameterEvent, error) {
	m, _, err := DecodeParameterEventInfo(data)
	return m, err
}

// DecodeParameterEventInfo is DecodeParameterEvent that also returns the
// layout Info.
func DecodeParameterEventInfo(data []byte) (ParameterEvent, Info, error) {
	c, enc, err := newCursor(data, TypeParameterEvent)
	if err != nil {
		return ParameterEvent{}, Info{}, err
	}
	var m ParameterEvent
	if err := c.parameterEvent(&m); err != nil {
		return ParameterEvent{}, Info{}, prefixField(err, "ParameterEvent.")
	}
	return m, c.info(enc), nil
}

func (c *cursor) parameterEvent(m *ParameterEvent) error {
	var err error
	if m.Stamp, err = c.time("stamp.sec", "stamp.nanosec"); err != nil {
		return err
	}
	if m.Node, err = c.string("node", ""); err != nil {
		return err
	}
	for _, l := range [...]struct {
		p    *[]Parameter
		name string
	}{{&m.NewParameters, "new_parameters"}, {&m.ChangedParameters, "changed_parameters"}, {&m.DeletedParameters, "deleted_parameters"}} {
		n, err := c.count(minParameter, l.name)
		if err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		ps := make([]Parameter, n)
		for i := range ps {
			if err := c.parameter(&ps[i]); err != nil {
				return prefixField(err, indexed(l.name, i)+".")
			}
		}
		*l.p = ps
	}
	return nil
}

func (c *cursor) parameter(p *Parameter) error {
	var err error
	if p.Name, err = c.string("name", ""); err != nil {
		return err
	}
	if err := c.parameterValue(&p.Value); err != nil {
		return prefixField(err, "value.")
	}
	return nil
}

func (c *cursor) parameterValue(v *ParameterValue) error {
	t, err := c.uint8("type")
	if err != nil {
		return err
	}
	v.Type = ParameterType(t)
	b, err := c.uint8("bool_value")
	if err != nil {
		return err
	}
	v.BoolValue = b != 0
	u, err := c.uint64("integer_value")
	if err != nil {
		return err
	}
	v.IntegerValue = int64(u)
	if v.DoubleValue, err = c.float64("double_value"); err != nil {
		return err
	}
	if v.StringValue, err = c.string("string_value", ""); err != nil {
		return err
	}
	// byte[] and bool[]: one byte per element, no padding.
	n, err := c.count(1, "byte_array_value")
	if err != nil {
		return err
	}
	v.ByteArrayValue = append([]byte(nil), c.b[c.pos:c.pos+n]...) // nil when n is 0
	c.pos += n
	if n, err = c.count(1, "bool_array_value"); err != nil {
		return err
	}
	if n > 0 {
		v.BoolArrayValue = make([]bool, n)
		for i, x := range c.b[c.pos : c.pos+n] {
			v.BoolArrayValue[i] = x != 0
		}
		c.pos += n
	}
	if n, err = c.count(8, "integer_array_value"); err != nil {
		return err
	}
	if n > 0 {
		v.IntegerArrayValue = make([]int64, n)
		for i := range v.IntegerArrayValue {
			u, err := c.uint64("integer_array_value")
			if err != nil {
				return elemErr(err, "integer_array_value", i)
			}
			v.IntegerArrayValue[i] = int64(u)
		}
	}
	if n, err = c.count(8, "double_array_value"); err != nil {
		return err
	}
	if n > 0 {
		v.DoubleArrayValue = make([]float64, n)
		for i := range v.DoubleArrayValue {
			if v.DoubleArrayValue[i], err = c.float64("double_array_value"); err != nil {
				return elemErr(err, "double_array_value", i)
			}
		}
	}
	if n, err = c.count(4, "string_array_value"); err != nil {
		return err
	}
	if n > 0 {
		v.StringArrayValue = make([]string, n)
		for i := range v.StringArrayValue {
			if v.StringArrayValue[i], err = c.string("string_array_value", ""); err != nil {
				return elemErr(err, "string_array_value", i)
			}
		}
	}
	return nil
}

// uint64 reads an 8-byte aligned unsigned integer.
func (c *cursor) uint64(field string) (uint64, error) {
	f, err := c.float64(field)
	return math.Float64bits(f), err
}

// AppendParameterEvent appends an encoded ParameterEvent to dst, laid out
// as rmw writes it (all ten ParameterValue members, padding zeroed).
func AppendParameterEvent(dst []byte, m *ParameterEvent, order binary.ByteOrder) []byte {
	w := newWriter(dst, order)
	w.time(m.Stamp)
	w.string(m.Node)
	for _, ps := range [...][]Parameter{m.NewParameters, m.ChangedParameters, m.DeletedParameters} {
		w.uint32(uint32(len(ps)))
		for i := range ps {
			w.string(ps[i].Name)
			w.parameterValue(&ps[i].Value)
		}
	}
	return w.b
}

func (w *writer) parameterValue(v *ParameterValue) {
	w.uint8(uint8(v.Type))
	w.uint8(boolByte(v.BoolValue))
	w.float64(math.Float64frombits(uint64(v.IntegerValue)))
	w.float64(v.DoubleValue)
	w.string(v.StringValue)
	w.uint32(uint32(len(v.ByteArrayValue)))
	w.b = append(w.b, v.ByteArrayValue...)
	w.uint32(uint32(len(v.BoolArrayValue)))
	for _, b := range v.BoolArrayValue {
		w.uint8(boolByte(b))
	}
	w.uint32(uint32(len(v.IntegerArrayValue)))
	for _, x := range v.IntegerArrayValue {
		w.float64(math.Float64frombits(uint64(x)))
	}
	w.uint32(uint32(len(v.DoubleArrayValue)))
	for _, x := range v.DoubleArrayValue {
		w.float64(x)
	}
	w.uint32(uint32(len(v.StringArrayValue)))
	for _, s := range v.StringArrayValue {
		w.string(s)
	}
}

func boolByte(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// elemErr names element i of an array in a *DecodeError (error path only).
func elemErr(err error, name string, i int) error {
	if de, ok := err.(*DecodeError); ok {
		de.Field = indexed(name, i)
	}
	return err
}
