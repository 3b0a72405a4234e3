//go:build race

package lev

// raceEnabled is true under the race detector, where every memory access
// costs several times more: the internal tests then draw fewer inputs.
const raceEnabled = true
