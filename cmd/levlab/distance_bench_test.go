package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/levlab/levlab/experiments"
)

// BenchmarkDistanceCommand times the command the one-pair speed bar names,
// levlab distance --files --algo myers-parallel --workers 2 A B (reading,
// computing, printing), and with --workers 1 (prog=levlab-one-worker:
// worker for thread), beside edlib-aligner -m NW (edlib's distance, no
// path) on the same sequences as FASTA, in one run: random DNA of 50,000
// and 1,000,000 symbols, the peers experiment's inputs. Both must print the
// same distance. Beside each whole command's time (ns/op) and peak resident
// memory (MB, see timeCommand), compute-s is the computation alone, as each
// prints it: levlab's --json seconds, edlib-aligner's "Cpu time of
// searching" (one thread, so its CPU time is its time). The speed bar
// compares those: the start of a process (levlab's about 4 ms) is not the
// algorithm's. edlib-aligner is skipped, saying so, where it is not on
// PATH. At 1M edlib-aligner takes about 20 s a run here: -benchtime 1x.
//
//	go test -run '^$' -bench DistanceCommand -benchtime 1x ./cmd/levlab
func BenchmarkDistanceCommand(b *testing.B) {
	bin := buildLevlab(b)
	dir := b.TempDir()
	edlib, edlibErr := exec.LookPath("edlib-aligner")
	for _, n := range []int{50_000, 1_000_000} {
		x, y, err := experiments.Inputs(experiments.Experiment{Name: "peers"},
			experiments.Point{Case: experiments.CaseDNA, LenA: n, LenB: n})
		if err != nil {
			b.Fatal(err)
		}
		path := func(name string) string { return filepath.Join(dir, fmt.Sprintf("%d-%s", n, name)) }
		files := map[string][]byte{"a.txt": x, "b.txt": y,
			"a.fa": fmt.Appendf(nil, ">a\n%s\n", x), "b.fa": fmt.Appendf(nil, ">b\n%s\n", y)}
		for name, data := range files {
			if err := os.WriteFile(path(name), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		prefix := fmt.Sprintf("case=%s/n=%d/", experiments.CaseDNA, n)
		b.Run(prefix+"prog=levlab", func(b *testing.B) {
			timeCommand(b, `"distance":([0-9]+)`, `"seconds":([0-9.e-]+)`, bin, "distance", "--json", "--files",
				"--algo", "myers-parallel", "--workers", "2", path("a.txt"), path("b.txt"))
		})
		// One worker too: edlib-aligner computes on one thread.
		b.Run(prefix+"prog=levlab-one-worker", func(b *testing.B) {
			timeCommand(b, `"distance":([0-9]+)`, `"seconds":([0-9.e-]+)`, bin, "distance", "--json", "--files",
				"--algo", "myers-parallel", "--workers", "1", path("a.txt"), path("b.txt"))
		})
		b.Run(prefix+"prog=edlib-aligner", func(b *testing.B) {
			if edlibErr != nil {
				b.Skipf("edlib-aligner: %v (Debian: apt-get install edlib-aligner)", edlibErr)
			}
			timeCommand(b, `#0: ([0-9]+) `, `Cpu time of searching: ([0-9.e-]+)`, edlib, "-m", "NW", path("a.fa"), path("b.fa"))
		})
	}
}
