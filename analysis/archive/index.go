package archive

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// Shard selects a deterministic part of the discovered bags: Index of
// Count (1-based). The zero value selects everything.
type Shard struct {
	Index, Count int
}

// ParseShard parses "I/N" with 1 <= I <= N.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 1/3", s)
	}
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || cnt < 1 || idx < 1 || idx > cnt {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 1 <= I <= N", s)
	}
	return Shard{Index: idx, Count: cnt}, nil
}

// String returns "I/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Contains reports whether the bag with relative path rel belongs to s.
// The choice depends only on rel, so a bag stays in its shard when the
// archive grows and wherever the archive is mounted.
func (s Shard) Contains(rel string) bool {
	if s.Count <= 1 {
		return true
	}
	return ShardOf(rel, s.Count) == s.Index
}

// ShardOf returns the 1-based shard of n that rel falls in: the first 8
// bytes of SHA-256 of rel, modulo n.
func ShardOf(rel string, n int) int {
	if n <= 1 {
		return 1
	}
	h := sha256.Sum256([]byte(rel))
	return int(binary.BigEndian.Uint64(h[:8])%uint64(n)) + 1
}

// maxNameBytes bounds the readable part of a report name, so names stay
// well under file-system limits (255 bytes) with the hash and extension.
const maxNameBytes = 80

// ReportName is the base name (without extension) of a bag's report files:
// the relative path made safe (letters, digits, '.', '_' and '-' only; '/'
// becomes "__") and cut to a bounded length, then '-' and 8 hex digits of
// SHA-256 of the bag's full path. It never contains a separator, never
// starts with a dot, and distinct paths get distinct names.
func ReportName(rel, path string) string {
	var b strings.Builder
	for _, r := range rel {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		case r == '/' || r == '\\':
			b.WriteString("__")
		default:
			b.WriteByte('_')
		}
	}
	name := strings.TrimLeft(b.String(), "._-")
	if len(name) > maxNameBytes {
		name = name[len(name)-maxNameBytes:] // the tail names the bag best
		name = strings.TrimLeft(name, "._-")
	}
	if name == "" {
		name = "bag"
	}
	h := sha256.Sum256([]byte(path))
	return name + "-" + hex.EncodeToString(h[:4])
}

// ConfigKey identifies the analysis settings and the bagclock version, so
// that a row analysed with other settings is not reused.
func ConfigKey(cfg analysis.Config, version string) string {
	s := fmt.Sprintf("v=%s|topics=%q|targets=%q|consumer=%q|q=%d,%v|tol=%g,%v|cache=%g,%v|jf=%d|jb=%d|rclpy=%v",
		version, cfg.ScanTopics, cfg.TargetFrames, cfg.Consumer,
		cfg.QueueSize, cfg.SetQueueSize, cfg.ToleranceS, cfg.SetTolerance, cfg.CacheTimeS, cfg.SetCacheTime,
		cfg.JumpMinForwardNS, cfg.JumpMinBackwardNS, cfg.RclpyBuffer)
	if cfg.MaxAgeNS > 0 && cfg.MaxAgeNS != analysis.DefaultMaxAgeNS {
		s += fmt.Sprintf("|maxage=%d", cfg.MaxAgeNS)
	}
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:6])
}

// Stat is what identifies a bag's content cheaply.
type Stat struct {
	SizeBytes int64
	ModTimeNS int64
}

// Reusable reports whether old still stands for a bag whose files now
// have st, under the settings configKey: same settings, no error, same
// size and mtime, and the same fingerprint. fingerprint is only called
// when everything cheaper matched; its value is returned so the caller
// need not compute it twice ("" when it was not called or failed).
// Error rows are never reused: a permission fixed since leaves size and
// mtime as they were.
func Reusable(old *Row, st Stat, configKey string, fingerprint func() (string, error)) (bool, string) {
	if old == nil || old.Status == StatusError || old.Status == StatusNotAnalysed || old.Fingerprint == "" ||
		old.ConfigKey != configKey || old.SizeBytes != st.SizeBytes || old.ModTimeNS != st.ModTimeNS {
		return false, ""
	}
	fp, err := fingerprint()
	if err != nil {
		return false, ""
	}
	return fp == old.Fingerprint, fp
}

// ParseIndex reads index.jsonl: one Row per line, in the order written.
// A line that does not parse (torn by a crash mid-write) is skipped and
// counted in bad; only a read error fails.
func ParseIndex(r io.Reader) (rows []Row, bad int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, rerr := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var row Row
			if json.Unmarshal(line, &row) == nil && row.Path != "" {
				if row.Format == "" {
					row.Format = FormatOf(row.Storage) // a row written before the column
				}
				rows = append(rows, row)
			} else {
				bad++
			}
		}
		if errors.Is(rerr, io.EOF) {
			return rows, bad, nil
		}
		if rerr != nil {
			return rows, bad, fmt.Errorf("read index: %w", rerr)
		}
	}
}

// Latest reduces rows of an append-only index to the last row per path.
func Latest(rows []Row) map[string]Row {
	m := make(map[string]Row, len(rows))
	for _, r := range rows {
		m[r.Path] = r
	}
	return m
}

// Scope is what one run looked at: its roots (absolute) and the bags it
// discovered there (paths, after shard selection).
type Scope struct {
	Roots      []string
	Discovered map[string]bool
}

// covers reports whether path lies under one of the roots.
func (s Scope) covers(path string) bool {
	for _, root := range s.Roots {
		if path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/") {
			return true
		}
	}
	return false
}

// Compose builds the index after a run, sorted by path: the fresh rows of
// this run; earlier rows of bags this run discovered but did not finish
// (an interrupted run keeps them for the next); earlier rows from outside
// the run's roots (another archive written to the same directory). Earlier
// rows of bags under the roots that were not discovered now (deleted, or
// in another shard) are dropped.
func Compose(old, fresh map[string]Row, scope Scope) []Row {
	out := make([]Row, 0, len(old)+len(fresh))
	for _, r := range fresh {
		out = append(out, r)
	}
	for p, r := range old {
		if _, done := fresh[p]; done {
			continue
		}
		if scope.Discovered[p] || !scope.covers(p) {
			out = append(out, r)
		}
	}
	SortRows(out)
	return out
}

// SortRows orders rows by path, the order of every index file.
func SortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
}

// Conflict is a bag present in more than one merged index with different
// rows.
type Conflict struct {
	Path   string
	Chosen int // index of the input whose row was kept
	Inputs []int
}

// Merge combines indexes (each already reduced to one row per path, e.g.
// from shards) into one sorted index. A path in several inputs with equal
// rows is kept once; with different rows the choice is deterministic: an
// analysed row over an error row over a not-analysed one (an interrupted
// shard), then the newer mtime, then the earlier input. Such paths are returned as conflicts.
func Merge(indexes ...[]Row) ([]Row, []Conflict) {
	type pick struct {
		row    Row
		from   int
		inputs []int
		differ bool
	}
	picks := map[string]*pick{}
	for i, rows := range indexes {
		for _, r := range rows {
			p, ok := picks[r.Path]
			if !ok {
				picks[r.Path] = &pick{row: r, from: i, inputs: []int{i}}
				continue
			}
			p.inputs = append(p.inputs, i)
			if sameRow(p.row, r) {
				continue
			}
			p.differ = true
			if better(r, p.row) {
				p.row, p.from = r, i
			}
		}
	}
	out := make([]Row, 0, len(picks))
	var conflicts []Conflict
	for _, p := range picks {
		out = append(out, p.row)
		if p.differ {
			conflicts = append(conflicts, Conflict{Path: p.row.Path, Chosen: p.from, Inputs: p.inputs})
		}
	}
	SortRows(out)
	sort.Slice(conflicts, func(i, j int) bool { return conflicts[i].Path < conflicts[j].Path })
	return out, conflicts
}

func better(a, b Row) bool {
	if ra, rb := statusRank(a.Status), statusRank(b.Status); ra != rb {
		return ra > rb
	}
	return a.ModTimeNS > b.ModTimeNS
}

// statusRank orders rows for Merge: analysed over error over not analysed.
func statusRank(status string) int {
	switch status {
	case StatusNotAnalysed:
		return 0
	case StatusError:
		return 1
	}
	return 2
}

func sameRow(a, b Row) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
