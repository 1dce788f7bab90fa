package bagread

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Completeness compares what metadata.yaml says was recorded with what the
// storage holds. It is computed from Open's results, without I/O beyond
// checking that the listed files exist.
type Completeness struct {
	// FilesListed is the number of storage files metadata.yaml lists (0
	// without usable metadata); FilesMissing those not found on disk.
	FilesListed  int
	FilesMissing []string
	// FilesCut names the storage files read only in part (File.Recovery,
	// but not a leftover -wal read whole).
	FilesCut []string
	// Recorded is metadata.yaml's message_count, -1 when unknown (no usable
	// metadata); Present is the number of messages in storage.
	Recorded int64
	Present  uint64
	// TopicsShort lists "name: present of recorded" for topics with fewer
	// messages in storage than metadata.yaml counts.
	TopicsShort []string
	// MetadataRebuilt is Bag.MetadataReconstructed; MetadataProblem why.
	MetadataRebuilt bool
	MetadataProblem string
}

// Partial reports whether messages that were recorded are not in storage or
// could not be read whole: files missing or cut, or fewer messages in
// storage than metadata.yaml counts.
func (c Completeness) Partial() bool {
	return len(c.FilesMissing) > 0 || len(c.FilesCut) > 0 || len(c.TopicsShort) > 0 ||
		(c.Recorded >= 0 && c.Present < uint64(c.Recorded))
}

// Completeness compares metadata.yaml's file list and counts with storage.
func (b *Bag) Completeness() Completeness {
	c := Completeness{Recorded: -1, Present: b.MessageCount, MetadataRebuilt: b.MetadataReconstructed, MetadataProblem: b.MetadataProblem}
	for _, f := range b.Files {
		if f.Recovery != nil && !f.Recovery.WALOnly() {
			c.FilesCut = append(c.FilesCut, f.Path)
		}
	}
	md := b.Metadata
	if md == nil || b.MetadataReconstructed {
		c.FilesMissing = append(c.FilesMissing, splitGaps(b.Files)...)
	}
	if md == nil {
		return c
	}
	if len(md.RelativeFilePaths) > 0 && (b.sourced || isBagDir(b.Path)) && !b.MetadataReconstructed {
		c.FilesListed = len(md.RelativeFilePaths)
		for _, rel := range md.RelativeFilePaths {
			if b.sourced && !b.hasSource(rel) || !b.sourced && resolveListed(b.Path, rel, md.Version) == "" {
				c.FilesMissing = append(c.FilesMissing, rel)
			}
		}
	}
	// metadata.yaml that lists nothing that exists was not used (the bag
	// was rebuilt from storage); its counts still say what was recorded.
	c.Recorded = int64(md.MessageCount)
	for _, t := range b.Topics {
		if t.MetadataCount > int64(t.MessageCount) {
			c.TopicsShort = append(c.TopicsShort, fmt.Sprintf("%s: %d of %d", t.Name, t.MessageCount, t.MetadataCount))
		}
	}
	return c
}

// hasSource reports whether a file metadata.yaml lists is among the
// sources of an OpenSources bag (by base name, with or without .zstd).
func (b *Bag) hasSource(rel string) bool {
	base := strings.TrimSuffix(path.Base(filepath.ToSlash(rel)), ".zstd")
	for _, f := range b.Files {
		if strings.TrimSuffix(path.Base(f.Path), ".zstd") == base {
			return true
		}
	}
	return false
}

func isBagDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// splitGaps names the split files missing from a run of rosbag2 split
// names (name_0.db3, name_2.db3: name_1.db3 is missing), for bags read
// without metadata.yaml. Files not named that way say nothing.
func splitGaps(files []File) []string {
	var prefix, ext string
	have := map[int]bool{}
	hi := -1
	for _, f := range files {
		m := splitName.FindStringSubmatch(filepath.Base(f.Path))
		if m == nil {
			return nil
		}
		if prefix == "" {
			prefix, ext = m[1], m[3]+m[4]
		} else if m[1] != prefix || m[3]+m[4] != ext {
			return nil
		}
		n, err := strconv.Atoi(m[2])
		if err != nil || n > 100000 {
			return nil
		}
		have[n] = true
		if n > hi {
			hi = n
		}
	}
	var gaps []string
	for i := 0; i <= hi; i++ {
		if !have[i] {
			gaps = append(gaps, fmt.Sprintf("%s_%d.%s", prefix, i, ext))
		}
	}
	return gaps
}
