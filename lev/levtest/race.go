//go:build race

package levtest

// raceEnabled is true when the race detector is on: every memory access then
// costs several times more, so the suite draws smaller inputs.
const raceEnabled = true
