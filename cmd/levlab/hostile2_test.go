package main

import (
	"os"
	"path/filepath"
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

// TestReportScaleUnknown: an unknown --scale is bad usage for report as for
// run, naming the valid scales.
func TestReportScaleUnknown(t *testing.T) {
	checkFailure(t, []string{"report", "--scale", "big", "--results", t.TempDir()}, exitUsage, `"big"`, "quick", "paper")
	checkFailure(t, []string{"run", "--scale", "big", "--list"}, exitUsage, `"big"`, "quick", "paper")
}

// TestOutPathProblems: an --out that cannot be what the command writes
// says what it is: a folder where report wants a file, a link to nothing
// or a file where run wants a folder.
func TestOutPathProblems(t *testing.T) {
	dir := t.TempDir()
	checkFailure(t, []string{"report", "--out", dir, "--results", "../../results"}, exitUsage, "--out", dir, "is a folder", "file")

	dangling := filepath.Join(t.TempDir(), "out")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	checkFailure(t, []string{"run", "--only", "s001-tile", "--reps", "1", "--out", dangling}, exitFailure, dangling, "link", filepath.Join(dir, "nowhere"), "does not exist")

	file := writeFile(t, "plain", "x")
	checkFailure(t, []string{"run", "--only", "s001-tile", "--reps", "1", "--out", file}, exitFailure, file, "not a folder")
}
