// Package finding is the typed result every bagclock check emits: what is
// wrong (Kind, the same names as --fail-on), how much it matters
// (Severity), how strong the evidence is and what would contradict it
// (Confidence), what it is about (Subjects), the measured numbers behind
// it (Numbers, with units) and one sentence for people.
//
// It imports no project package, so the checks (package analysis) and the
// verdict (analysis/verdict) can both use it without an import cycle.
package finding

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// Kind is a finding's category; its values are the --fail-on names.
type Kind string

// The kinds, in the order a report's summary lists them (Categories).
const (
	// Drop: an emulated consumer drops messages (start-up drops and
	// drops of frames never connected to their target left out).
	Drop Kind = "drop"
	// MissingLink: a sensor frame no transform connects to its target.
	MissingLink Kind = "missing-link"
	// ClockMismatch: a message and the transforms it needs (or a sensor
	// and /clock) are on different clocks.
	ClockMismatch Kind = "clock-mismatch"
	// Jump: /clock or the stamps jump.
	Jump Kind = "jump"
	// ZeroStamp: messages stamped 0.
	ZeroStamp Kind = "zero-stamp"
	// Skew: two machines' clocks apart on one clock family.
	Skew Kind = "skew"
	// TFTree: a fault of the tf tree itself (stale, conflicting, repeated
	// or backward transforms).
	TFTree Kind = "tf-tree"
	// ClockStep: a machine's system clock stepped (NTP, an operator).
	ClockStep Kind = "clock-step"
	// StuckZero: a topic whose stamps stay 0.
	StuckZero Kind = "stuck-zero"
	// WallTimer: a timer on wall time in a sim-time system.
	WallTimer Kind = "wall-timer"
	// Stale: messages older than the maximum age when recorded.
	Stale Kind = "stale"
	// Damage: the bag is incomplete or partly unreadable.
	Damage Kind = "damage"
	// Sync: a message_filters synchronizer over the bag's topics would
	// never fire, or leave most messages unused.
	Sync Kind = "sync"
)

// Kinds lists every kind in summary order.
func Kinds() []Kind {
	return []Kind{Drop, MissingLink, ClockMismatch, Jump, ZeroStamp, Skew, TFTree,
		ClockStep, StuckZero, WallTimer, Stale, Damage, Sync}
}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return kindOrder(k) < len(Kinds()) }

func kindOrder(k Kind) int {
	for i, x := range Kinds() {
		if x == k {
			return i
		}
	}
	return len(Kinds())
}

// Severity orders findings by how much they matter to the bag's user.
type Severity int

// Severities, least first. The zero value is invalid, so a finding built
// without one is caught by Validate.
const (
	// Info: worth knowing, no data lost (a remark of the check).
	Info Severity = iota + 1
	// Warning: some data is wrong or late, consumers mostly cope.
	Warning
	// Error: consumers drop or mis-place data because of it.
	Error
)

var severityNames = map[Severity]string{Info: "info", Warning: "warning", Error: "error"}

func (s Severity) String() string {
	if n, ok := severityNames[s]; ok {
		return n
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) {
	n, ok := severityNames[s]
	if !ok {
		return nil, fmt.Errorf("finding: invalid severity %d", int(s))
	}
	return []byte(n), nil
}

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	for v, n := range severityNames {
		if n == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("finding: unknown severity %q", b)
}

// Level is how strong the evidence of a finding is.
type Level int

// Levels, weakest first.
const (
	// Low: the data fits the finding and a benign look-alike as well.
	Low Level = iota + 1
	// Medium: the data fits the finding better than the look-alikes.
	Medium
	// High: no benign cause yields this data.
	High
)

var levelNames = map[Level]string{Low: "low", Medium: "medium", High: "high"}

func (l Level) String() string {
	if n, ok := levelNames[l]; ok {
		return n
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) {
	n, ok := levelNames[l]
	if !ok {
		return nil, fmt.Errorf("finding: invalid confidence level %d", int(l))
	}
	return []byte(n), nil
}

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	for v, n := range levelNames {
		if n == string(b) {
			*l = v
			return nil
		}
	}
	return fmt.Errorf("finding: unknown confidence level %q", b)
}

// Confidence says how strong a finding's evidence is, on what it rests and
// what observation would contradict it.
type Confidence struct {
	Level Level `json:"level"`
	// Basis names the evidence ("412 of 412 rows ~1.79e9 s ahead of tf").
	Basis string `json:"basis"`
	// Contradicts names what would prove the finding wrong, when
	// something could ("a topic of the same machine that did not step").
	Contradicts string `json:"contradicts,omitempty"`
}

// Subjects name what a finding is about. Links are "parent->child"
// (optionally " on /topic").
type Subjects struct {
	Topics []string `json:"topics"`
	Links  []string `json:"links"`
	Nodes  []string `json:"nodes"`
	Frames []string `json:"frames"`
}

// Number is one measured value with its unit ("s", "messages", "Hz",
// "ratio", ...).
type Number struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// MarshalJSON writes a value that is not finite as null: JSON has no NaN.
func (n Number) MarshalJSON() ([]byte, error) {
	type plain struct {
		Name  string   `json:"name"`
		Value *float64 `json:"value"`
		Unit  string   `json:"unit"`
	}
	p := plain{Name: n.Name, Unit: n.Unit}
	if !math.IsNaN(n.Value) && !math.IsInf(n.Value, 0) {
		p.Value = &n.Value
	}
	return json.Marshal(p)
}

// N is a Number.
func N(name string, value float64, unit string) Number {
	return Number{Name: name, Value: value, Unit: unit}
}

// Finding is one thing a check found.
type Finding struct {
	Kind Kind `json:"kind"`
	// Detail is the check's own finer name for it: a row class
	// (laser_on_system_clock), a tf-tree finding kind (clock_family), an
	// age kind (stale, ahead), ...
	Detail     string     `json:"detail,omitempty"`
	Severity   Severity   `json:"severity"`
	Confidence Confidence `json:"confidence"`
	Subjects   Subjects   `json:"subjects"`
	Numbers    []Number   `json:"numbers"`
	Sentence   string     `json:"sentence"`
	// Check names the check that emitted it (its file's name, "rows" for
	// the per-message rows).
	Check string `json:"check"`
}

// Validate reports a finding that is missing what every finding has.
func (f *Finding) Validate() error {
	switch {
	case !f.Kind.Valid():
		return fmt.Errorf("finding: unknown kind %q", f.Kind)
	case severityNames[f.Severity] == "":
		return fmt.Errorf("finding %s: invalid severity %d", f.Kind, int(f.Severity))
	case levelNames[f.Confidence.Level] == "":
		return fmt.Errorf("finding %s: invalid confidence level %d", f.Kind, int(f.Confidence.Level))
	case f.Confidence.Basis == "":
		return fmt.Errorf("finding %s: confidence without a basis", f.Kind)
	case f.Sentence == "":
		return fmt.Errorf("finding %s: no sentence", f.Kind)
	}
	return nil
}

// Number returns the value named name and whether the finding has it.
func (f *Finding) Number(name string) (float64, bool) {
	for _, n := range f.Numbers {
		if n.Name == name {
			return n.Value, true
		}
	}
	return 0, false
}

// Categories lists the kinds present in fs once each, in Kinds order: a
// report's summary.findings and what --fail-on compares.
func Categories(fs []Finding) []string {
	seen := map[Kind]bool{}
	for _, f := range fs {
		seen[f.Kind] = true
	}
	out := []string{}
	for _, k := range Kinds() {
		if seen[k] {
			out = append(out, string(k))
		}
	}
	return out
}

// Sort orders fs most important first: severity, then confidence, then
// kind in Kinds order; the order of emission breaks ties.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(&fs[i], &fs[j]) })
}

// Less reports whether a ranks before b in Sort.
func Less(a, b *Finding) bool {
	if a.Severity != b.Severity {
		return a.Severity > b.Severity
	}
	if a.Confidence.Level != b.Confidence.Level {
		return a.Confidence.Level > b.Confidence.Level
	}
	return kindOrder(a.Kind) < kindOrder(b.Kind)
}

// Normalize returns f with nil lists made empty, so JSON shows [] rather
// than null.
func Normalize(f Finding) Finding {
	if f.Subjects.Topics == nil {
		f.Subjects.Topics = []string{}
	}
	if f.Subjects.Links == nil {
		f.Subjects.Links = []string{}
	}
	if f.Subjects.Nodes == nil {
		f.Subjects.Nodes = []string{}
	}
	if f.Subjects.Frames == nil {
		f.Subjects.Frames = []string{}
	}
	if f.Numbers == nil {
		f.Numbers = []Number{}
	}
	return f
}
