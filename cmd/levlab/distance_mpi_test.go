//go:build mpi

package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMPIDistance runs levlab distance under mpirun with 1, 2 and 3 ranks
// (more ranks than cores): one pair computed over the ranks prints what
// one process prints, on pairs of one group to dozens, random and
// similar, under a cap, as text, with ranks of one worker and of two.
func TestMPIDistance(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(29, 29))
	dna := func(n int) []byte {
		s := make([]byte, n)
		for i := range s {
			s[i] = "ACGT"[r.IntN(4)]
		}
		return s
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	long := dna(40_000)
	similar := append([]byte(nil), long...)
	for range 400 {
		similar[r.IntN(len(similar))] = "ACGT"[r.IntN(4)]
	}
	a, b := write("a", long), write("b", dna(35_000))
	s := write("s", similar)
	short := write("short", dna(300))
	text := write("text", []byte(strings.Repeat("naïve café, ", 900)))
	text2 := write("text2", []byte(strings.Repeat("naive cafe! ", 880)))
	for _, args := range [][]string{
		{"--files", a, b},
		{"--files", a, s},
		{"--files", short, b},
		{"--files", "--max", "500", a, s},
		{"--files", "--max", "5000", a, b},
		{"--files", "--runes", text, text2},
		{"--algo", "myers-parallel", "kitten", "sitting"},
	} {
		want, stderr, code := runBinary(t, bin, append([]string{"distance", "--workers", "1"}, args...)...)
		if code != exitOK || want == "" {
			t.Fatalf("levlab distance %q: exit %d: %s", args, code, stderr)
		}
		for _, ranks := range []int{1, 2, 3} {
			for _, workers := range []string{"1", "2"} {
				cmd := append(append([]string{"-np", strconv.Itoa(ranks)}, mpirunArgs...), bin, "distance", "--workers", workers)
				got, stderr, code := runMPI(t, mpirun, nil, append(cmd, args...)...)
				if code != exitOK || got != want {
					t.Errorf("mpirun -np %d levlab distance --workers %s %q: exit %d, printed %q where one process prints %q: %s", ranks, workers, args, code, got, want, stderr)
				}
			}
		}
	}

	// --json names the ranks, and each rank's workers.
	cmd := append(append([]string{"-np", "2"}, mpirunArgs...), bin, "distance", "--json", "--workers", "1", "--files", a, b)
	out, stderr, code := runMPI(t, mpirun, nil, cmd...)
	var res distanceResult
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Ranks != 2 || res.Workers != 1 || res.LenA != 40_000 {
		t.Errorf("mpirun -np 2 levlab distance --json: exit %d, %q: %s", code, out, stderr)
	}
}

// TestMPIDistanceRefuses: an algorithm that runs in one process, and
// ranks given different files, are each said once, and nothing is
// printed.
func TestMPIDistanceRefuses(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	a, b, _ := shardInputs(t)
	mpmd := func(first, second string) []string {
		return append(append(append([]string{"-np", "1"}, mpirunArgs...), bin, "distance", "--files", a, first, ":", "-np", "1"), bin, "distance", "--files", a, second)
	}
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{mpmd(a, b), exitFailure, []string{"differ from rank 0's", "rank 1 of 2"}},
		{append(append([]string{"-np", "2"}, mpirunArgs...), bin, "distance", "--algo", "tworow", "kitten", "sitting"), exitUsage, []string{"--algo tworow computes in one process"}},
	} {
		stdout, stderr, code := runMPI(t, mpirun, nil, c.args...)
		ok := code == c.code && stdout == "" && strings.Count(stderr, "levlab: distance: ") == 1
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok {
			t.Errorf("mpirun %q: exit %d (want %d), stdout %q, stderr (want one message naming %q):\n%s", c.args, code, c.code, stdout, c.want, stderr)
		}
	}
}
