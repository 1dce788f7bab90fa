package analysis

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/bagread"
)

// Damage statuses, as `scan` reports them per bag.
const (
	// DamageOK: storage holds every message metadata.yaml counts (or there
	// is no metadata to say otherwise, and no file was cut).
	DamageOK = "ok"
	// DamageDamaged: files missing or cut, fewer messages than recorded, or
	// messages that could not be read.
	DamageDamaged = "damaged"
	// DamageUnreadable: the bag was recorded (or its files exist) but not
	// one message can be read.
	DamageUnreadable = "unreadable"
)

// Damage says how much of the recording the report rests on. It comes
// first: a diagnosis of 2 messages out of 251 is not a diagnosis of the bag.
type Damage struct {
	Status string `json:"status"`
	// Headline is the one line that leads the verdict when Status is not
	// ok ("partial bag: 2 of 251 messages present; 12 of 13 files missing").
	Headline string `json:"headline,omitempty"`
	// MessagesPresent is the number of messages in storage;
	// MessagesRecorded what metadata.yaml counts (-1: unknown).
	MessagesPresent  uint64 `json:"messages_present"`
	MessagesRecorded int64  `json:"messages_recorded"`
	// FilesListed is the number of storage files metadata.yaml lists;
	// FilesMissing those not on disk; FilesCut those read only in part.
	FilesListed  int      `json:"files_listed"`
	FilesMissing []string `json:"files_missing"`
	FilesCut     []string `json:"files_cut"`
	// TopicsShort: "topic: present of recorded" where storage holds fewer.
	TopicsShort []string `json:"topics_short"`
	// MetadataRebuilt: metadata.yaml was missing or unusable.
	MetadataRebuilt bool `json:"metadata_rebuilt"`
	// SkippedMessages could not be read or decoded (Report.Skipped).
	SkippedMessages int `json:"skipped_messages"`
	// Notes explain the status in plain words, most important first.
	Notes []string `json:"notes"`
}

// assessDamage fills rep.Damage from the bag's completeness and the
// analysis's skipped messages, removes restatements of a cut from
// rep.Bag.Problems, and adds a damaged bag's finding (damageWording puts
// the damage in front of the verdict).
func assessDamage(rep *Report, bag *bagread.Bag) {
	c := bag.Completeness()
	d := Damage{
		Status: DamageOK, MessagesPresent: c.Present, MessagesRecorded: c.Recorded,
		FilesListed: c.FilesListed, FilesMissing: nonNil(c.FilesMissing), FilesCut: []string{},
		TopicsShort: nonNil(c.TopicsShort), MetadataRebuilt: c.MetadataRebuilt,
		SkippedMessages: rep.Summary.Skipped, Notes: []string{},
	}
	var wal []string
	for _, f := range bag.Files {
		switch {
		case f.Recovery.WALOnly():
			wal = append(wal, fmt.Sprintf("%s (%s only in its -wal)", filepath.Base(f.Path), Plural(int(f.Recovery.WALMessages), "message")))
		case f.Recovery != nil:
			d.FilesCut = append(d.FilesCut, filepath.Base(f.Path))
		}
	}

	var parts []string
	if c.Recorded >= 0 && c.Present < uint64(c.Recorded) {
		parts = append(parts, fmt.Sprintf("%d of %d messages present", c.Present, c.Recorded))
	} else if len(d.FilesCut) > 0 && c.Present > 0 && c.Recorded < 0 {
		parts = append(parts, fmt.Sprintf("%s recovered (how many were recorded is unknown: no usable metadata.yaml)", Plural(int(c.Present), "message")))
	}
	if n := len(d.FilesMissing); n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d files missing", n, c.FilesListed))
	}
	if n := len(d.FilesCut); n > 0 {
		parts = append(parts, fmt.Sprintf("%s cut short", fileList(d.FilesCut)))
	}
	if d.SkippedMessages > 0 {
		parts = append(parts, fmt.Sprintf("%s could not be read", Plural(d.SkippedMessages, "message")))
	}
	// A file that opened whole but could not be read to its end (the
	// reader's problems for files without a recovery note).
	stopped := filesWithProblem(rep.Bag.Problems, bag.Files, ": stopped ", true)
	if len(stopped) > 0 {
		parts = append(parts, fmt.Sprintf("reading %s stopped before its end", fileList(stopped)))
	}
	// Parts of a file skipped while reading went on (a chunk over the
	// decode budget or with a bad CRC): their messages are counted as
	// skipped when the file's indexes say how many there were.
	skippedIn := filesWithProblem(rep.Bag.Problems, bag.Files, ": skipped at byte ", false)
	if len(skippedIn) > 0 {
		parts = append(parts, fmt.Sprintf("damaged parts of %s skipped", fileList(skippedIn)))
	}
	// Damage met while reading went on that skipped no whole part (a
	// record on an undeclared channel, the torn rest of a chunk, a CRC
	// found wrong after its messages were delivered).
	damagedIn := filesWithProblem(rep.Bag.Problems, bag.Files, ": damage at byte ", false)
	if len(damagedIn) > 0 {
		parts = append(parts, fmt.Sprintf("damage inside %s (reading went on)", fileList(damagedIn)))
	}
	partial := c.Partial() || len(stopped) > 0 || len(skippedIn) > 0
	switch {
	case c.Present == 0 && (partial || c.Recorded > 0):
		d.Status = DamageUnreadable
		d.Headline = "unreadable bag: no message can be read"
		if len(parts) > 0 {
			d.Headline += " (" + strings.Join(parts, "; ") + ")"
		}
	case partial || d.SkippedMessages > 0 || len(damagedIn) > 0:
		d.Status = DamageDamaged
		if partial {
			d.Headline = "partial bag: " + strings.Join(parts, "; ")
		} else {
			d.Headline = "damaged bag: " + strings.Join(parts, "; ")
		}
	}
	if d.Status != DamageOK {
		d.Notes = append(d.Notes, d.Headline+".")
		if len(d.FilesMissing) > 0 {
			d.Notes = append(d.Notes, "Missing: "+fileList(d.FilesMissing)+".")
		}
		shown := 0
		for _, f := range bag.Files {
			if f.Recovery != nil && !f.Recovery.WALOnly() && shown < 3 {
				d.Notes = append(d.Notes, fmt.Sprintf("%s: %s.", filepath.Base(f.Path), f.Recovery.Reason))
				shown++
			}
		}
		if len(d.TopicsShort) > 0 && len(d.TopicsShort) <= 8 {
			d.Notes = append(d.Notes, "Messages present of those recorded, per topic: "+strings.Join(d.TopicsShort, "; ")+".")
		}
	}
	if len(wal) > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("The recording was not closed cleanly: %s never checkpointed (read from a private copy, your files untouched). Every message sqlite committed is here; what the recorder still held in memory when it stopped is not, and nothing in the bag says how much that was.", fileList(wal)))
	}
	if c.MetadataRebuilt {
		why := c.MetadataProblem
		if why == "" {
			why = "missing or unusable"
		}
		switch {
		case d.Status != DamageOK:
			d.Notes = append(d.Notes, fmt.Sprintf("metadata.yaml was rebuilt from storage (%s).", why))
		case c.Recorded >= 0:
			d.Notes = append(d.Notes, fmt.Sprintf("metadata.yaml was rebuilt from storage (%s), but storage holds all %s it counts: the bag is complete.", why, Plural(int(c.Present), "message")))
		default:
			d.Notes = append(d.Notes, fmt.Sprintf("No usable metadata.yaml (%s): the bag was read from its storage files alone: %s, no file cut short, no gap in the split numbering.", why, Plural(int(c.Present), "message")))
		}
	}
	rep.Damage = &d

	// A cut file's recovery reason already says where reading stopped; the
	// reader's own note for that file counts only the analysed topics and
	// would read as a second, different total.
	kept := rep.Bag.Problems[:0]
	for _, p := range rep.Bag.Problems {
		dup := false
		for _, f := range bag.Files {
			if f.Recovery != nil && strings.HasPrefix(p, f.Path+": stopped ") {
				dup = true
			}
		}
		if !dup {
			kept = append(kept, p)
		}
	}
	rep.Bag.Problems = kept

	if d.Status == DamageDamaged {
		rep.Findings = append(rep.Findings, finding.Normalize(finding.Finding{Kind: finding.Damage, Detail: d.Status, Check: "damage", Severity: finding.Error,
			Confidence: finding.Confidence{Level: finding.High, Basis: strings.Join(d.Notes, " ")},
			Numbers: []finding.Number{finding.N("messages_present", float64(d.MessagesPresent), "messages"),
				finding.N("messages_recorded", float64(d.MessagesRecorded), "messages"), finding.N("skipped", float64(d.SkippedMessages), "messages")},
			Sentence: DamageLead(&d) + ".",
		}))
		finding.Sort(rep.Findings)
		rep.Summary.Findings = finding.Categories(rep.Findings)
	}
}

// DamageLead is a damaged or unreadable bag's headline as a sentence's start.
func DamageLead(d *Damage) string {
	return strings.ToUpper(d.Headline[:1]) + d.Headline[1:]
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// fileList names up to three files and counts the rest.
func fileList(files []string) string {
	if len(files) <= 3 {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:3], ", "), len(files)-3)
}

// Plural is "1 message", "2 messages".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// filesWithProblem names, once each and in problem order, the files that
// a reader's problem of the given kind ("PATH" + kind + …) is about; with
// unrecovered, only files Open found whole (no recovery note).
func filesWithProblem(problems []string, files []bagread.File, kind string, unrecovered bool) []string {
	var names []string
	for _, p := range problems {
		for _, f := range files {
			if unrecovered && f.Recovery != nil {
				continue
			}
			if strings.HasPrefix(p, f.Path+kind) && !contains(names, filepath.Base(f.Path)) {
				names = append(names, filepath.Base(f.Path))
			}
		}
	}
	return names
}
