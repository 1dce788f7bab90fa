package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bagclock/bagclock/analysis/repair"
	"github.com/bagclock/bagclock/bagcopy"
	"github.com/bagclock/bagclock/bagread"
	"github.com/schollz/progressbar/v3"
)

// fixResult counts what the write pass did.
type fixResult struct {
	read, written, skipped int
	// undecodable messages of a repaired topic are written unchanged.
	undecodable         int
	mapped, synthesized int
	counts              []repair.EntryCounts
}

// writeFixed copies bag into o.out with the plan's stamps patched: into a
// temporary directory beside o.out, renamed when complete.
// bagRef gives the input's identity, waited for before the copy's
// metadata is written (the plan's hash covers it).
func writeFixed(e *env, bag *bagread.Bag, plan *repair.Plan, o *fixOptions, bagRef func() (repair.BagRef, error)) (*fixResult, error) {
	out := filepath.Clean(o.out)
	tmp := filepath.Join(filepath.Dir(out), fmt.Sprintf(".%s.fix-tmp-%d", filepath.Base(out), os.Getpid()))
	custom := map[string]string{
		"bagclock.fix.version":   version,
		"bagclock.fix.reference": plan.Reference,
	}
	if plan.Damage != "" {
		// The copy holds what could be read of a damaged input.
		custom["bagclock.fix.input_damage"] = plan.Damage
	}
	var synth []string
	for _, en := range plan.Entries {
		if en.Action == repair.ActionMap && en.Zero != nil {
			if en.Zero.PairedTopic != "" {
				synth = append(synth, fmt.Sprintf("%s (stamp of the paired %s message, else latency %d ns from %s)", en.Subject(), en.Zero.PairedTopic, en.Zero.LatencyNS, en.Zero.LatencyFrom))
			} else {
				synth = append(synth, fmt.Sprintf("%s (latency %d ns from %s)", en.Subject(), en.Zero.LatencyNS, en.Zero.LatencyFrom))
			}
		}
	}
	if len(synth) > 0 {
		custom["bagclock.fix.synthesized_stamps"] = fmt.Sprint(synth)
	}
	w, err := bagcopy.Create(tmp, bag, bagcopy.Options{Storage: o.storage, Compression: o.compression,
		CustomData: custom, Library: "bagclock " + version})
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			w.Abort()
		}
	}()
	res := &fixResult{}
	p := repair.NewPatcher(plan)
	p.OpenDonors(bag)
	defer p.Close()
	var bar *progressbar.ProgressBar
	if e.isTerminal && !o.quiet {
		bar = progressbar.NewOptions64(int64(max(bag.MessageCount, 1)),
			progressbar.OptionSetWriter(e.stderr), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(), progressbar.OptionSetDescription("fix: writing"))
	}
	it := bag.Messages(bagread.ReadOptions{Order: bagread.TimeOrder})
	defer it.Close()
	var buf []byte
	for it.Next() {
		m := it.Message()
		res.read++
		if bar != nil && res.read%1024 == 0 {
			_ = bar.Set64(int64(res.read))
		}
		if m.Err != nil {
			res.skipped++
			continue
		}
		data := m.Data
		if p.Touches(m.Topic) {
			out, err := p.Patch(m.Topic, m.Data, m.LogTimeNS, buf)
			if err != nil {
				// Written as it was (the analysis skips it as it did).
				res.undecodable++
			} else {
				data = out
				if len(out) > 0 && len(m.Data) > 0 && &out[0] != &m.Data[0] {
					buf = out
				}
			}
		}
		logNS := m.LogTimeNS
		if o.recordTime {
			if v, ok := plan.Clock.SimAt(logNS); ok {
				logNS = v
			}
		}
		if err := w.Write(m, data, logNS); err != nil {
			return nil, err
		}
		res.written++
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", bag.Path, err)
	}
	if bar != nil {
		_ = bar.Finish()
	}
	ref, err := bagRef()
	if err != nil {
		return nil, err
	}
	if plan.Bag.SHA256 == "" {
		plan.Bag = ref // a plan made now; an applied plan names the bag itself
	}
	w.SetCustomData("bagclock.fix.plan_sha256", plan.Hash())
	w.SetCustomData("bagclock.fix.input", ref.SHA256)
	if err := w.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, fmt.Errorf("renaming %s to %s: %w", tmp, out, err)
	}
	committed = true
	res.counts = p.Done
	for _, d := range p.Done {
		res.mapped += d.Mapped
		res.synthesized += d.Synthesized
	}
	return res, nil
}
