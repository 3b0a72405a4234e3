//go:build mpi

package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/levlab/levlab/experiments"
)

// BenchmarkScaleOut measures what levlab costs beyond one process, each
// beside one process in the same run, the commands end to end:
//
//   - distance: one pair of random DNA of 1,000,000 symbols (the peers
//     experiment's), one process of 2 workers against mpirun -np 2 of one
//     worker a rank (over shared memory); both must print the same
//     distance. compute-s is the computation alone as the command prints
//     it, MB the largest process's peak resident memory (mpirun's ranks
//     included).
//   - matrix: 20,000 random DNA strings of 100–1,000 bytes, --max 50: 3
//     shards run one after another, their times summed (ns/op), beside one
//     process run just before them in each iteration (one-process-s); the
//     shards merged must be one process's output, byte for byte.
//   - matrix --top 5 of 2,000 such strings under mpirun -np 2, a worker a
//     rank (ns/op), beside one process of 2 workers run just before it in
//     each iteration (one-process-s); both must print the same.
//   - merge: 10,001,628 lines of 3 shards (every pair of 4,473 short
//     strings), merged to a file.
//
// It needs mpirun (make deps) and GNU time.
//
//	go test -tags mpi -run '^$' -bench '^BenchmarkScaleOut$' -benchtime 1x ./cmd/levlab
func BenchmarkScaleOut(b *testing.B) {
	mpirun := findMpirun(b)
	bin := buildLevlab(b, "mpi")
	dir := b.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}

	x, y, err := experiments.Inputs(experiments.Experiment{Name: "peers"},
		experiments.Point{Case: experiments.CaseDNA, LenA: 1_000_000, LenB: 1_000_000})
	if err != nil {
		b.Fatal(err)
	}
	a, c := write("a.txt", x), write("b.txt", y)
	distance := []string{"distance", "--json", "--files", a, c}
	b.Run("distance/n=1000000/run=one-process-2-workers", func(b *testing.B) {
		timeCommand(b, `"distance":([0-9]+)`, `"seconds":([0-9.e-]+)`, bin, append(distance, "--workers", "2")...)
	})
	b.Run("distance/n=1000000/run=mpirun-2-ranks-1-worker", func(b *testing.B) {
		args := []string{"-np", "2", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo", bin}
		timeCommand(b, `"distance":([0-9]+)`, `"seconds":([0-9.e-]+)`, mpirun, append(append(args, distance...), "--workers", "1")...)
	})

	r := rand.New(rand.NewPCG(20_000, 3))
	strs := func(count, lo, hi int) []byte {
		var s bytes.Buffer
		for range count {
			for range lo + r.IntN(hi-lo+1) {
				s.WriteByte("ACGT"[r.IntN(4)])
			}
			s.WriteByte('\n')
		}
		return s.Bytes()
	}
	many := write("many.txt", strs(20_000, 100, 1_000))
	b.Run("matrix/strings=20000/max=50/run=3-shards-summed", func(b *testing.B) {
		var shards, one time.Duration
		out := filepath.Join(dir, "shards")
		for b.Loop() {
			b.StopTimer()
			start := time.Now()
			whole := runLevlab(b, bin, "matrix", "--max", "50", "--workers", "2", many)
			one += time.Since(start)
			os.RemoveAll(out)
			if err := os.Mkdir(out, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 3 {
				start := time.Now()
				runLevlab(b, bin, "matrix", "--max", "50", "--workers", "2", "--shard", fmt.Sprintf("%d/3", i), "--out", out, many)
				shards += time.Since(start)
			}
			if merged := runLevlab(b, bin, "merge", out); !bytes.Equal(merged, whole) {
				b.Fatalf("3 shards merged: %d bytes, one process %d", len(merged), len(whole))
			}
			b.StartTimer()
		}
		// The shards' own time is the op's; one process's, timed just
		// before them in each iteration, beside it.
		b.ReportMetric(float64(shards.Nanoseconds())/float64(b.N), "ns/op")
		b.ReportMetric(one.Seconds()/float64(b.N), "one-process-s")
	})

	nearest := write("nearest.txt", strs(2_000, 100, 1_000))
	b.Run("matrix/strings=2000/top=5/run=mpirun-2-ranks-1-worker", func(b *testing.B) {
		var ranks, one time.Duration
		for b.Loop() {
			b.StopTimer()
			start := time.Now()
			whole := runLevlab(b, bin, "matrix", "--top", "5", "--workers", "2", nearest)
			one += time.Since(start)
			start = time.Now()
			got := runLevlab(b, mpirun, "-np", "2", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo",
				bin, "matrix", "--top", "5", "--workers", "1", nearest)
			ranks += time.Since(start)
			if !bytes.Equal(got, whole) {
				b.Fatalf("mpirun -np 2: %d bytes, one process %d", len(got), len(whole))
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(ranks.Nanoseconds())/float64(b.N), "ns/op")
		b.ReportMetric(one.Seconds()/float64(b.N), "one-process-s")
	})

	short := write("short.txt", strs(4_473, 5, 20))
	shards := filepath.Join(dir, "merge")
	if err := os.Mkdir(shards, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 3 {
		runLevlab(b, bin, "matrix", "--workers", "2", "--shard", fmt.Sprintf("%d/3", i), "--out", shards, short)
	}
	b.Run("merge/lines=10001628", func(b *testing.B) {
		merged := filepath.Join(dir, "merged.txt")
		timeCommand(b, `()`, "", bin, "merge", "--out", merged, shards)
		data, err := os.ReadFile(merged)
		if err != nil {
			b.Fatal(err)
		}
		if lines := bytes.Count(data, []byte("\n")); lines != 10_001_628 {
			b.Fatalf("merged %d lines, want 10,001,628", lines)
		}
	})
}

// runLevlab runs the levlab at bin (or mpirun) and returns its output; a
// failure ends the benchmark.
func runLevlab(b *testing.B, bin string, args ...string) []byte {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("levlab %s: %v\n%s", strconv.Quote(fmt.Sprint(args)), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// BenchmarkScaleOutHuge times one pair of random DNA of 10,000,000 symbols
// under mpirun -np 2, a worker a rank (the peers experiment's inputs; 10¹⁴
// cells, about 6 minutes on 2 cores): the whole command (ns/op), the
// computation as it prints it (compute-s) and the largest rank's peak
// resident memory (MB).
//
//	go test -tags mpi -run '^$' -bench '^BenchmarkScaleOutHuge$' -benchtime 1x ./cmd/levlab
func BenchmarkScaleOutHuge(b *testing.B) {
	mpirun := findMpirun(b)
	bin := buildLevlab(b, "mpi")
	dir := b.TempDir()
	x, y, err := experiments.Inputs(experiments.Experiment{Name: "peers"},
		experiments.Point{Case: experiments.CaseDNA, LenA: 10_000_000, LenB: 10_000_000})
	if err != nil {
		b.Fatal(err)
	}
	a, c := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	if err := errors.Join(os.WriteFile(a, x, 0o644), os.WriteFile(c, y, 0o644)); err != nil {
		b.Fatal(err)
	}
	b.Run("distance/n=10000000/run=mpirun-2-ranks-1-worker", func(b *testing.B) {
		timeCommand(b, `"distance":([0-9]+)`, `"seconds":([0-9.e-]+)`, mpirun, "-np", "2", "--mca", "btl", "self,vader",
			"--mca", "oob_tcp_if_include", "lo", bin, "distance", "--json", "--files", "--workers", "1", a, c)
	})
}
