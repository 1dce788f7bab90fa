package bagwrite

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// QoS is one offered QoS profile as rosbag2 records it. Policy values use
// rmw's names ("keep_last", "reliable", "transient_local", ...); the zero
// value is what recorders usually store for a plain publisher: history
// unknown, depth 0 (discovery carries no history), reliable, volatile,
// automatic liveliness, infinite deadline, lifespan and lease.
type QoS struct {
	History     string // "" means "unknown"
	Depth       int
	Reliability string // "" means "reliable"
	Durability  string // "" means "volatile"
	Liveliness  string // "" means "automatic"
}

// rmw enum values (rmw/types.h) for the numeric encoding of metadata v4-v8.
var (
	historyCodes     = map[string]int{"system_default": 0, "keep_last": 1, "keep_all": 2, "unknown": 3}
	reliabilityCodes = map[string]int{"system_default": 0, "reliable": 1, "best_effort": 2, "unknown": 3, "best_available": 4}
	durabilityCodes  = map[string]int{"system_default": 0, "transient_local": 1, "volatile": 2, "unknown": 3, "best_available": 4}
	livelinessCodes  = map[string]int{"system_default": 0, "automatic": 1, "manual_by_node": 2, "manual_by_topic": 3, "unknown": 4, "best_available": 5}
)

func (q QoS) normalized() QoS {
	if q.History == "" {
		q.History = "unknown"
	}
	if q.Reliability == "" {
		q.Reliability = "reliable"
	}
	if q.Durability == "" {
		q.Durability = "volatile"
	}
	if q.Liveliness == "" {
		q.Liveliness = "automatic"
	}
	return q
}

// policy renders one policy either as its name (version >= 9) or as the rmw
// enum integer (older versions); an unknown name falls back to "unknown".
func policy(name string, codes map[string]int, version int) *yaml.Node {
	if version >= 9 {
		if _, ok := codes[name]; !ok {
			name = "unknown"
		}
		return strNode(name)
	}
	code, ok := codes[name]
	if !ok {
		code = codes["unknown"]
	}
	return intNode(int64(code))
}

// infiniteDuration is rmw's RMW_DURATION_INFINITE split the way rosbag2
// writes it: {sec: 9223372036, nsec: 854775807}.
func infiniteDuration() *yaml.Node {
	return mapping("sec", intNode(math.MaxInt64/1_000_000_000), "nsec", intNode(math.MaxInt64%1_000_000_000))
}

func (q QoS) node(version int) *yaml.Node {
	q = q.normalized()
	return mapping(
		"history", policy(q.History, historyCodes, version),
		"depth", intNode(int64(q.Depth)),
		"reliability", policy(q.Reliability, reliabilityCodes, version),
		"durability", policy(q.Durability, durabilityCodes, version),
		"deadline", infiniteDuration(),
		"lifespan", infiniteDuration(),
		"liveliness", policy(q.Liveliness, livelinessCodes, version),
		"liveliness_lease_duration", infiniteDuration(),
		"avoid_ros_namespace_conventions", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"},
	)
}

// qosString is the YAML text of a profile list as rosbag2 stores it in
// storage (sqlite topics.offered_qos_profiles, MCAP channel metadata) and
// in metadata.yaml before version 9: policy names for version >= 9,
// integers otherwise; no trailing newline.
func qosString(profiles []QoS, version int) string {
	if len(profiles) == 0 {
		return ""
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for _, q := range profiles {
		seq.Content = append(seq.Content, q.node(version))
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	// Encoding a node tree built here cannot fail.
	_ = enc.Encode(seq)
	_ = enc.Close()
	// yaml.v3 indents a top-level sequence's items by nothing and its
	// mapping keys by two, which is the shape rosbag2's emitter gives.
	return strings.TrimRight(b.String(), "\n")
}

// fileInfo is one files[] entry of metadata.yaml (version >= 5).
type fileInfo struct {
	path         string
	startNS      int64
	durationNS   int64
	messageCount uint64
}

// topicInfo is a topic as the bag-level metadata lists it.
type topicInfo struct {
	name, typ, format string
	qos               []QoS
	typeHash          string
	count             uint64
}

// bagMetadata is the information rosbag2's BagMetadata holds, enough to
// write metadata.yaml and the storage-embedded copies.
type bagMetadata struct {
	version           int
	storage           string
	startNS           int64 // math.MaxInt64 when empty, as rosbag2 initialises it
	durationNS        int64
	messageCount      uint64
	topics            []topicInfo
	compressionFormat string
	compressionMode   string
	relativePaths     []string
	files             []fileInfo
	rosDistro         string
}

// node renders the metadata in the key order rosbag2's C++ emitter uses
// (seen in Humble v5 and Jazzy v9 bags), with only the keys the version has.
func (m *bagMetadata) node() *yaml.Node {
	topics := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range m.topics {
		tm := mapping("name", strNode(t.name), "type", strNode(t.typ), "serialization_format", strNode(t.format))
		if m.version >= 9 {
			seq := &yaml.Node{Kind: yaml.SequenceNode}
			for _, q := range t.qos {
				seq.Content = append(seq.Content, q.node(m.version))
			}
			if len(t.qos) == 0 {
				seq.Style = yaml.FlowStyle
			}
			appendPair(tm, "offered_qos_profiles", seq)
		} else if m.version >= 4 {
			appendPair(tm, "offered_qos_profiles", quotedNode(qosString(t.qos, m.version)))
		}
		if m.version >= 7 {
			appendPair(tm, "type_description_hash", quotedNode(t.typeHash))
		}
		topics.Content = append(topics.Content, mapping("topic_metadata", tm, "message_count", uintNode(t.count)))
	}
	if len(m.topics) == 0 {
		topics.Style = yaml.FlowStyle
	}
	root := mapping(
		"version", intNode(int64(m.version)),
		"storage_identifier", strNode(m.storage),
		"duration", mapping("nanoseconds", intNode(m.durationNS)),
		"starting_time", mapping("nanoseconds_since_epoch", intNode(m.startNS)),
		"message_count", uintNode(m.messageCount),
		"topics_with_message_count", topics,
	)
	if m.version >= 3 {
		appendPair(root, "compression_format", quotedNode(m.compressionFormat))
		appendPair(root, "compression_mode", quotedNode(m.compressionMode))
	}
	paths := &yaml.Node{Kind: yaml.SequenceNode}
	for _, p := range m.relativePaths {
		paths.Content = append(paths.Content, strNode(p))
	}
	if len(m.relativePaths) == 0 {
		paths.Style = yaml.FlowStyle
	}
	appendPair(root, "relative_file_paths", paths)
	if m.version >= 5 {
		files := &yaml.Node{Kind: yaml.SequenceNode}
		for _, f := range m.files {
			files.Content = append(files.Content, mapping(
				"path", strNode(f.path),
				"starting_time", mapping("nanoseconds_since_epoch", intNode(f.startNS)),
				"duration", mapping("nanoseconds", intNode(f.durationNS)),
				"message_count", uintNode(f.messageCount),
			))
		}
		if len(m.files) == 0 {
			files.Style = yaml.FlowStyle
		}
		appendPair(root, "files", files)
	}
	if m.version >= 6 {
		appendPair(root, "custom_data", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "~"})
	}
	if m.version >= 8 {
		appendPair(root, "ros_distro", strNode(m.rosDistro))
	}
	return root
}

// yamlText renders the metadata, wrapped in rosbag2_bagfile_information
// (metadata.yaml) or bare (sqlite metadata table, MCAP Metadata record).
func (m *bagMetadata) yamlText(wrapped bool) ([]byte, error) {
	n := m.node()
	if wrapped {
		n = mapping("rosbag2_bagfile_information", n)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("bagwrite: encoding metadata: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("bagwrite: encoding metadata: %w", err)
	}
	return b.Bytes(), nil
}

func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		appendPair(n, kv[i].(string), kv[i+1].(*yaml.Node))
	}
	return n
}

func appendPair(m *yaml.Node, key string, value *yaml.Node) {
	m.Content = append(m.Content, strNode(key), value)
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if s == "" {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// quotedNode is a string rosbag2 always double-quotes (empty values, QoS
// text with escaped newlines).
func quotedNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

func intNode(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
}

func uintNode(v uint64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(v, 10)}
}
