package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// testAlgorithms returns the algorithms this machine can run: every CPU one,
// and the GPU ones where a GPU is usable.
func testAlgorithms(t *testing.T) []lev.Algorithm {
	gpuErr := cudaext.Available()
	var algs []lev.Algorithm
	for _, a := range lev.Algorithms() {
		if a.GPU() && gpuErr != nil {
			t.Logf("not running %s: %v", a, gpuErr)
			continue
		}
		algs = append(algs, a)
	}
	return algs
}

// wantDistance runs levlab with args and checks that it prints want alone.
func wantDistance(t *testing.T, want int, args ...string) {
	t.Helper()
	stdout, stderr, code := levlab(t, args...)
	if code != exitOK || stderr != "" {
		t.Errorf("levlab %q: exit status %d, stderr %q", args, code, stderr)
		return
	}
	if got := strings.TrimSuffix(stdout, "\n"); got != strconv.Itoa(want) || !strings.HasSuffix(stdout, "\n") {
		t.Errorf("levlab %q printed %q, want %q", args, stdout, strconv.Itoa(want)+"\n")
	}
}

func TestDistanceLiterals(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"héllo", "hello", 1}, // runes, not bytes
		{"kitten", "sitting", 3},
		{"", "", 0},
		{"", "héllo", 5},
		{"abc", "", 3},
		{"same", "same", 0},
		{"日本語", "日本", 1},
	}
	for _, alg := range testAlgorithms(t) {
		t.Run("algo="+alg.String(), func(t *testing.T) {
			opts := []string{"--algo", alg.String()}
			if alg.Parallel() {
				opts = append(opts, "--workers", "2")
			}
			for _, c := range cases {
				wantDistance(t, c.want, append(append([]string{"distance"}, opts...), "--", c.a, c.b)...)
			}
		})
	}
}

func TestDistanceFlagsAfterArguments(t *testing.T) {
	wantDistance(t, 3, "distance", "kitten", "sitting", "--algo", "tworow")
	wantDistance(t, 3, "distance", "kitten", "--algo=tworow", "sitting")
	// After "--" a leading '-' is an argument, not a flag.
	wantDistance(t, 3, "distance", "--", "", "-xy")
	wantDistance(t, 1, "distance", "--", "-x", "-y")
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDistanceFiles(t *testing.T) {
	withNewline := writeFile(t, "a", "abc\n")
	without := writeFile(t, "b", "abc")
	empty := writeFile(t, "empty", "")
	accented := writeFile(t, "accented", "héllo")
	plain := writeFile(t, "plain", "hello")

	// Nothing is stripped: the trailing newline is one more byte.
	wantDistance(t, 1, "distance", "--files", withNewline, without)
	wantDistance(t, 4, "distance", "--files", empty, withNewline)
	wantDistance(t, 0, "distance", "--files", empty, empty)
	// Raw bytes: é is two bytes against one.
	wantDistance(t, 2, "distance", "--files", accented, plain)
	// --runes compares the files as text.
	wantDistance(t, 1, "distance", "--files", "--runes", accented, plain)
	wantDistance(t, 1, "distance", "--runes", "--files", withNewline, without)

	stdout, _, code := levlab(t, "distance", "--json", "--files", accented, plain)
	if code != exitOK {
		t.Fatalf("levlab distance --json --files: exit status %d", code)
	}
	res := decodeDistance(t, stdout)
	if res.Unit != "bytes" || res.LenA != 6 || res.LenB != 5 || res.Cells != 30 || res.Distance != 2 {
		t.Errorf("--json --files %s %s: %+v, want bytes, len 6 and 5, 30 cells, distance 2", accented, plain, res)
	}
	stdout, _, code = levlab(t, "distance", "--json", "--files", "--runes", accented, plain)
	if code != exitOK {
		t.Fatalf("levlab distance --json --files --runes: exit status %d", code)
	}
	if res := decodeDistance(t, stdout); res.Unit != "runes" || res.LenA != 5 || res.LenB != 5 || res.Distance != 1 {
		t.Errorf("--json --files --runes: %+v, want runes, len 5 and 5, distance 1", res)
	}
}

// decodeDistance decodes distance's --json output, checking that it is one
// object with every documented field and nothing after it.
func decodeDistance(t *testing.T, stdout string) distanceResult {
	t.Helper()
	fields := decodeJSON[map[string]any](t, "distance --json", stdout)
	for _, k := range []string{"algorithm", "ran", "workers", "tile", "block", "unit", "len_a", "len_b", "distance", "seconds", "cells", "computed_cells", "gcups", "matrix_gcups"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("--json output %q has no %q", stdout, k)
		}
	}
	return decodeJSON[distanceResult](t, "distance --json", stdout)
}

func TestDistanceJSON(t *testing.T) {
	cases := []struct {
		args        []string
		alg, ran    lev.Algorithm
		workers     int
		tile, block int
	}{
		{[]string{"--algo", "tworow"}, lev.TwoRow, lev.TwoRow, 1, 0, 0},
		{[]string{"--algo", "diagonal", "--workers", "2"}, lev.Diagonal, lev.Diagonal, 2, 0, 0},
		{[]string{"--algo", "tiled", "--workers", "2", "--tile", "3"}, lev.Tiled, lev.Tiled, 2, 3, 0},
		{[]string{"--workers", "1"}, lev.Auto, lev.Myers, 1, 0, 0},
		// A small input: auto runs myers on one worker whatever the budget.
		{[]string{"--workers", "2"}, lev.Auto, lev.Myers, 1, 0, 0},
	}
	for _, c := range cases {
		args := append(append([]string{"distance", "--json"}, c.args...), "kitten", "sitting")
		stdout, stderr, code := levlab(t, args...)
		if code != exitOK {
			t.Errorf("levlab %q: exit status %d, stderr %q", args, code, stderr)
			continue
		}
		res := decodeDistance(t, stdout)
		want := distanceResult{Algorithm: c.alg, Ran: c.ran, Workers: c.workers, Tile: c.tile, Block: c.block,
			Unit: "runes", LenA: 6, LenB: 7, Distance: 3, Cells: 42, ComputedCells: 42}
		if c.ran == lev.Myers {
			// Six symbols, one strip: the portable step runs it, over
			// the seven columns of its band, 64 rows a column.
			want.Kernel, want.ComputedCells = "go", 7*64
		}
		got := res
		got.Seconds, got.GCUPS, got.MatrixGCUPS = 0, 0, 0
		if got != want {
			t.Errorf("levlab %q: %+v, want %+v", args, got, want)
		}
		if res.Seconds < 0 || res.Seconds > 60 {
			t.Errorf("levlab %q: seconds = %g", args, res.Seconds)
		}
		if res.Seconds > 0 {
			if want := float64(res.ComputedCells) / res.Seconds / 1e9; math.Abs(res.GCUPS-want) > 1e-9*want {
				t.Errorf("levlab %q: gcups = %g, want computed_cells/seconds/1e9 = %g", args, res.GCUPS, want)
			}
			if want := float64(res.Cells) / res.Seconds / 1e9; math.Abs(res.MatrixGCUPS-want) > 1e-9*want {
				t.Errorf("levlab %q: matrix_gcups = %g, want cells/seconds/1e9 = %g", args, res.MatrixGCUPS, want)
			}
		}
		// The plain output agrees.
		plain := append([]string{"distance"}, args[2:]...)
		wantDistance(t, res.Distance, plain...)
	}
}

func TestDistanceUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--nope", "a", "b"}, []string{"-nope"}},
		{[]string{"a", "b", "--nope"}, []string{"-nope"}},
		{nil, []string{"two arguments", "got 0"}},
		{[]string{"abc"}, []string{"got 1", `"abc"`}},
		{[]string{"a", "b", "cdef"}, []string{"got 3", `"cdef"`}},
		{[]string{"--algo", "bogus", "a", "b"}, []string{`"bogus"`, "myers-parallel"}},
		{[]string{"--workers", "-1", "a", "b"}, []string{"workers = -1", "4096"}},
		{[]string{"--workers", "5000", "a", "b"}, []string{"workers = 5000"}},
		{[]string{"--workers", "two", "a", "b"}, []string{`"two"`, "-workers"}},
		{[]string{"--algo", "tworow", "--workers", "4", "a", "b"}, []string{"tworow", "workers = 4"}},
		{[]string{"--tile", "0", "a", "b"}, []string{"tile = 0"}},
		{[]string{"--tile", "-3", "a", "b"}, []string{"tile = -3"}},
		{[]string{"--block", "0", "a", "b"}, []string{"block size = 0", "1024"}},
		{[]string{"--block", "2048", "a", "b"}, []string{"block size = 2048"}},
		{[]string{"--max-memory", "0", "a", "b"}, []string{"matrix limit = 0"}},
		{[]string{"--max-memory", "-5", "a", "b"}, []string{"matrix limit = -5"}},
		{[]string{"--max-memory", "lots", "a", "b"}, []string{`"lots"`, "-max-memory"}},
		{[]string{"--json=maybe", "a", "b"}, []string{`"maybe"`}},
		// A bad option is reported before any file is read.
		{[]string{"--tile", "0", "--files", "/nonexistent/a", "/nonexistent/b"}, []string{"tile = 0"}},
	}
	for _, c := range cases {
		checkFailure(t, append([]string{"distance"}, c.args...), exitUsage, c.want...)
	}
}

func TestDistanceFailures(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	present := writeFile(t, "present", "abc")
	checkFailure(t, []string{"distance", "--files", missing, present}, exitFailure, missing)
	checkFailure(t, []string{"distance", "--files", present, missing}, exitFailure, missing)
	checkFailure(t, []string{"distance", "--files", dir, present}, exitFailure, dir)

	if err := cudaext.Available(); err == nil {
		t.Log("a GPU is usable here: the GPU algorithms are tested in TestDistanceLiterals")
	} else if !errors.Is(err, cudaext.ErrUnavailable) {
		t.Errorf("cudaext.Available() = %v, which does not wrap ErrUnavailable", err)
	} else {
		for _, a := range lev.Algorithms() {
			if a.GPU() {
				checkFailure(t, []string{"distance", "--algo", a.String(), "a", "b"}, exitFailure, a.String(), "unavailable")
			}
		}
	}
}

func TestByteSize(t *testing.T) {
	good := map[string]int64{"1": 1, "123B": 123, "2KiB": 2048, "512MiB": 512 << 20, "4GiB": 4 << 30, "1TiB": 1 << 40, "-5": -5}
	for in, want := range good {
		var s byteSize
		if err := s.Set(in); err != nil || int64(s) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, s, err, want)
		}
	}
	for _, in := range []string{"", "lots", "1.5GiB", "4GB", "GiB", "9000000TiB", "1 KiB"} {
		var s byteSize
		if err := s.Set(in); err == nil {
			t.Errorf("Set(%q) = %d, want an error", in, s)
		}
	}
}
