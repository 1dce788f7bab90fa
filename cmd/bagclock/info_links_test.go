package main

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/inventory"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestInfoLinkStampsOnTwoClocks: a tf topic whose links are on two clocks
// (a detector broadcasting its objects on system time beside a tree on sim
// time) gets each link's stamp range, in JSON and in the text, where its one
// header-stamp range spans both; a tree on one clock gets the ranges in
// JSON only.
func TestInfoLinkStampsOnTwoClocks(t *testing.T) {
	tests := []struct {
		name     string
		mixed    bool
		textLine string // "" for no link-stamps line
	}{
		{scenario.TFDetectorSystem, true, "link stamps /tf (on two clocks: sim time and system time): base_link->object_1 1790000000."},
		{scenario.BothSim, false, ""},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range tests {
			t.Run(storage+"/"+tc.name, func(t *testing.T) {
				dir := caseBag(t, tc.name, storage)
				var rep inventory.Report
				runInfoJSON(t, dir, &rep)
				var tf *inventory.Topic
				for i := range rep.Topics {
					if rep.Topics[i].Name == "/tf" {
						tf = &rep.Topics[i]
					}
				}
				if tf == nil {
					t.Fatal("no /tf topic")
				}
				if tf.MixedClocks != tc.mixed {
					t.Errorf("mixed_clocks = %v, want %v", tf.MixedClocks, tc.mixed)
				}
				odom := -1
				for i, l := range tf.Links {
					if l.Link == "odom->base_link" {
						odom = i
					}
				}
				if odom < 0 || !tf.Links[odom].Stamp.Valid || tf.Links[odom].Stamp.MaxNS >= 1e17 {
					t.Errorf("links %+v: want odom->base_link on sim time", tf.Links)
				}
				if tc.mixed && (len(tf.Links) != 2 || tf.Links[0].Link != "base_link->object_1" || tf.Links[0].Stamp.MinNS < 1.79e18) {
					t.Errorf("links %+v: want base_link->object_1 on system time first", tf.Links)
				}
				code, out, errOut := runCLI(t, "info", dir)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				has := strings.Contains(strings.Join(strings.Fields(out), " "), tc.textLine)
				if tc.textLine != "" && !has {
					t.Errorf("info text lacks %q:\n%s", tc.textLine, out)
				}
				if tc.textLine == "" && strings.Contains(out, "link stamps") {
					t.Errorf("info text has link stamps for a tree on one clock:\n%s", out)
				}
			})
		}
	}
}
