// Package verdict decides a bag's verdict from the finished
// analysis.Report: the headline sentence, its class, the evidence and the
// commands to run. It reads only the report (its tables, findings and
// Pass facts) and never the analysis's pass, so each rule can be tested on
// a report built by hand.
//
// The headline is data while the rules run (headline.go): its parts, the
// topics it names, what it asks of use_sim_time, each worded for the
// bag's ROS (ROS 1 or ROS 2) when it is written. Later rules demote it,
// blame its drops on a clock fault or add to it by those fields, and
// Decide renders the sentence once; no rule reads it back. The commands
// are data too (commands.go), rendered once in ROS 2's or ROS 1's tools.
//
// The data flows analysis → verdict → render, and only the caller wires
// them (cmd/bagclock/pipeline.go):
//
//	rep, err := analysis.Analyze(bag, cfg, sink)
//	if rep != nil {
//		verdict.Finish(rep) // rep.Verdict and rep.Summary.Verdict
//	}
//
// verdict imports analysis and analysis's leaf packages alone, and
// analysis does not import verdict (imports_test.go holds both).
package verdict
