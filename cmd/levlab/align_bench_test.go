package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/levlab/levlab/experiments"
)

// BenchmarkAlignCommand times the whole command the alignment bar names,
// levlab align --files A B (reading, aligning, printing the CIGAR), beside
// edlib-aligner -m NW -p -f CIG_STD on the same sequences as FASTA, in one
// run: 1M × 1M DNA 1% diverged and 100k × 100k random DNA (the align
// experiment's inputs). MB is the process's peak resident memory, as GNU
// time (/usr/bin/time, Debian's time) reports it: a child of the test
// process would count the test's own memory, which its start shares.
// Both must print the same distance. edlib-aligner (Debian: apt-get
// install edlib-aligner) is skipped, saying so, where it is not on PATH.
//
//	go test -run '^$' -bench AlignCommand -benchtime 3x ./cmd/levlab
func BenchmarkAlignCommand(b *testing.B) {
	bin := buildLevlab(b)
	dir := b.TempDir()
	edlib, edlibErr := exec.LookPath("edlib-aligner")
	for _, p := range []experiments.Point{
		{Case: experiments.CaseDiverged, LenA: 1000000, LenB: 1000000},
		{Case: experiments.CaseDNA, LenA: 100000, LenB: 100000},
	} {
		x, y, err := experiments.Inputs(experiments.Experiment{Name: "align"}, p)
		if err != nil {
			b.Fatal(err)
		}
		files := map[string][]byte{"a.txt": x, "b.txt": y,
			"a.fa": fmt.Appendf(nil, ">a\n%s\n", x), "b.fa": fmt.Appendf(nil, ">b\n%s\n", y)}
		path := func(name string) string { return filepath.Join(dir, p.Case+"-"+name) }
		for name, data := range files {
			if err := os.WriteFile(path(name), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		prefix := fmt.Sprintf("case=%s/n=%d/", p.Case, p.LenA)
		b.Run(prefix+"prog=levlab", func(b *testing.B) {
			timeCommand(b, `^([0-9]+)\t`, "", bin, "align", "--files", path("a.txt"), path("b.txt"))
		})
		// levlab on one worker too, so that the report can set it
		// beside edlib-aligner's one thread worker for worker.
		b.Run(prefix+"prog=levlab-one-worker", func(b *testing.B) {
			timeCommand(b, `^([0-9]+)\t`, "", bin, "align", "--workers", "1", "--files", path("a.txt"), path("b.txt"))
		})
		b.Run(prefix+"prog=edlib-aligner", func(b *testing.B) {
			if edlibErr != nil {
				b.Skipf("edlib-aligner: %v (Debian: apt-get install edlib-aligner)", edlibErr)
			}
			timeCommand(b, `score = ([0-9]+)`, "", edlib, "-m", "NW", "-p", "-f", "CIG_STD", path("a.fa"), path("b.fa"))
		})
	}
}

// distances are what each input's commands printed, to check they agree.
var distances = map[string]int{}

// timeCommand runs the command b.N times under GNU time, reporting its
// peak resident memory (MB) and checking the distance the expression
// distance finds in its output against the other command's on the same
// input. compute, where not empty, finds the seconds the command says its
// computation took, reported as compute-s (their mean).
func timeCommand(b *testing.B, distance, compute string, name string, args ...string) {
	re := regexp.MustCompile(distance)
	var computeRe *regexp.Regexp
	if compute != "" {
		computeRe = regexp.MustCompile(compute)
	}
	computeSum := 0.0
	gnuTime, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		b.Skipf("no GNU time to measure memory with: %v (Debian: apt-get install time)", err)
	}
	report := filepath.Join(b.TempDir(), "maxrss")
	var rss int64
	var out []byte
	for b.Loop() {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(gnuTime, append([]string{"-f", "%M", "-o", report, name}, args...)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, stderr.Bytes())
		}
		kib, err := os.ReadFile(report)
		if err != nil {
			b.Fatal(err)
		}
		k, err := strconv.ParseInt(string(bytes.TrimSpace(kib)), 10, 64)
		if err != nil {
			b.Fatalf("GNU time wrote %q, not kilobytes", kib)
		}
		rss = max(rss, k)
		out = stdout.Bytes()
		if computeRe != nil {
			m := computeRe.FindSubmatch(out)
			if m == nil {
				b.Fatalf("%s printed no computation time (%s): %.200q", name, compute, out)
			}
			sec, err := strconv.ParseFloat(string(m[1]), 64)
			if err != nil {
				b.Fatalf("%s: computation time %q: %v", name, m[1], err)
			}
			computeSum += sec
		}
	}
	if computeRe != nil {
		b.ReportMetric(computeSum/float64(b.N), "compute-s")
	}
	m := re.FindSubmatch(out)
	if m == nil {
		b.Fatalf("%s printed no distance (%s): %.200q", name, distance, out)
	}
	d, _ := strconv.Atoi(string(m[1]))
	input := filepath.Dir(b.Name())
	if prev, ok := distances[input]; ok && prev != d {
		b.Fatalf("%s: distance %d, the other command's %d", name, d, prev)
	}
	distances[input] = d
	b.ReportMetric(float64(rss)/1024, "MB")
}
