package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

// similarDNA returns a random DNA string of n bases and a copy of it with
// n·percent/100 random edits (substitutions, insertions, deletions), drawn
// from seed.
func similarDNA(seed uint64, n, percent int) (a, b []byte) {
	r := rand.New(rand.NewPCG(seed, 1))
	a = make([]byte, n)
	for i := range a {
		a[i] = "ACGT"[r.IntN(4)]
	}
	b = append([]byte(nil), a...)
	for range n * percent / 100 {
		pos := r.IntN(len(b))
		switch r.IntN(3) {
		case 0:
			b[pos] = "ACGT"[r.IntN(4)]
		case 1:
			b = append(b[:pos], append([]byte{"ACGT"[r.IntN(4)]}, b[pos:]...)...)
		default:
			b = append(b[:pos], b[pos+1:]...)
		}
	}
	return a, b
}

// peakCoreGCUPS bounds the cells a second one core can compute, in
// billions: the widest bit-parallel kernel, 32 strips of 64 rows in four
// ZMM registers, runs about 200 on the machines measured
// (results/*/bench/kernel.txt); a thousand is past any core's reach.
const peakCoreGCUPS = 1000

// TestDistanceJSONComputedCells: for a 200k similar pair, where the band
// and the trimmed pass leave most of the matrix, --json's gcups is the
// cells computed a second, within what one core can do, and the matrix's
// cells a second are matrix_gcups: before, gcups divided the whole matrix
// by the time, more "GCUPS" than one core can compute (levlab distance
// --json --workers 1 of this pair printed "cells":39995400000 and
// "gcups" from 1350 to 3001 over four runs on the 2-core AMD EPYC, 1147
// on 2 workers).
func TestDistanceJSONComputedCells(t *testing.T) {
	a, b := similarDNA(200, 200_000, 1)
	fa, fb := writeFile(t, "a.txt", string(a)), writeFile(t, "b.txt", string(b))
	for _, workers := range []string{"1", "2"} {
		args := []string{"distance", "--json", "--files", "--workers", workers, fa, fb}
		stdout, stderr, code := levlab(t, args...)
		if code != exitOK {
			t.Fatalf("levlab %q: exit status %d, stderr %q", args, code, stderr)
		}
		fields := decodeJSON[map[string]any](t, "distance --json", stdout)
		for _, k := range []string{"cells", "computed_cells", "gcups", "matrix_gcups"} {
			if _, ok := fields[k]; !ok {
				t.Errorf("levlab %q: %s has no %q", args, stdout, k)
			}
		}
		res := decodeDistance(t, stdout)
		cells := int64(len(a)) * int64(len(b))
		switch {
		case res.Cells != cells:
			t.Errorf("levlab %q: cells %d, want len_a·len_b = %d", args, res.Cells, cells)
		case res.ComputedCells <= 0 || res.ComputedCells > cells/10:
			t.Errorf("levlab %q: computed_cells %d, want in (0, cells/10 = %d]: the band leaves most of a 1%% diverged pair", args, res.ComputedCells, cells/10)
		case res.Seconds <= 0:
			t.Fatalf("levlab %q: seconds %g", args, res.Seconds)
		}
		near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9*want }
		if want := float64(res.ComputedCells) / res.Seconds / 1e9; !near(res.GCUPS, want) {
			t.Errorf("levlab %q: gcups %g, want computed_cells/seconds/1e9 = %g", args, res.GCUPS, want)
		}
		if want := float64(res.Cells) / res.Seconds / 1e9; !near(res.MatrixGCUPS, want) {
			t.Errorf("levlab %q: matrix_gcups %g, want cells/seconds/1e9 = %g", args, res.MatrixGCUPS, want)
		}
		if bound := float64(peakCoreGCUPS * res.Workers); res.GCUPS > bound {
			t.Errorf("levlab %q: gcups %g on %d workers, past any core's %d a worker: %s", args, res.GCUPS, res.Workers, peakCoreGCUPS, stdout)
		}
		t.Logf("levlab %q: %s", args[:5], stdout)
	}
}
