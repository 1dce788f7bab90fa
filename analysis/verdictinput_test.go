package analysis

// reportOf is the report a hand-built analyzer would finish with, as far
// as the verdict rules and the row findings read it: its pairs
// summarised, the pass facts, the analysed topics.
func reportOf(a *analyzer) *Report {
	r := &a.rep
	r.Pairs = []PairSummary{}
	for _, p := range a.pairs {
		r.Pairs = append(r.Pairs, a.pairSummary(p))
	}
	r.Summary.Scans = a.scans
	r.Settings.ScanTopics = a.scanTopics
	r.Pass = a.passFacts()
	if r.Topics == nil {
		r.Topics = a.topicSummaries()
	}
	return r
}
