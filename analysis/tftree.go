package analysis

// tfTree builds the tf tree table (one row per link and topic, as
// view_frames draws it) from the tf replay's link statistics. Diagnoses of
// the tree itself go in their own tftree_*.go checks ranked after this one
// (see check.go); they find the table in a.rep.TFTree and the statistics
// in a.tf.sortedLinks().
type tfTree struct{}

func init() {
	registerCheck(rankTFTree, "tf-tree", func(*analyzer) check { return tfTree{} })
}

func (tfTree) finish(a *analyzer) {
	r := &a.rep
	r.TFTree = []TFLink{}
	for _, l := range a.tf.sortedLinks() {
		t := TFLink{Parent: l.key.parent, Child: l.key.child, Topic: l.key.topic, Static: l.static,
			Count: l.count, OldestNS: l.oldest, NewestNS: l.newest, DelayS: l.age.median()}
		// A static link has no rate: latched /tf_static is republished to
		// every new subscriber, so its count says nothing about a publisher.
		// A span of record time needs two transforms.
		if span := l.lastLog - l.firstLog; !l.static && span > 0 {
			t.RateHz = float64(l.count-1) / (float64(span) / 1e9)
		}
		r.TFTree = append(r.TFTree, t)
	}
}
