//go:build mpi

package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMPIMatrix runs levlab matrix under mpirun with 1, 2 and 3 ranks
// (more ranks than cores): the output is one process's, byte for byte,
// for every pair, --top, --max with --names, --json --runes, one file or
// two, and FASTA.
func TestMPIMatrix(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	a, b, fasta := shardInputs(t)
	for _, files := range [][]string{{a}, {a, b}, {fasta}} {
		for _, flags := range [][]string{nil, {"--top", "3"}, {"--max", "20", "--names"}, {"--json", "--runes"}} {
			args := append(append([]string{"matrix", "--workers", "1"}, flags...), files...)
			want, stderr, code := runBinary(t, bin, args...)
			if code != exitOK || want == "" {
				t.Fatalf("levlab %q: exit %d: %s", args, code, stderr)
			}
			for _, ranks := range []int{1, 2, 3} {
				got, stderr, code := runMPI(t, mpirun, nil, append(append([]string{"-np", strconv.Itoa(ranks)}, mpirunArgs...), append([]string{bin}, args...)...)...)
				if code != exitOK || got != want {
					t.Errorf("mpirun -np %d levlab %q: exit %d, %d bytes where one process prints %d: %s", ranks, args, code, len(got), len(want), stderr)
				}
			}
		}
	}
}

// TestMPIMatrixRefuses: ranks that read different files, a rank that
// cannot read its file, and shards under mpirun are each said once,
// naming the rank where one failed, and nothing is printed.
func TestMPIMatrixRefuses(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	a, b, _ := shardInputs(t)
	mpmd := func(first, second string) []string {
		return append(append(append([]string{"-np", "1"}, mpirunArgs...), bin, "matrix", first, ":", "-np", "1"), bin, "matrix", second)
	}
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{mpmd(a, b), exitFailure, []string{"differ from rank 0's", "rank 1 of 2"}},
		{mpmd(a, a+".gone"), exitFailure, []string{"rank 1 of 2", ".gone"}},
		{append(append([]string{"-np", "2"}, mpirunArgs...), bin, "matrix", "--shard", "0/2", "--out", t.TempDir(), a), exitUsage, []string{"mpirun over ranks"}},
	} {
		stdout, stderr, code := runMPI(t, mpirun, nil, c.args...)
		ok := code == c.code && stdout == "" && strings.Count(stderr, "levlab: matrix: ") == 1
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok {
			t.Errorf("mpirun %q: exit %d (want %d), stdout %d bytes, stderr (want one message naming %q):\n%s", c.args, code, c.code, len(stdout), c.want, stderr)
		}
	}
	os.Remove(a + ".gone")
}
