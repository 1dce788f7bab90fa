package bagcopy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// metadataKey is the top-level key of rosbag2's metadata.yaml.
const metadataKey = "rosbag2_bagfile_information"

// inputMetadata returns the input's metadata.yaml as a mapping node (the
// value of rosbag2_bagfile_information), or nil when it has none that
// parses.
func (w *Writer) inputMetadata() *yaml.Node {
	st, err := os.Stat(w.in.Path)
	if err != nil || !st.IsDir() || w.in.MetadataReconstructed {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(w.in.Path, "metadata.yaml"))
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	if v := lookup(doc.Content[0], metadataKey); v != nil && v.Kind == yaml.MappingNode {
		return v
	}
	return nil
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// set replaces key's value in mapping m, or appends the pair.
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}
func num(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
}
func unum(v uint64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(v, 10)}
}
func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

// metadataNode is the output's BagMetadata: the input's, with what the
// copy changed (storage, files, counts, times, compression) replaced and
// custom_data extended.
func (w *Writer) metadataNode() (*yaml.Node, int) {
	m := w.inputMetadata()
	if m == nil {
		m = mapping("version", num(5))
	}
	version := 5
	if v := lookup(m, "version"); v != nil {
		if n, err := strconv.Atoi(v.Value); err == nil {
			version = n
		}
	}
	var start, end int64
	var total uint64
	first := true
	paths := &yaml.Node{Kind: yaml.SequenceNode}
	files := &yaml.Node{Kind: yaml.SequenceNode}
	for _, s := range w.stats {
		paths.Content = append(paths.Content, str(s.name))
		files.Content = append(files.Content, mapping("path", str(s.name),
			"starting_time", mapping("nanoseconds_since_epoch", num(s.startNS)),
			"duration", mapping("nanoseconds", num(s.endNS-s.startNS)),
			"message_count", unum(s.count)))
		if s.count == 0 {
			continue
		}
		if first || s.startNS < start {
			start = s.startNS
		}
		if first || s.endNS > end {
			end = s.endNS
		}
		first = false
		total += s.count
	}
	set(m, "storage_identifier", str(w.opts.Storage))
	set(m, "duration", mapping("nanoseconds", num(end-start)))
	set(m, "starting_time", mapping("nanoseconds_since_epoch", num(start)))
	set(m, "message_count", unum(total))
	set(m, "topics_with_message_count", w.topicsNode(lookup(m, "topics_with_message_count")))
	set(m, "compression_format", quoted(""))
	set(m, "compression_mode", quoted(""))
	set(m, "relative_file_paths", paths)
	set(m, "files", files)
	cd := lookup(m, "custom_data")
	if cd == nil || cd.Kind != yaml.MappingNode {
		cd = &yaml.Node{Kind: yaml.MappingNode}
	}
	keys := make([]string, 0, len(w.opts.CustomData))
	for k := range w.opts.CustomData {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set(cd, k, quoted(w.opts.CustomData[k]))
	}
	if len(cd.Content) > 0 {
		set(m, "custom_data", cd)
	}
	return m, version
}

// topicsNode keeps the input's topic entries (QoS as written) with the
// counts of the copy, and adds topics it did not list.
func (w *Writer) topicsNode(old *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.SequenceNode}
	seen := map[string]bool{}
	if old != nil && old.Kind == yaml.SequenceNode {
		for _, e := range old.Content {
			tm := lookup(e, "topic_metadata")
			name := lookup(tm, "name")
			if name == nil || seen[name.Value] || w.in.Topic(name.Value) == nil {
				continue
			}
			seen[name.Value] = true
			set(e, "message_count", unum(w.topicCounts[name.Value]))
			out.Content = append(out.Content, e)
		}
	}
	for _, t := range w.in.Topics {
		if seen[t.Name] {
			continue
		}
		format := t.SerializationFormat
		if format == "" {
			format = "cdr"
		}
		tm := mapping("name", str(t.Name), "type", str(t.Type), "serialization_format", str(format),
			"offered_qos_profiles", quoted(t.OfferedQoS), "type_description_hash", quoted(t.TypeDescriptionHash))
		out.Content = append(out.Content, mapping("topic_metadata", tm, "message_count", unum(w.topicCounts[t.Name])))
	}
	return out
}

func yamlText(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// finishMetadata stores the metadata in each db3 file and writes
// metadata.yaml.
func (w *Writer) finishMetadata() error {
	m, version := w.metadataNode()
	bare, err := yamlText(m)
	if err != nil {
		return err
	}
	for i, f := range w.files {
		if s, ok := f.(*sqliteFile); ok {
			if err := s.setMetadata(version, bare); err != nil {
				return fmt.Errorf("metadata row of %s: %w", w.stats[i].name, err)
			}
		}
	}
	text, err := yamlText(mapping(metadataKey, m))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(w.dir, "metadata.yaml"), text, 0o644)
}
