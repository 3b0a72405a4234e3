package main

import (
	"strconv"
	"testing"
)

// TestOnlyEmpty: an empty --only (an unset shell variable) is bad usage,
// as --only , is, not "every experiment".
func TestOnlyEmpty(t *testing.T) {
	checkFailure(t, []string{"run", "--only", "", "--list"}, exitUsage, `--only ""`, "names no experiment")
	checkFailure(t, []string{"run", "--only=", "--reps", "1", "--out", t.TempDir()}, exitUsage, `--only ""`)
	checkFailure(t, []string{"run", "--only", " , ", "--list"}, exitUsage, `--only " , "`)
}

// TestRunesInvalidUTF8: distance, align and matrix refuse files that are not
// UTF-8 under --runes alike, naming the file and the byte offset; two files
// of different invalid bytes are not at distance 0.
func TestRunesInvalidUTF8(t *testing.T) {
	a := writeFile(t, "a", "ab\xffc")
	b := writeFile(t, "b", "ab\xfec")
	for _, cmd := range [][]string{
		{"distance", "--files", "--runes", a, b},
		{"align", "--files", "--runes", a, b},
	} {
		checkFailure(t, cmd, exitFailure, a, "not valid UTF-8", "byte 2", "0xff")
	}
}

// TestHugeTile: a tile past any input is the whole input, for every
// algorithm that takes one, not a panic.
func TestHugeTile(t *testing.T) {
	for _, tile := range []string{strconv.Itoa(1<<62 - 1 + 1<<62), "4611686018427387905"} {
		for _, alg := range []string{"tiled", "tiled-barrier", "myers-parallel", "auto"} {
			stdout, stderr, code := levlab(t, "distance", "--algo", alg, "--tile", tile, "kitten", "sitting")
			if code != exitOK || stdout != "3\n" {
				t.Errorf("distance --algo %s --tile %s: exit %d, %q\n%s", alg, tile, code, stdout, stderr)
			}
		}
	}
}
