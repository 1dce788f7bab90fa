package bagread

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Every field is optional: rosbag2's own decoder throws on a missing key,
// bagread takes what is there (bag-formats.md §2.2).
type yamlRoot struct {
	Info *yamlInfo `yaml:"rosbag2_bagfile_information"`
}

type yamlInfo struct {
	Version           int        `yaml:"version"`
	StorageIdentifier string     `yaml:"storage_identifier"`
	RelativeFilePaths []string   `yaml:"relative_file_paths"`
	Duration          yamlNS     `yaml:"duration"`
	StartingTime      yamlNS     `yaml:"starting_time"`
	MessageCount      uint64     `yaml:"message_count"`
	Topics            []yamlTWMC `yaml:"topics_with_message_count"`
	CompressionFormat string     `yaml:"compression_format"`
	CompressionMode   string     `yaml:"compression_mode"`
	Files             []yamlFile `yaml:"files"`
	ROSDistro         string     `yaml:"ros_distro"`
}

// yamlNS holds both spellings of the nanosecond mappings; uint64 because
// the writer emits uint64 (and INT64_MAX for an empty bag).
type yamlNS struct {
	Nanoseconds           uint64 `yaml:"nanoseconds"`
	NanosecondsSinceEpoch uint64 `yaml:"nanoseconds_since_epoch"`
}

type yamlTWMC struct {
	TopicMetadata *yamlTopic `yaml:"topic_metadata"`
	TopicAndType  *yamlTopic `yaml:"topic_and_type"` // metadata v1
	MessageCount  uint64     `yaml:"message_count"`
}

type yamlTopic struct {
	Name                string    `yaml:"name"`
	Type                string    `yaml:"type"`
	SerializationFormat string    `yaml:"serialization_format"`
	OfferedQoSProfiles  yaml.Node `yaml:"offered_qos_profiles"`
	TypeDescriptionHash string    `yaml:"type_description_hash"`
}

type yamlFile struct {
	Path         string `yaml:"path"`
	StartingTime yamlNS `yaml:"starting_time"`
	Duration     yamlNS `yaml:"duration"`
	MessageCount uint64 `yaml:"message_count"`
}

// readMetadataFile parses a metadata.yaml; the error names the path.
func readMetadataFile(path string) (*Metadata, error) {
	data, err := readSmallFile(path, MaxMetadataBytes)
	if err != nil {
		return nil, err
	}
	md, err := ParseMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return md, nil
}

// ParseMetadata parses the text of a metadata.yaml (versions 1 to 9, with
// or without the rosbag2_bagfile_information wrapper key, which the sqlite
// metadata table and MCAP metadata records omit).
func ParseMetadata(data []byte) (*Metadata, error) {
	var root yamlRoot
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError{err}
	}
	info := root.Info
	if info == nil {
		var bare yamlInfo
		if err := yaml.Unmarshal(data, &bare); err != nil {
			return nil, yamlError{err}
		}
		if bare.Version == 0 && bare.StorageIdentifier == "" && len(bare.RelativeFilePaths) == 0 {
			return nil, errors.New("not rosbag2 metadata (no rosbag2_bagfile_information)")
		}
		info = &bare
	}
	md := &Metadata{
		Version:           info.Version,
		StorageIdentifier: info.StorageIdentifier,
		DurationNS:        clampNS(info.Duration.Nanoseconds),
		StartingTimeNS:    clampNS(info.StartingTime.NanosecondsSinceEpoch),
		MessageCount:      info.MessageCount,
		RelativeFilePaths: info.RelativeFilePaths,
		CompressionFormat: info.CompressionFormat,
		CompressionMode:   strings.ToUpper(info.CompressionMode),
		ROSDistro:         info.ROSDistro,
	}
	for _, f := range info.Files {
		md.Files = append(md.Files, MetadataFile{
			Path:           f.Path,
			StartingTimeNS: clampNS(f.StartingTime.NanosecondsSinceEpoch),
			DurationNS:     clampNS(f.Duration.Nanoseconds),
			MessageCount:   f.MessageCount,
		})
	}
	for _, tw := range info.Topics {
		t := tw.TopicMetadata
		if t == nil {
			t = tw.TopicAndType
		}
		if t == nil {
			continue
		}
		raw, profiles := qosFromNode(&t.OfferedQoSProfiles)
		md.Topics = append(md.Topics, MetadataTopic{
			Name: t.Name, Type: t.Type, SerializationFormat: t.SerializationFormat,
			OfferedQoS: raw, QoS: profiles, TypeDescriptionHash: t.TypeDescriptionHash,
			MessageCount: tw.MessageCount,
		})
	}
	return md, nil
}

func clampNS(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// yamlError says a metadata file is not valid YAML, where the YAML
// library says so, without the library's "yaml: " prefix.
type yamlError struct{ err error }

func (e yamlError) Error() string {
	return "not valid YAML (" + strings.TrimPrefix(e.err.Error(), "yaml: ") + ")"
}

func (e yamlError) Unwrap() error { return e.err }
