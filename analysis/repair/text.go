package repair

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteText prints the plan for a person: the reference clock, the /clock
// fit, then each topic and link to repair, then those left and why.
func (p *Plan) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan for %s (sha256 %s)\n", p.Bag.Path, short(p.Bag.SHA256))
	if p.Damage != "" {
		fmt.Fprintf(&b, "  damaged input: %s; the repair covers what could be read\n", p.Damage)
	}
	fmt.Fprintf(&b, "  reference clock: %s: %s\n", clockName(p.Reference), p.ReferenceReason)
	if p.Clock != nil {
		fmt.Fprintf(&b, "  %s against record time: %d segments\n", p.ClockTopic, len(p.Clock.Segments))
		for i, s := range p.Clock.Segments {
			if i == 6 && len(p.Clock.Segments) > 7 {
				fmt.Fprintf(&b, "    ... and %d more\n", len(p.Clock.Segments)-6)
				break
			}
			fmt.Fprintf(&b, "    %d: %s, %d samples over %s, real-time factor %.3f, %d knots, residual rms %s, max %s\n",
				i+1, strings.ReplaceAll(s.StartsWith, "_", " "), s.Samples, fmtNS(s.LastRecordNS-s.FirstRecordNS), s.RealTimeFactor,
				len(s.Knots), fmtNS(s.ResidualRMSNS), fmtNS(s.ResidualMaxNS))
		}
	}
	groups := map[string][]*Entry{}
	for i := range p.Entries {
		e := &p.Entries[i]
		groups[e.Action] = append(groups[e.Action], e)
	}
	title := map[string]string{ActionMap: "Repair", ActionRefuse: "Refused (the bag cannot support a mapping)", ActionLeave: "Left as is"}
	for _, a := range []string{ActionMap, ActionRefuse, ActionLeave} {
		es := groups[a]
		if len(es) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", title[a])
		for _, e := range es {
			fmt.Fprintf(&b, "  %s  [%s, %s]\n", e.Subject(), e.Type, familyCounts(e.Stamps))
			if a == ActionMap {
				fmt.Fprintf(&b, "    on %s, wanted on %s\n", familyName(e.On), clockName(e.Want))
			}
			fmt.Fprintf(&b, "    %s\n", e.Reason)
			if m := e.Map; m != nil {
				if o := m.Offset; o != nil {
					fmt.Fprintf(&b, "    offset %s + %.2f ppm drift, from %d messages in %d windows, residual rms %s, max %s\n",
						fmtNS(o.OffsetNS), o.DriftPPM, o.Messages, o.Windows, fmtNS(o.ResidualRMSNS), fmtNS(o.ResidualMaxNS))
				}
				if m.Kind == MapSystemToSim || m.Kind == MapSimToSystem {
					fmt.Fprintf(&b, "    through the /clock fit (worst residual %s)\n", fmtNS(m.ClockResidualMaxNS))
				}
			}
			if e.Diagnosis != "" && a != ActionLeave {
				fmt.Fprintf(&b, "    analyze: %s\n", e.Diagnosis)
			}
		}
	}
	if !p.Repairs() {
		fmt.Fprintf(&b, "\nNothing to repair: no stamp would change.\n")
		if p.VerdictBefore != "" {
			fmt.Fprintf(&b, "analyze says: %s\n", p.VerdictBefore)
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func familyName(f string) string {
	switch f {
	case FamilySim:
		return "sim time"
	case FamilySystem:
		return "system time"
	case FamilyZero:
		return "stamps of 0"
	}
	return strings.ReplaceAll(f, "_", " ")
}

func familyCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k, n := range m {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], familyName(k))
	}
	if len(parts) == 0 {
		return "no stamps"
	}
	return strings.Join(parts, ", ")
}
