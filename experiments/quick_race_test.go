//go:build race

package experiments

// quickRaceCap is the longest input TestQuickScaleRuns makes under the race
// detector, which slows every memory access several times: the points keep
// their algorithms, parameters, cases and length ratios, at smaller sizes.
const quickRaceCap = 1000
