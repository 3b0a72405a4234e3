package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkVerify times levlab verify of its default 1,000 cases (up to
// 20,000 symbols) through a fast program, levlab distance itself (--jobs
// auto: as many at once as there are cores, each held to its own; and
// --jobs 2, free to move), and through examples/ed_omp.c on 2 threads,
// whose O(m·n) antidiagonals take most of the time on the long cases: what
// a student waits for (go test -bench Verify -benchtime 3x ./cmd/levlab).
func BenchmarkVerify(b *testing.B) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		b.Skipf("no C compiler: %v", err)
	}
	omp := filepath.Join(b.TempDir(), "ed_omp")
	if out, err := exec.Command(cc, "-O2", "-fopenmp", "-o", omp, "../../examples/ed_omp.c").CombinedOutput(); err != nil {
		b.Fatalf("cc: %v\n%s", err, out)
	}
	bin := buildLevlab(b)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"levlab-distance", []string{"--", bin, "distance", "--files", "{a}", "{b}"}},
		{"levlab-distance-jobs2", []string{"--jobs", "2", "--", bin, "distance", "--files", "{a}", "{b}"}},
		{"ed_omp", []string{"--", omp, "{a}", "{b}"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code := run(append([]string{"verify", "--seed", "1"}, c.args...), io.Discard, io.Discard); code != exitOK {
					b.Fatalf("verify: exit %d", code)
				}
			}
		})
	}
}
