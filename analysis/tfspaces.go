package analysis

import (
	"path"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis/topics"
)

// tf namespaces. A robot run under a namespace publishes its transforms
// on /robot1/tf and /robot1/tf_static, and its nodes (remapped, or
// resolving the relative name "tf" in their namespace) listen there: a bag
// of two robots holds two trees that may use the same frame names. Each
// namespace with tf topics gets its own buffer and filter group (a
// tfReplay), fed by that namespace's tf topics only, and an analysed topic
// is looked up in the namespace that holds it:
//
//   - /robot1/scan and /robot1/camera/image_raw use /robot1/tf (the
//     longest namespace with tf topics that contains the topic);
//   - a topic in no such namespace uses the root /tf (or tf) when the bag
//     has it, else the namespace with the most tf topics (ties: the first
//     by name), as the single tree of a bag with one namespaced robot.
//
// Link statistics cover every namespace's links (links are keyed by
// topic); the tf-tree checks compare links within one namespace only
// (clock family, staleness, recorder offset, static conflicts), as two
// robots' trees are never looked up across. A /clock jump clears every
// buffer.

// tfNamespaces lists the namespaces that have tf or tf_static topics, the
// primary one first: the root one ("/tf", "tf") when the bag has it, else
// the one with the most tf topics; the rest by name.
func tfNamespaces(infos []topics.TopicInfo) []string {
	n := map[string]int{}
	for _, ti := range infos {
		if ti.Role == topics.TF || ti.Role == topics.TFStatic {
			n[namespaceOf(ti.Name)]++
		}
	}
	var out []string
	for ns := range n {
		out = append(out, ns)
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if (x == "") != (y == "") {
			return x == ""
		}
		if n[x] != n[y] {
			return n[x] > n[y]
		}
		return x < y
	})
	if len(out) > 1 {
		sort.Strings(out[1:])
	}
	return out
}

// namespaceOf is a topic name without its last segment and without a
// leading slash: "/robot1/tf" → "robot1", "/tf" and "tf" → "".
func namespaceOf(name string) string {
	dir, _ := path.Split(strings.TrimPrefix(name, "/"))
	return strings.TrimSuffix(dir, "/")
}

// buildTFSpaces makes one tf replay per namespace of a.tfNS (one for the
// root namespace when the bag has no tf topic) and points every topic at
// its own: tf topics at their namespace's, analysed topics at the
// namespace that holds them (see above).
func (a *analyzer) buildTFSpaces() {
	names := a.tfNS
	if len(names) == 0 {
		names = []string{""}
	}
	links := &tfLinks{links: map[linkKey]*linkStats{}}
	byNS := map[string]*tfReplay{}
	for i, ns := range names {
		t := links.newSpace(ns, a.bufferOptions())
		t.id = i
		byNS[ns] = t
		a.tfSpaces = append(a.tfSpaces, t)
	}
	a.tf = a.tfSpaces[0]
	for _, ts := range a.topics.list {
		switch ts.role {
		case roleTF, roleTFStatic:
			ts.tf = byNS[namespaceOf(ts.name)]
		default:
			ts.tf = a.spaceFor(ts.name)
		}
	}
}

// spaceFor returns the tf replay an analysed topic is looked up in: the
// longest namespace with tf topics that contains it, else the primary one.
func (a *analyzer) spaceFor(topic string) *tfReplay {
	ns := namespaceOf(topic)
	var best *tfReplay
	for _, t := range a.tfSpaces {
		if t.ns == "" || ns != t.ns && !strings.HasPrefix(ns, t.ns+"/") {
			continue
		}
		if best == nil || len(t.ns) > len(best.ns) {
			best = t
		}
	}
	if best == nil {
		return a.tf
	}
	return best
}

// byTFSpace splits links by tf namespace, in namespace order, keeping
// their order within each.
func (a *analyzer) byTFSpace(links []*linkStats) [][]*linkStats {
	out := make([][]*linkStats, len(a.tfSpaces))
	for _, l := range links {
		out[l.space] = append(out[l.space], l)
	}
	return out
}
