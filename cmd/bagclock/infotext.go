package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/bagclock/bagclock/analysis/inventory"
)

// infoWidth is the widest line the default `info` layout prints, like
// `ros2 bag info` in a 100-column terminal.
const infoWidth = 100

// printInfo writes the default `info` layout: the bag's facts with human
// sizes and durations, a topic table (name, type, count, rate), a table of
// time ranges, then QoS, frames and problems, each line within infoWidth
// columns (a single word longer than that, such as a long path, keeps its
// own line).
func printInfo(w io.Writer, r *inventory.Report) {
	p := &infoPrinter{w: w}
	p.field("Bag", r.Path)
	storage := r.Storage
	if r.MetadataVersion > 0 {
		storage += fmt.Sprintf(" (metadata version %d", r.MetadataVersion)
		if r.ROSDistro != "" {
			storage += ", ros_distro " + r.ROSDistro
		}
		storage += ")"
	}
	p.field("Storage id", storage)
	if r.MetadataReconstructed {
		p.field("Metadata", "reconstructed from storage ("+r.MetadataProblem+")")
	}
	if r.CompressionFormat != "" || r.CompressionMode != "" {
		p.field("Compression", strings.TrimSpace(r.CompressionFormat+" "+r.CompressionMode))
	}
	for i, f := range r.Files {
		label := "Files"
		if i > 0 {
			label = ""
		}
		p.field(label, fmt.Sprintf("%s (%s, %s)", fileName(r.Path, f.Path), humanBytes(f.Size), plural(int64(f.MessageCount), "message")))
	}
	if len(r.Files) == 0 {
		p.field("Files", "none")
	}
	p.field("Bag size", humanBytes(r.SizeBytes))
	p.field("Messages", fmt.Sprintf("%d", r.Messages))
	if r.Messages == 0 {
		p.field("Duration", "0 s (empty bag)")
	} else {
		p.field("Duration", humanDuration(r.DurationNS))
		p.field("Start", stampText(r.StartNS))
		p.field("End", stampText(r.EndNS))
	}
	if r.Clock.Valid {
		p.field("/clock range", rangeText(r.Clock)+" s")
	}
	for _, rec := range r.Recovery {
		p.field("Recovered", rec)
	}
	if r.Undecodable > 0 {
		p.field("Undecodable", plural(int64(r.Undecodable), "message")+" (see per topic)")
	}

	p.line("")
	p.line(fmt.Sprintf("Topics (%d):", len(r.Topics)))
	head := []string{"TOPIC", "TYPE", "COUNT", "RATE"}
	right := []bool{false, false, true, true}
	if r.Undecodable > 0 {
		head = append(head, "UNDECODABLE")
		right = append(right, true)
	}
	var rows [][]string
	approx := false
	for _, t := range r.Topics {
		count := fmt.Sprintf("%d", t.Count)
		if t.MetadataCount >= 0 && uint64(t.MetadataCount) != t.Count {
			count += fmt.Sprintf(" (metadata says %d)", t.MetadataCount)
		}
		rate := "-"
		if t.Count > 1 && t.RateHz > 0 {
			rate = humanRate(t.RateHz)
			if t.RateApprox {
				rate, approx = "~"+rate, true
			}
		}
		row := []string{t.Name, t.Type, count, rate}
		if r.Undecodable > 0 {
			row = append(row, fmt.Sprintf("%d", t.Undecodable))
		}
		rows = append(rows, row)
	}
	p.table(head, right, rows)
	p.wrap("  ", "  ", "RATE: messages per second from a topic's first to its last record time (- under two messages).")
	if approx {
		p.wrap("  ", "  ", "~: all of the topic's messages share one record time; its count over the bag's duration.")
	}

	rows = nil
	for _, t := range r.Topics {
		if !t.RecordTime.Valid {
			// Still a row: an empty /scan is often the point.
			rows = append(rows, []string{t.Name, "no messages", "-"})
			continue
		}
		rec := fmt.Sprintf("%s .. %s", offsetText(t.RecordTime.MinNS-r.StartNS), offsetText(t.RecordTime.MaxNS-r.StartNS))
		hdr := "-"
		if t.Decoded {
			hdr = rangeText(t.HeaderStamp)
			if t.ZeroStamps > 0 {
				hdr += fmt.Sprintf(" (%d zero)", t.ZeroStamps)
			}
		}
		rows = append(rows, []string{t.Name, rec, hdr})
	}
	if len(rows) > 0 {
		p.line("")
		p.line("Time ranges (s):")
		p.table([]string{"TOPIC", "RECORDED (after start)", "HEADER STAMP"}, []bool{false, false, false}, rows)
	}

	p.line("")
	for _, t := range r.Topics {
		if len(t.QoS) > 0 {
			p.wrap("  ", "      ", fmt.Sprintf("QoS %s: %s", t.Name, qosText(t)))
		}
	}
	for _, t := range r.Topics {
		switch {
		case t.Stamped && len(t.Frames) > 0:
			p.wrap("  ", "      ", fmt.Sprintf("frames %s: %s", t.Name, framesText(t.Frames)))
		case isTF(t) && len(t.Frames) > 0:
			p.wrap("  ", "      ", fmt.Sprintf("links %s: %s", t.Name, framesText(t.Frames)))
			if t.MixedClocks {
				p.wrap("  ", "      ", linkStampsText(t))
			}
		case t.Role == "not_analysed":
			p.wrap("  ", "      ", fmt.Sprintf("not analysed %s: %s", t.Name, t.StampReason))
		}
	}
	for _, t := range r.Topics {
		if t.FirstError != "" {
			p.wrap("  ", "      ", fmt.Sprintf("first error on %s: %s", t.Name, t.FirstError))
		}
	}
}

// infoPrinter writes lines of at most infoWidth columns.
type infoPrinter struct{ w io.Writer }

func (p *infoPrinter) line(s string) { fmt.Fprintln(p.w, strings.TrimRight(s, " ")) }

// field prints "Label:   value" with the value in column 20, wrapped
// under itself.
func (p *infoPrinter) field(label, value string) {
	first := fmt.Sprintf("%-19s", "")
	if label != "" {
		first = fmt.Sprintf("%-19s", label+":")
	}
	p.wrap(first, strings.Repeat(" ", 19), value)
}

// wrap fills text after first (then rest) into infoWidth columns.
func (p *infoPrinter) wrap(first, rest, text string) {
	for _, l := range fill(text, first, rest, infoWidth) {
		p.line(l)
	}
}

// table prints rows under head in aligned columns (right-aligned where
// right says so), indented by two spaces. A table wider than infoWidth is
// printed stacked instead: each row's first cell on its own line and the
// others, labelled, on the lines below.
func (p *infoPrinter) table(head []string, right []bool, rows [][]string) {
	widths := make([]int, len(head))
	for _, row := range append([][]string{head}, rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	total := 2
	for _, w := range widths {
		total += w + 2
	}
	if total-2 <= infoWidth {
		for _, row := range append([][]string{head}, rows...) {
			var b strings.Builder
			b.WriteString("  ")
			for i, c := range row {
				pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
				if i > 0 {
					b.WriteString("  ")
				}
				if right[i] {
					b.WriteString(pad + c)
				} else {
					b.WriteString(c + pad)
				}
			}
			p.line(b.String())
		}
		return
	}
	for _, row := range rows {
		p.wrap("  ", "      ", row[0])
		var parts []string
		for i := 1; i < len(row); i++ {
			parts = append(parts, strings.ToLower(head[i])+" "+row[i])
		}
		p.wrap("      ", "      ", strings.Join(parts, ", "))
	}
}

// fileName shows a storage file relative to the bag it belongs to.
func fileName(bag, file string) string {
	if rel, err := filepath.Rel(bag, file); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
		return rel
	}
	return filepath.Base(file)
}

// humanBytes formats a size in binary units, as ros2 bag info does.
func humanBytes(n int64) string {
	if n < 1024 {
		return plural(n, "byte")
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	v := float64(n) / 1024
	u := 0
	// Bounds where rounding would print "1024.0 KiB" or "10.00 KiB".
	for v >= 1023.95 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v < 9.995 {
		return fmt.Sprintf("%.2f %s", v, units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// humanDuration gives seconds with milliseconds, and hours and minutes
// beside them from a minute on.
func humanDuration(ns int64) string {
	s := fmt.Sprintf("%.3f s", float64(ns)/1e9)
	if ns < 60e9 {
		return s
	}
	total := ns / 1e9
	h, m, sec := total/3600, total/60%60, total%60
	if h > 0 {
		return fmt.Sprintf("%s (%d h %d min %d s)", s, h, m, sec)
	}
	return fmt.Sprintf("%s (%d min %d s)", s, m, sec)
}

// humanRate gives a rate with three significant digits. The bounds sit
// where rounding crosses a power of ten: 99.96 Hz is "100 Hz", not
// "100.0 Hz", and 9.997 Hz "10.0 Hz", not "10.00 Hz".
func humanRate(hz float64) string {
	switch {
	case hz >= 99.95:
		return fmt.Sprintf("%.0f Hz", hz)
	case hz >= 9.995:
		return fmt.Sprintf("%.1f Hz", hz)
	case hz >= 0.00995:
		return fmt.Sprintf("%.2f Hz", hz)
	}
	return fmt.Sprintf("%.2g Hz", hz)
}

// isTF reports a TFMessage topic, whose frames are parent->child links.
func isTF(t inventory.Topic) bool { return t.Role == "tf" || t.Role == "tf_static" }

// offsetText formats nanoseconds after the bag's start as seconds with
// milliseconds.
func offsetText(ns int64) string { return fmt.Sprintf("%.3f", float64(ns)/1e9) }

func plural(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// qosText lists a topic's QoS profiles, each distinct one once with the
// number of publishers offering it.
func qosText(t inventory.Topic) string {
	var parts []string
	seen := map[string]int{}
	for _, q := range t.QoS {
		p := fmt.Sprintf("%s/%d %s %s %s", q.History, q.Depth, q.Reliability, q.Durability, q.Liveliness)
		if seen[p] == 0 {
			parts = append(parts, p)
		}
		seen[p]++
	}
	for i, p := range parts {
		if n := seen[p]; n > 1 {
			parts[i] = fmt.Sprintf("%s (x%d publishers)", p, n)
		}
	}
	return strings.Join(parts, "; ")
}

// framesText lists frame ids, an empty one as "".
// linkStampsText gives each link's stamp range of a tf topic whose links
// are on two clocks, where the topic's one HEADER STAMP range spans both.
func linkStampsText(t inventory.Topic) string {
	parts := make([]string, len(t.Links))
	for i, l := range t.Links {
		parts[i] = l.Link + " " + rangeText(l.Stamp)
	}
	return fmt.Sprintf("link stamps %s (on two clocks: sim time and system time): %s", t.Name, strings.Join(parts, "; "))
}

func framesText(frames []string) string {
	fs := make([]string, len(frames))
	for i, f := range frames {
		fs[i] = f
		if f == "" {
			fs[i] = `""`
		}
	}
	return strings.Join(fs, ", ")
}
