package bagread

import (
	"encoding/binary"
	"reflect"
	"testing"
)

// dirty sets every field of the struct *p to a non-zero value, so a test
// sees any field an assignment forgets to reset.
func dirty(t *testing.T, p any) {
	t.Helper()
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem() // unexported too
		switch f.Kind() {
		case reflect.String:
			f.SetString("stale")
		case reflect.Int, reflect.Int64:
			f.SetInt(-7)
		case reflect.Uint64:
			f.SetUint(7)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]byte("stale")))
		case reflect.Interface:
			f.Set(reflect.ValueOf(errTestStale))
		default:
			t.Fatalf("field %s of kind %s: teach dirty about it", v.Type().Field(i).Name, f.Kind())
		}
	}
}

var errTestStale = &FileError{Op: "stale"}

// setMCAP and fill assign field by field (for speed); these tables check
// they leave no field of the previous message behind, as the composite
// literals they replaced did not.
func TestSetMCAPAssignsEveryField(t *testing.T) {
	head := make([]byte, 22)
	binary.LittleEndian.PutUint64(head[6:], 111)
	binary.LittleEndian.PutUint64(head[14:], 222)
	c := &chanInfo{topic: "/scan", typ: "sensor_msgs/msg/LaserScan"}
	for _, tc := range []struct {
		name string
		size int64
		data []byte
	}{
		{"whole", 0, []byte{1, 2, 3}},
		{"prefix", 4096, []byte{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got rawMessage
			dirty(t, &got)
			got.setMCAP(c, 3, head, 1000, 64, tc.data, tc.size)
			want := rawMessage{topic: c.topic, typ: c.typ, fileIndex: 3, logTime: 111, pubTime: 222, hasPub: true,
				pos: 1000, chunkOff: 64, data: tc.data, size: tc.size}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("setMCAP over a stale message:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestFillAssignsEveryField(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  rawMessage
		want Message
	}{
		{"mcap", rawMessage{topic: "/tf", typ: "tf2_msgs/msg/TFMessage", logTime: 5, pubTime: 6, hasPub: true, pos: 70, chunkOff: 8, data: []byte{0, 1, 0, 0}, fileIndex: 1},
			Message{Topic: "/tf", Type: "tf2_msgs/msg/TFMessage", LogTimeNS: 5, PublishTimeNS: 6, HasPublishTime: true, FileIndex: 1, Position: 70, ChunkOffset: 8, Data: []byte{0, 1, 0, 0}, Size: 4}},
		{"ros1", rawMessage{topic: "/clock", typ: "rosgraph_msgs/Clock", logTime: 9, pos: 3, chunkOff: -1, data: []byte{1}, plain: true, publisher: "/sim"},
			Message{Topic: "/clock", Type: "rosgraph_msgs/Clock", LogTimeNS: 9, Position: 3, ChunkOffset: -1, Data: []byte{1}, Size: 1, Publisher: "/sim"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := &Iterator{perTopic: map[string]*topicCursor{}}
			dirty(t, &it.msg)
			it.fill(&tc.raw)
			if !reflect.DeepEqual(it.msg, tc.want) {
				t.Fatalf("fill over a stale message:\n got %+v\nwant %+v", it.msg, tc.want)
			}
		})
	}
}
