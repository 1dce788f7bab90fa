package repair

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bagclock/bagclock/bagread"
)

// HashBag identifies the bag's storage files by name, size and sha256;
// the bag's hash is the sha256 of those lines, so a plan made for it is
// refused on any other bag or on this one changed.
func HashBag(bag *bagread.Bag) (BagRef, error) {
	ref := BagRef{Path: bag.Path, Storage: bag.Storage}
	all := sha256.New()
	for _, f := range bag.Files {
		h := sha256.New()
		fh, err := os.Open(f.Path)
		if err != nil {
			return ref, fmt.Errorf("hashing %s: %w", f.Path, err)
		}
		n, err := io.Copy(h, fh)
		fh.Close()
		if err != nil {
			return ref, fmt.Errorf("hashing %s: %w", f.Path, err)
		}
		fr := FileRef{Name: filepath.Base(f.Path), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
		ref.Files = append(ref.Files, fr)
		fmt.Fprintf(all, "%s %d %s\n", fr.Name, fr.Size, fr.SHA256)
	}
	ref.SHA256 = hex.EncodeToString(all.Sum(nil))
	return ref, nil
}

// JSON is the plan as written by --plan: indented, one trailing newline.
func (p *Plan) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Hash is the sha256 of the plan's JSON: the provenance written into the
// repaired bag's metadata.
func (p *Plan) Hash() string {
	b, err := p.JSON()
	if err != nil {
		return ""
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Load reads a plan written by --plan (and maybe edited), checking its
// version and that every entry's action and mapping make sense.
func Load(r io.Reader) (*Plan, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	if p.PlanVersion != PlanVersion {
		return nil, fmt.Errorf("plan: plan_version %d, want %d", p.PlanVersion, PlanVersion)
	}
	if p.Reference != ClockSim && p.Reference != ClockSystem {
		return nil, fmt.Errorf("plan: reference_clock %q, want sim or system", p.Reference)
	}
	if p.Reference == ClockSim && (p.Clock == nil || len(p.Clock.Segments) == 0) {
		return nil, errors.New("plan: reference_clock sim needs the clock fit")
	}
	if p.Clock != nil {
		for i, s := range p.Clock.Segments {
			if len(s.Knots) == 0 {
				return nil, fmt.Errorf("plan: clock segment %d has no knots", i)
			}
			for k := 1; k < len(s.Knots); k++ {
				if s.Knots[k].RecordNS <= s.Knots[k-1].RecordNS {
					return nil, fmt.Errorf("plan: clock segment %d: knots not in record-time order at %d", i, k)
				}
			}
			if i > 0 && s.FirstRecordNS < p.Clock.Segments[i-1].FirstRecordNS {
				return nil, fmt.Errorf("plan: clock segment %d starts before segment %d", i, i-1)
			}
		}
	}
	for i := range p.Entries {
		e := &p.Entries[i]
		bad := func(msg string) error {
			return fmt.Errorf("plan: entry %d (%s): %s", i, e.Subject(), msg)
		}
		switch e.Action {
		case ActionLeave, ActionRefuse:
			continue
		case ActionMap:
		default:
			return nil, bad(fmt.Sprintf("action %q, want map, leave or refuse", e.Action))
		}
		if e.Map == nil && e.Zero == nil {
			return nil, bad("action map without map or zero")
		}
		if e.Static {
			return nil, bad("static transforms are not mapped")
		}
		if m := e.Map; m != nil {
			switch {
			case m.Kind != MapSystemToSim && m.Kind != MapSimToSystem && m.Kind != MapOffset:
				return nil, bad(fmt.Sprintf("map kind %q, want %s, %s or %s", m.Kind, MapSystemToSim, MapSimToSystem, MapOffset))
			case m.Kind == MapSystemToSim && p.Reference != ClockSim:
				return nil, bad("system_to_sim needs reference_clock sim")
			case m.Kind == MapSimToSystem && (p.Reference != ClockSystem || p.Clock == nil || len(p.Clock.Segments) == 0):
				return nil, bad("sim_to_system needs reference_clock system and the clock fit")
			case m.Kind == MapOffset && m.Offset == nil:
				return nil, bad("map kind offset without offset")
			case m.From != FamilySystem && m.From != FamilySim:
				return nil, bad(fmt.Sprintf("map from %q, want system or sim", m.From))
			}
		}
		if z := e.Zero; z != nil && (z.LatencyNS < 0 || z.LatencyNS > 60_000_000_000) {
			return nil, bad(fmt.Sprintf("zero latency_ns %d: want 0 to 60 s", z.LatencyNS))
		}
	}
	return &p, nil
}

// CheckBag refuses a plan made for another bag, or for this one before it
// changed, or naming topics and links the bag does not have (s is the
// bag's sampling pass).
func (p *Plan) CheckBag(ref BagRef, s *Samples) error {
	if p.Bag.SHA256 != ref.SHA256 {
		var diff []string
		for i, f := range ref.Files {
			if i >= len(p.Bag.Files) || p.Bag.Files[i] != f {
				diff = append(diff, f.Name)
			}
		}
		return fmt.Errorf("the plan is for another bag or for this one before it changed: plan sha256 %s, bag %s (files that differ: %s); make a new plan with --plan",
			short(p.Bag.SHA256), short(ref.SHA256), strings.Join(diff, ", "))
	}
	var missing []string
	for _, e := range p.Entries {
		if _, ok := s.byKey[e.Subject()]; !ok {
			missing = append(missing, e.Subject().String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the plan names %d topics or links the bag does not have: %s", len(missing), strings.Join(clipList(missing, 8), ", "))
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func clipList(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string(nil), s[:n]...), fmt.Sprintf("and %d more", len(s)-n))
}

// Equal reports whether two plans have the same JSON.
func Equal(a, b *Plan) bool {
	x, err1 := a.JSON()
	y, err2 := b.JSON()
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
