package verdict

import "github.com/bagclock/bagclock/analysis"

// damageWording puts the report's damage in front of v: the notes of a
// complete bag as evidence; a damaged bag's headline before the sentence,
// an unreadable one's instead of it.
func damageWording(v *draft, rep *analysis.Report) {
	d := rep.Damage
	if d == nil {
		return
	}
	if d.Status == analysis.DamageOK {
		v.Evidence = append(v.Evidence, d.Notes...)
		return
	}
	lead := analysis.DamageLead(d)
	switch d.Status {
	case analysis.DamageUnreadable:
		v.head = whole(lead + ": there is nothing to analyse.")
	default:
		v.head.prepend(lead + ". What follows rests on what is present: ")
	}
	v.Evidence = append(append([]string{}, d.Notes[1:]...), v.Evidence...)
}
