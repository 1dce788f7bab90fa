package analysis

import (
	"sort"
	"strings"

	"github.com/bagclock/bagclock/bagread"
)

// ROS 1 bags name every publisher: each connection record carries the
// callerid of the node rosbag record subscribed to. ros1Publishers lists
// those nodes in the node table and keeps them per topic for the
// verdict, which puts the node's name where it guessed it ("The laser
// driver publishes /scan" becomes "/hokuyo_node publishes /scan") and
// turns the ROS 2 advice into ROS 1's where the two differ (ros1Wording in
// analysis/verdict).
func ros1Publishers(rep *Report, bag *bagread.Bag) {
	pubs := map[string][]string{} // topic → callerids, in connection order
	for _, t := range bag.Topics {
		for _, c := range t.Connections {
			if c.Callerid != "" && !contains(pubs[t.Name], c.Callerid) {
				pubs[t.Name] = append(pubs[t.Name], c.Callerid)
			}
		}
	}
	addPublishers(rep, pubs)
	rep.Pass.Publishers = pubs
}

// addPublishers merges the callerids into the node table: a node already
// named by /rosout gains its topics, the others are added.
func addPublishers(rep *Report, pubs map[string][]string) {
	at := map[string]int{}
	for i, n := range rep.Nodes {
		at[strings.TrimPrefix(n.Node, "/")] = i
	}
	for topic, callers := range pubs {
		for _, c := range callers {
			i, ok := at[strings.TrimPrefix(c, "/")]
			if !ok {
				if len(rep.Nodes) >= maxNodesKept {
					continue
				}
				rep.Nodes = append(rep.Nodes, NodeClock{Node: c})
				i = len(rep.Nodes) - 1
				at[strings.TrimPrefix(c, "/")] = i
			}
			rep.Nodes[i].Publishes = append(rep.Nodes[i].Publishes, topic)
		}
	}
	for i := range rep.Nodes {
		sort.Strings(rep.Nodes[i].Publishes)
	}
	sort.SliceStable(rep.Nodes, func(i, j int) bool { return rep.Nodes[i].Node < rep.Nodes[j].Node })
}
