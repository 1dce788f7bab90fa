package bagread

import (
	"math"
	"testing"
)

// TestParseMetadataBare: metadata without the rosbag2_bagfile_information
// key is taken when it has any of version, storage_identifier or
// relative_file_paths; times past int64 are clamped.
func TestParseMetadataBare(t *testing.T) {
	for _, c := range []struct {
		text    string
		want    string // error, or "" for none
		version int
		storage string
		files   int
	}{
		{"version: 5", "", 5, "", 0},
		{"storage_identifier: mcap", "", 0, "mcap", 0},
		{"relative_file_paths: [a_0.mcap]", "", 0, "", 1},
		{"message_count: 3", "not rosbag2 metadata (no rosbag2_bagfile_information)", 0, "", 0},
		{"version: [", "not valid YAML (line 1: did not find expected node content)", 0, "", 0},
	} {
		md, err := ParseMetadata([]byte(c.text))
		if c.want != "" {
			if err == nil || err.Error() != c.want {
				t.Errorf("%q: error %v, want %q", c.text, err, c.want)
			}
			continue
		}
		if err != nil || md.Version != c.version || md.StorageIdentifier != c.storage || len(md.RelativeFilePaths) != c.files {
			t.Errorf("%q: %+v, %v", c.text, md, err)
		}
	}
	md, err := ParseMetadata([]byte("rosbag2_bagfile_information:\n  duration: {nanoseconds: 9223372036854775808}\n  starting_time: {nanoseconds_since_epoch: 9223372036854775807}\n"))
	if err != nil || md.DurationNS != math.MaxInt64 || md.StartingTimeNS != math.MaxInt64 {
		t.Errorf("clamped times: %+v, %v", md, err)
	}
}
