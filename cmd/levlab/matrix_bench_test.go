package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/levlab/levlab/lev/levtest"
)

// BenchmarkMatrixCommand times the whole command the many-pairs bar names,
// levlab matrix A B on 800 × 800 random DNA strings of 500–1000 bp (a
// line each; reading, 640,000 pairs and their output lines), with and
// without --max 10, and on one worker (workers=1). GCUPS counts each pair's len·len. Beside it in the
// same make bench-results run, experiments' BenchmarkManyPairs times
// edlib a pair a call.
//
//	go test -run '^$' -bench MatrixCommand -benchtime 2x ./cmd/levlab
func BenchmarkMatrixCommand(b *testing.B) {
	bin := buildLevlab(b)
	dir := b.TempDir()
	var cells float64
	var lens [2][]int
	for f, seed := range []uint64{1, 2} {
		rng := rand.New(rand.NewPCG(seed, 0x5e7))
		var text []byte
		for range 800 {
			s := levtest.RandomBytes(rng, 500+rng.IntN(501), levtest.DNA)
			lens[f] = append(lens[f], len(s))
			text = append(append(text, s...), '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(f)), text, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, x := range lens[0] {
		for _, y := range lens[1] {
			cells += float64(x * y)
		}
	}
	for _, c := range []struct {
		name string
		args []string
	}{{"all", nil}, {"max=10", []string{"--max", "10"}}, {"workers=1", []string{"--workers", "1"}}} {
		name, args := c.name, c.args
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(bin, append(append([]string{"matrix"}, args...), filepath.Join(dir, "0"), filepath.Join(dir, "1"))...)
				cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(cells*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
		})
	}
}
