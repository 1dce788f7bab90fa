package render

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bagclock/bagclock/analysis"
)

// The tf tree picture: an indented tree (a forest when the bag has
// several roots), each frame on its own row with the link into it
// labelled beside it, each link drawn as an elbow from its parent and
// coloured by what matters for clocks. Geometry is in CSS pixels; the SVG
// scrolls sideways inside its box on a narrow screen.
const (
	treeRowH     = 28.0
	treeIndent   = 24.0
	treePadX     = 10.0
	treePadY     = 10.0
	treeCharW    = 7.3 // 12 px monospace
	treeNoteW    = 6.0 // 11 px sans
	treeMaxNodes = 300
)

// Edge kinds, most important first; the legend and colours follow them.
const (
	edgeOtherClock = "other_clock"
	edgeStale      = "stale"
	edgeSystem     = "system_time"
	edgeSim        = "sim_time"
	edgeStatic     = "static"
)

var edgeKinds = []struct{ Kind, Color, Meaning string }{
	{edgeOtherClock, "#dc2626", "on another clock than the links around it"},
	{edgeStale, "#d97706", "stamps stop well before the newest stamp on its clock"},
	{edgeSystem, "#9333ea", "stamped with system (wall-clock) time"},
	{edgeSim, "#2563eb", "stamped with simulated time (/clock)"},
	{edgeStatic, "#94a3b8", "static (/tf_static): valid at every time"},
}

func edgeColor(kind string) string {
	for _, k := range edgeKinds {
		if k.Kind == kind {
			return k.Color
		}
	}
	return "#475569"
}

// tfPicture is the template's view of the tree.
type tfPicture struct {
	W, H    float64
	Nodes   []tfNode
	Edges   []tfEdge
	Paths   []tfPath
	Legend  []countRow
	Omitted int // frames not drawn (see the table)
}

type tfNode struct {
	X, Y  float64 // left end of the name, baseline of the name
	W     float64 // box width
	Name  string
	Note  string // the incoming link: rate, newest stamp, delay
	Color string // of the incoming link
	Title string
	Root  bool
	Paths string // space-separated path indices through this frame
}

type tfEdge struct {
	D     string
	Color string
	Kind  string
	Title string
	Paths string
}

// tfPath is one analysed (topic, frame → target) pair, highlighted on hover.
type tfPath struct {
	Index int
	Label string
	Found bool
}

// clockFamily says which clock a stamp comes from: wall-clock stamps are
// after 1971 (the same test as padNS); simulated ones count from 0.
func clockFamily(ns int64) string {
	if ns > 1e9*86400*365 {
		return edgeSystem
	}
	return edgeSim
}

// classifyEdges gives each link its kind.
func classifyEdges(links []analysis.TFLink) []string {
	kinds := make([]string, len(links))
	newest := map[string]int64{}
	for _, l := range links {
		if !l.Static && l.Count > 0 {
			f := clockFamily(l.NewestNS)
			newest[f] = max(newest[f], l.NewestNS)
		}
	}
	byFrame := map[string][]int{}
	for i, l := range links {
		if l.Static {
			kinds[i] = edgeStatic
			continue
		}
		kinds[i] = clockFamily(l.NewestNS)
		byFrame[l.Parent] = append(byFrame[l.Parent], i)
		byFrame[l.Child] = append(byFrame[l.Child], i)
	}
	out := append([]string(nil), kinds...)
	for i, l := range links {
		if l.Static {
			continue
		}
		// Neighbours: the other dynamic links that share a frame.
		n, same := 0, false
		for _, f := range []string{l.Parent, l.Child} {
			for _, j := range byFrame[f] {
				if j != i {
					n++
					same = same || kinds[j] == kinds[i]
				}
			}
		}
		if n > 0 && !same {
			out[i] = edgeOtherClock
			continue
		}
		// Stale: the newest stamp lags its clock's newest by more than
		// a second and five periods.
		lag := 1.0
		if l.RateHz > 0 && finite(l.RateHz) {
			lag = math.Max(lag, 5/l.RateHz)
		}
		if d, ok := subNS(newest[kinds[i]], l.NewestNS); ok && nsToS(d) > lag {
			out[i] = edgeStale
		}
	}
	return out
}

// tfTreePicture lays out links as a left-to-right forest and marks the
// path of each analysed pair.
func tfTreePicture(links []analysis.TFLink, pairs []analysis.PairSummary) *tfPicture {
	if len(links) == 0 {
		return nil
	}
	kinds := classifyEdges(links)
	// One parent per frame (the first link wins); later parents of the
	// same child are drawn as notes, cycles are cut.
	parentOf := map[string]int{}
	children := map[string][]int{}
	frames := map[string]bool{}
	for i, l := range links {
		frames[l.Parent], frames[l.Child] = true, true
		if _, ok := parentOf[l.Child]; ok || l.Child == l.Parent {
			continue
		}
		parentOf[l.Child] = i
		children[l.Parent] = append(children[l.Parent], i)
	}
	var roots []string
	for f := range frames {
		if _, ok := parentOf[f]; !ok {
			roots = append(roots, f)
		}
	}
	sort.Strings(roots)

	pic := &tfPicture{}
	type placed struct {
		depth int
		row   int
		link  int // incoming link, -1 for a root
	}
	pos := map[string]placed{}
	var order []string
	var walk func(f string, depth, link int)
	walk = func(f string, depth, link int) {
		if _, seen := pos[f]; seen {
			return
		}
		if len(order) >= treeMaxNodes {
			return
		}
		pos[f] = placed{depth: depth, row: len(order), link: link}
		order = append(order, f)
		idx := children[f]
		slices.SortFunc(idx, func(a, b int) int { return strings.Compare(links[a].Child, links[b].Child) })
		for _, i := range idx {
			walk(links[i].Child, depth+1, i)
		}
	}
	for _, r := range roots {
		walk(r, 0, -1)
	}
	// Frames only reachable through a cycle have no root: start there.
	var left []string
	for f := range frames {
		if _, ok := pos[f]; !ok {
			left = append(left, f)
		}
	}
	sort.Strings(left)
	for _, f := range left {
		walk(f, 0, -1)
	}
	// Counted once each: a frame past the cap can be reached twice.
	pic.Omitted = len(frames) - len(order)

	// Paths: the links from each pair's scan frame up to the common
	// ancestor with its target, and down to the target.
	onPath := map[int][]int{}      // link → path indices
	nodePath := map[string][]int{} // frame → path indices
	for pi, p := range pairs {
		tp := tfPath{Index: pi, Label: p.Topic + ": " + p.FrameID + " → " + p.TargetFrame}
		up := func(f string) []string {
			chain := []string{f}
			seen := map[string]bool{f: true}
			for {
				i, ok := parentOf[f]
				if !ok {
					return chain
				}
				f = links[i].Parent
				if seen[f] {
					return chain
				}
				seen[f] = true
				chain = append(chain, f)
			}
		}
		a, b := up(p.FrameID), up(p.TargetFrame)
		inB := map[string]int{}
		for k, f := range b {
			inB[f] = k
		}
		for ka, f := range a {
			kb, ok := inB[f]
			if !ok || p.FrameID == "" || p.TargetFrame == "" {
				continue
			}
			tp.Found = true
			for _, g := range append(append([]string(nil), a[:ka]...), b[:kb]...) {
				onPath[parentOf[g]] = append(onPath[parentOf[g]], pi)
			}
			for _, g := range append(append([]string(nil), a[:ka+1]...), b[:kb]...) {
				nodePath[g] = append(nodePath[g], pi)
			}
			break
		}
		pic.Paths = append(pic.Paths, tp)
	}

	nameW := func(f string) float64 { return float64(utf8.RuneCountInString(f))*treeCharW + 12 }
	rowY := func(row int) float64 { return treePadY + float64(row)*treeRowH + 13 }
	pic.H = float64(len(order))*treeRowH + 2*treePadY - 6
	pic.W = 200
	// Draw the last child's elbow first, so each shorter elbow of a
	// sibling above lies on top and shows its own colour.
	var edges []tfEdge
	for _, f := range order {
		pl := pos[f]
		x, y := treePadX+float64(pl.depth)*treeIndent, rowY(pl.row)
		n := tfNode{X: x, Y: y, W: nameW(f), Name: f, Root: pl.link < 0, Paths: joinInts(nodePath[f])}
		right := x + n.W
		if pl.link >= 0 {
			l := links[pl.link]
			k := kinds[pl.link]
			n.Note, n.Color = linkNote(l), edgeColor(k)
			n.Title = l.Parent + " → " + l.Child + " on " + l.Topic + ": " + strings.ReplaceAll(k, "_", " ")
			right += 8 + float64(utf8.RuneCountInString(n.Note))*treeNoteW
			pp := pos[l.Parent]
			x0, y0 := treePadX+float64(pp.depth)*treeIndent+9, rowY(pp.row)+6
			y1 := y - 4
			d := "M" + f1(x0) + " " + f1(y0) + "V" + f1(y1-5) + "Q" + f1(x0) + " " + f1(y1) + " " + f1(x0+5) + " " + f1(y1) + "H" + f1(x)
			edges = append(edges, tfEdge{D: d, Color: n.Color, Kind: k, Title: n.Title + " (" + n.Note + ")", Paths: joinInts(onPath[pl.link])})
		}
		pic.W = math.Max(pic.W, right+treePadX)
		pic.Nodes = append(pic.Nodes, n)
	}
	for i := len(edges) - 1; i >= 0; i-- {
		pic.Edges = append(pic.Edges, edges[i])
	}
	count := map[string]int{}
	for _, k := range kinds {
		count[k]++
	}
	for _, k := range edgeKinds {
		if count[k.Kind] > 0 {
			pic.Legend = append(pic.Legend, countRow{Name: strings.ReplaceAll(k.Kind, "_", " "), Color: k.Color, Meaning: k.Meaning, Count: count[k.Kind]})
		}
	}
	return pic
}

// linkNote labels a link with its rate, newest stamp and delay.
func linkNote(l analysis.TFLink) string {
	if l.Static {
		return "static · " + l.Topic
	}
	return strconv.FormatFloat(l.RateHz, 'f', 1, 64) + " Hz · newest " + formatNSAsSeconds(l.NewestNS) + " · delay " + humanSeconds(l.DelayS)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}
