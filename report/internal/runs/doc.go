// Package runs is the runs a report is written from, knowing nothing of
// the document: Load chooses the runs of a results tree, streams their
// records through package records into a Tally each (a run of millions
// of records is never held), and aggregates each run into an Index of
// its points' medians (Stat), with the specs kept beside the records,
// the published numbers and the benchmark output; and it says which
// records are older than their code (Staleness, from git). Its
// statistics are numbers alone: medians, the bootstrap interval of a
// ratio of medians and the U test of a speedup (Ratio). Package report
// phrases them.
package runs
