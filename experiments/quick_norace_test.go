//go:build !race

package experiments

// quickRaceCap is the longest input TestQuickScaleRuns makes under the race
// detector; without it, 0: the quick scale as it is.
const quickRaceCap = 0
