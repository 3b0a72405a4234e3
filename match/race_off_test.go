//go:build !race

package match_test

// matchRace shrinks the match tests' inputs under the race detector.
const matchRace = false
