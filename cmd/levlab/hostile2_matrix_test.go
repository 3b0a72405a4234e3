package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/sysmem"
)

// TestMatrixFullDiskThenMore: the output file of matrix is often shared,
// as in { levlab matrix FILE; echo "status $?"; } > out. When matrix runs
// into a file-size limit (bash's ulimit -f, no trap: Go's runtime does not
// die of SIGXFSZ, the write fails with EFBIG) it cuts the file back to its
// last whole line, and the shell's next write lands right after that
// line, not past a gap of zero bytes where the torn line was.
func TestMatrixFullDiskThenMore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("no bash for ulimit -f: %v", err)
	}
	bin := buildLevlab(t)
	var strs strings.Builder
	for i := range 400 {
		strs.WriteString(strings.Repeat("ACGT"[i%4:i%4+1], 5+i%23) + "\n")
	}
	in := writeFile(t, "strings", strs.String())
	out := filepath.Join(t.TempDir(), "out.tsv")
	// ulimit -f counts blocks of 1024 bytes: the output stops at 64 KiB,
	// within the first 64 KiB block matrix writes, which ends mid-line.
	script := `{ (ulimit -f 64; exec "$0" matrix "$1" 2>"$2.err"); echo "status $?"; } > "$2"`
	if msg, err := exec.Command(bash, "-c", script, bin, in, out).CombinedOutput(); err != nil {
		t.Fatalf("bash: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	stderr, _ := os.ReadFile(out + ".err")
	if at := bytes.IndexByte(data, 0); at >= 0 {
		t.Fatalf("the output holds a zero byte at %d of %d: a gap where the torn line was: %q", at, len(data), data[max(0, at-30):min(len(data), at+30)])
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if last := lines[len(lines)-1]; last != "status 1" {
		t.Fatalf("the shell's line after matrix is %q, want \"status 1\"; stderr: %s", last, stderr)
	}
	if len(lines) < 1000 {
		t.Fatalf("only %d lines before the limit; stderr: %s", len(lines), stderr)
	}
	for i, line := range lines[:len(lines)-1] {
		f := strings.Split(line, "\t")
		ok := len(f) == 3
		for _, v := range f {
			if _, err := strconv.Atoi(v); err != nil {
				ok = false
			}
		}
		if !ok {
			t.Fatalf("line %d %q is not I, J and D", i+1, line)
		}
	}
	if !strings.HasPrefix(string(stderr), "levlab: matrix: ") || !strings.Contains(string(stderr), "file too large") ||
		!strings.Contains(string(stderr), "cut back to its last whole line") ||
		strings.Contains(string(stderr), "goroutine ") {
		t.Errorf("stderr: %s", stderr)
	}
}

// underAS runs the levlab at bin with args under prlimit --as=bytes
// (ulimit -v) for at most 60 s and returns its exit status and stderr; it
// skips the test where there is no prlimit.
func underAS(t *testing.T, bin string, bytes int64, args ...string) (int, string) {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skipf("no prlimit for ulimit -v: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stderr strings.Builder
	cmd := exec.CommandContext(ctx, prlimit, append([]string{"--as=" + strconv.FormatInt(bytes, 10), bin}, args...)...)
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("levlab %q under ulimit -v %d still ran after 60 s", args, bytes)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("levlab %q: %v", args, err)
	}
	code := 0
	if exit != nil {
		code = exit.ExitCode()
	}
	return code, stderr.String()
}

// refusedForMemory checks that a run under a memory limit was refused as
// the memory checks refuse: exit 1, the memory needed and the limit named,
// each of want said, and no trace of the Go runtime running out.
func refusedForMemory(t *testing.T, what string, code int, stderr string, want ...string) {
	t.Helper()
	short := stderr[:min(len(stderr), 600)]
	if code != exitFailure || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "runtime:") ||
		strings.Contains(stderr, "fatal error") {
		t.Errorf("%s: exit %d, want 1 and no trace:\n%s", what, code, short)
		return
	}
	for _, w := range append([]string{"needs about", "ulimit -v leaves this process"}, want...) {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr does not say %q:\n%s", what, w, short)
		}
	}
}

// TestMatrixMemoryCountsWorkers: what matrix holds grows with its workers:
// each holds a row of results a string of FILE_B as it computes, and lev
// keeps up to four rows a worker ready ahead of the one printed. A million
// empty strings (every pair at distance 0, every pair printed) on eight
// workers hold about a GB of rows: under ulimit -v 2.2 GB (a few hundred
// MiB left to the process) matrix says so before it starts, rather than
// counting a hundred bytes a string and dying of an out-of-memory trace.
func TestMatrixMemoryCountsWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	empty := writeFile(t, "empty", strings.Repeat("\n", 1_000_000))
	code, stderr := underAS(t, bin, 2_200_000_000, "matrix", "--workers", "8", empty)
	refusedForMemory(t, "matrix --workers 8 of a million empty lines", code, stderr, "--workers")
}

// TestMatchMemoryCountsTables: apm-fast's tables of a pattern take 2 KiB
// for every 64 of its bytes (a word for each of 256 byte values), 32 times
// the pattern: sixteen patterns of 2 MB take 1 GiB of tables, which match
// says before it builds them, under ulimit -v 2.2 GB, rather than counting
// 64 bytes a pattern and dying of an out-of-memory trace.
func TestMatchMemoryCountsTables(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	long := strings.Repeat(strings.Repeat("ACGT", 500_000)+"\n", 16)
	pats := writeFile(t, "pats", long)
	text := writeFile(t, "text", "ACGTACGT")
	code, stderr := underAS(t, bin, 2_200_000_000, "match", "--max-input", "64MiB", "--patterns", pats, text)
	refusedForMemory(t, "match of sixteen patterns of 2 MB", code, stderr, "16 patterns", "2 KiB for every 64 bytes")
}

// TestAlignPeakWithinCheck: what align checks before it starts
// (alignMemory, 48 bytes a symbol) bounds what it then takes, in every
// format: its peak resident memory stays within that, the inputs and the
// runtime's own. --format pretty drew the whole alignment's columns at
// once, some 120 bytes a symbol, and passed a check it then outgrew.
func TestAlignPeakWithinCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	const gnuTime = "/usr/bin/time" // make deps installs it
	if _, err := os.Stat(gnuTime); err != nil {
		t.Skipf("no GNU time to measure levlab's own peak: %v", err)
	}
	bin := buildLevlab(t)
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ACGT"[rng.IntN(4)]
		}
		return b
	}
	near := func(a []byte) []byte { // one symbol in a hundred changed
		b := bytes.Clone(a)
		for i := 0; i < len(b); i += 100 {
			b[i] = "ACGT"[rng.IntN(4)]
		}
		return b
	}
	simA := random(2_000_000)
	simB := near(simA)
	for _, in := range []struct {
		name string
		a, b []byte
	}{
		{"two 2 MB inputs 1% apart", simA, simB},
	} {
		pa, pb := writeFile(t, "a", string(in.a)), writeFile(t, "b", string(in.b))
		for _, format := range alignFormats {
			for _, runes := range []bool{false, true} {
				args := []string{"align", "--files", "--format", format, pa, pb}
				if runes {
					args = append(args, "--runes")
				}
				// GNU time forks levlab from a small process: the child's
				// peak through os/exec would count this test's own pages,
				// shared with it until its exec (vfork).
				peakFile := filepath.Join(t.TempDir(), "peak")
				cmd := exec.Command(gnuTime, append([]string{"-f", "%M", "-o", peakFile, bin}, args...)...)
				var stderr strings.Builder
				cmd.Stdout, cmd.Stderr = io.Discard, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("levlab %q: %v\n%s", args, err, stderr.String())
				}
				kib, err := os.ReadFile(peakFile)
				if err != nil {
					t.Fatal(err)
				}
				peakKiB, err := strconv.ParseInt(strings.TrimSpace(string(kib)), 10, 64)
				if err != nil {
					t.Fatalf("GNU time's %%M: %q: %v", kib, err)
				}
				peak := peakKiB << 10
				bound := alignMemory(len(in.a), len(in.b)) + int64(len(in.a)+len(in.b)) + 32<<20
				t.Logf("%s, %s runes=%v: peak %s, bound %s", in.name, format, runes, sysmem.Size(peak), sysmem.Size(bound))
				if peak > bound {
					t.Errorf("%s, --format %s (runes %v): peak %s, more than the %s align checks for (with the inputs and 32 MiB)",
						in.name, format, runes, sysmem.Size(peak), sysmem.Size(bound))
				}
			}
		}
	}
}

// TestMatchManyPatternsUnderLimit: 200,000 short patterns, whose tables
// once took 12 KiB each to the end (2.4 GB), are counted a batch at a time
// in a few MiB: under ulimit -v 2.2 GB (a few hundred MiB left to the
// process) match prints every count, where it died of an out-of-memory
// trace.
func TestMatchManyPatternsUnderLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	rng := rand.New(rand.NewPCG(5, 6))
	var pats strings.Builder
	for range 200_000 {
		for range 8 {
			pats.WriteByte("ACGT"[rng.IntN(4)])
		}
		pats.WriteByte('\n')
	}
	text := make([]byte, 10_000)
	for i := range text {
		text[i] = "ACGT"[rng.IntN(4)]
	}
	pf, tf := writeFile(t, "pats", pats.String()), writeFile(t, "text", string(text))
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skipf("no prlimit for ulimit -v: %v", err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prlimit, "--as=2200000000", bin, "match", "-k", "1", "--patterns", pf, tf)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("match of 200,000 patterns under ulimit -v 2.2 GB: %v\n%.600s", err, stderr.String())
	}
	if n := bytes.Count(stdout.Bytes(), []byte{'\n'}); n != 200_000 || stderr.Len() > 0 {
		t.Errorf("match of 200,000 patterns under ulimit -v 2.2 GB: %d lines, stderr %q", n, stderr.String())
	}
}

// TestMeasureStrings: the shape matrix checks its memory on is that of the
// strings splitStrings then cuts: as many, none longer.
func TestMeasureStrings(t *testing.T) {
	for _, in := range []string{
		"", "\n", "a", "a\n", "a\nbb\n\nccc", "a\r\nbb\r\n", "\xef\xbb\xbfkitten\nsitting\n",
		">h\nAC\nGT\n>i\n\n>j\nA", "\xef\xbb\xbf>h\nACGT\nA\n", ">only a header\n", ">h\n\n\nAC\n",
	} {
		strs := splitStrings([]byte(in))
		sh := measureStrings([]byte(in))
		longest := 0
		for _, s := range strs {
			longest = max(longest, len(s))
		}
		if sh.strs != int64(len(strs)) || sh.longest < int64(longest) || sh.size > int64(len(in)) {
			t.Errorf("measureStrings(%q) = %+v; splitStrings cuts %d strings, the longest %d bytes", in, sh, len(strs), longest)
		}
	}
}
