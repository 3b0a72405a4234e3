package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/levlab/levlab/lev/levtest"
)

// BenchmarkSimilarCommand times levlab distance on similar sequences (the
// name's diverged=P: P % of edits), the
// pairs a read aligner, a diff of two versions or two assemblies give —
// random DNA of 1,000,000 symbols against itself diverged by 1 %, 5 % and
// 15 % (levtest.Diverge: uniform substitutions, insertions and
// deletions), by myers on one worker and myers-parallel on two, beside
// edlib-aligner -m NW on the same pairs as FASTA in the same run; and
// 10,000,000 at 1 % by myers-parallel on two workers (edlib, about two
// minutes a run there, left out). Each prints the same distance. As in
// BenchmarkDistanceCommand: the whole command's time (ns/op), its peak
// resident memory (MB) and its computation alone (compute-s). About 40 s
// a repetition.
//
//	go test -run '^$' -bench SimilarCommand -benchtime 1x ./cmd/levlab
func BenchmarkSimilarCommand(b *testing.B) {
	bin := buildLevlab(b)
	dir := b.TempDir()
	edlib, edlibErr := exec.LookPath("edlib-aligner")
	for _, c := range []struct{ n, permille int }{{1_000_000, 10}, {1_000_000, 50}, {1_000_000, 150}, {10_000_000, 10}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.permille)))
		x := levtest.RandomBytes(rng, c.n, levtest.DNA)
		y := levtest.Diverge(rng, x, c.permille, levtest.DNA)
		path := func(name string) string { return filepath.Join(dir, fmt.Sprintf("%d-%d-%s", c.n, c.permille, name)) }
		files := map[string][]byte{"a.txt": x, "b.txt": y}
		if c.n <= 1_000_000 {
			files["a.fa"], files["b.fa"] = fmt.Appendf(nil, ">a\n%s\n", x), fmt.Appendf(nil, ">b\n%s\n", y)
		}
		for name, data := range files {
			if err := os.WriteFile(path(name), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		prefix := fmt.Sprintf("diverged=%d/n=%d/", c.permille/10, c.n)
		for _, run := range []struct {
			name, algo, workers string
		}{{"myers-1-worker", "myers", "1"}, {"myers-parallel-2-workers", "myers-parallel", "2"}} {
			if c.n > 1_000_000 && run.workers == "1" {
				continue
			}
			b.Run(prefix+"prog=levlab-"+run.name, func(b *testing.B) {
				timeCommand(b, `"distance":([0-9]+)`, `"seconds":([0-9.e-]+)`, bin, "distance", "--json", "--files",
					"--algo", run.algo, "--workers", run.workers, path("a.txt"), path("b.txt"))
			})
		}
		if c.n > 1_000_000 {
			continue
		}
		b.Run(prefix+"prog=edlib-aligner", func(b *testing.B) {
			if edlibErr != nil {
				b.Skipf("edlib-aligner: %v (Debian: apt-get install edlib-aligner)", edlibErr)
			}
			timeCommand(b, `#0: ([0-9]+) `, `Cpu time of searching: ([0-9.e-]+)`, edlib, "-m", "NW", path("a.fa"), path("b.fa"))
		})
	}
}
