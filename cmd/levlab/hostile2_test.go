package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOnlyEmpty: an empty --only (an unset shell variable) is bad usage,
// as --only , is, not "every experiment".
func TestOnlyEmpty(t *testing.T) {
	checkFailure(t, []string{"run", "--only", "", "--list"}, exitUsage, `--only ""`, "names no experiment")
	checkFailure(t, []string{"run", "--only=", "--reps", "1", "--out", t.TempDir()}, exitUsage, `--only ""`)
	checkFailure(t, []string{"run", "--only", " , ", "--list"}, exitUsage, `--only " , "`)
}

// TestRunesInvalidUTF8: distance, align and matrix refuse files that are not
// UTF-8 under --runes alike, naming the file and the byte offset; two files
// of different invalid bytes are not at distance 0.
func TestRunesInvalidUTF8(t *testing.T) {
	a := writeFile(t, "a", "ab\xffc")
	b := writeFile(t, "b", "ab\xfec")
	for _, cmd := range [][]string{
		{"distance", "--files", "--runes", a, b},
		{"align", "--files", "--runes", a, b},
		{"matrix", "--runes", a, b},
	} {
		checkFailure(t, cmd, exitFailure, a, "not valid UTF-8", "byte 2", "0xff")
	}
}

// TestHugeTile: a tile past any input is the whole input, for every
// algorithm that takes one, not a panic.
func TestHugeTile(t *testing.T) {
	for _, tile := range []string{strconv.Itoa(1<<62 - 1 + 1<<62), "4611686018427387905"} {
		for _, alg := range []string{"tiled", "tiled-barrier", "myers-parallel", "auto"} {
			stdout, stderr, code := levlab(t, "distance", "--algo", alg, "--tile", tile, "kitten", "sitting")
			if code != exitOK || stdout != "3\n" {
				t.Errorf("distance --algo %s --tile %s: exit %d, %q\n%s", alg, tile, code, stdout, stderr)
			}
		}
	}
}

// TestReportScaleUnknown: an unknown --scale is bad usage for report as for
// run, naming the valid scales.
func TestReportScaleUnknown(t *testing.T) {
	checkFailure(t, []string{"report", "--scale", "big", "--results", t.TempDir()}, exitUsage, `"big"`, "quick", "paper")
	checkFailure(t, []string{"report", "--scale", "", "--results", t.TempDir()}, exitUsage, `""`, "quick", "paper")
	checkFailure(t, []string{"run", "--scale", "big", "--list"}, exitUsage, `"big"`, "quick", "paper")
}

// TestOutPathProblems: an --out that cannot be what the command writes
// says what it is: a folder where report wants a file, a link to nothing
// or a file where run wants a folder.
func TestOutPathProblems(t *testing.T) {
	dir := t.TempDir()
	checkFailure(t, []string{"report", "--out", dir, "--results", "../../results"}, exitUsage, "--out", dir, "is a folder", "file")

	dangling := filepath.Join(t.TempDir(), "out")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	checkFailure(t, []string{"run", "--only", "s001-tile", "--reps", "1", "--out", dangling}, exitFailure, dangling, "link", filepath.Join(dir, "nowhere"), "does not exist")

	file := writeFile(t, "plain", "x")
	checkFailure(t, []string{"run", "--only", "s001-tile", "--reps", "1", "--out", file}, exitFailure, file, "not a folder")
}

// prlimitAndLevlab returns the prlimit command, to run levlab under a
// limit, and levlab built; it skips the test in -short or where there is
// no prlimit.
func prlimitAndLevlab(t *testing.T) (prlimit, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil || runtime.GOOS != "linux" {
		t.Skipf("no prlimit to run levlab under a limit: %v", err)
	}
	return prlimit, buildLevlab(t)
}

// TestMatrixFullDisk: when the output file cannot grow (a full disk, here
// a file-size limit) matrix keeps its promise of whole lines: the file is
// cut back to its last whole line, and the exit status is 1.
func TestMatrixFullDisk(t *testing.T) {
	prlimit, bin := prlimitAndLevlab(t)
	var strs strings.Builder
	for i := range 400 {
		strs.WriteString(strings.Repeat("ACGT"[i%4:i%4+1], 5+i%23) + "\n")
	}
	in := writeFile(t, "strings", strs.String())
	outPath := filepath.Join(t.TempDir(), "out.tsv")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var stderr strings.Builder
	cmd := exec.Command(prlimit, "--fsize=65536", bin, "matrix", in)
	cmd.Stdout, cmd.Stderr = out, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
		t.Fatalf("matrix into a file limited to 64 KiB: %v, want exit status 1\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("the output (%d bytes) does not end with a whole line: %q", len(data), data[max(0, len(data)-40):])
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if f := strings.Split(line, "\t"); len(f) != 3 {
			t.Fatalf("line %d %q is not I, J and D", i+1, line)
		}
	}
	if !strings.Contains(stderr.String(), "levlab: matrix: ") || strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestMatrixBOM: a UTF-8 byte-order mark at the start of a file is no part
// of its first string, and does not hide a FASTA file's '>'.
func TestMatrixBOM(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	fasta := writeFile(t, "f.fa", bom+">one\nACGT\nAC\n>two\nACGA\n")
	lines := writeFile(t, "l.txt", bom+"kitten\nsitting\n")
	for _, c := range []struct{ file, want string }{
		{fasta, "1\t2\t2\n"}, // ACGTAC against ACGA
		{lines, "1\t2\t3\n"}, // kitten against sitting
	} {
		for _, runes := range []bool{false, true} {
			args := []string{"matrix", c.file}
			if runes {
				args = []string{"matrix", "--runes", c.file}
			}
			if stdout, stderr, code := levlab(t, args...); code != exitOK || stdout != c.want {
				t.Errorf("levlab %q: exit %d, %q; want %q\n%s", args, code, stdout, c.want, stderr)
			}
		}
	}
}

// TestMatrixRunesWhere: under --runes, matrix names the byte offset in the
// file and the string of the first bad byte, FASTA headers not counted.
func TestMatrixRunesWhere(t *testing.T) {
	fa := writeFile(t, "bad.fa", ">h\xff\nAC\n>two\nA\nC\xfe\n")
	checkFailure(t, []string{"matrix", "--runes", fa}, exitFailure, fa+" is not valid UTF-8", "byte 15 (0xfe", "in string 2")
}

// TestMemoryCheckedFirst: matrix, match and align know what they will need
// before they allocate it, and under a limit that cannot hold it (ulimit
// -v here) exit 1 at once naming how much and the limit — not an
// out-of-memory trace, nor hours of work first.
func TestMemoryCheckedFirst(t *testing.T) {
	prlimit, bin := prlimitAndLevlab(t)
	// Under 2.2 GB of address space the Go runtime leaves a few hundred
	// MiB; each input below needs more than 0.8 GiB.
	empty := writeFile(t, "empty", strings.Repeat("\n", 8_000_000))
	pats := writeFile(t, "pats", strings.Repeat("A\n", 16_000_000))
	text := writeFile(t, "text", "ACGTACGT")
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(name string) string {
		b := make([]byte, 8_000_000)
		for i := range b {
			b[i] = "ACGT"[rng.IntN(4)]
		}
		return writeFile(t, name, string(b))
	}
	a, b := random("a"), random("b")
	for _, args := range [][]string{
		{"matrix", "--max-input", "64MiB", "--top", "1", empty},
		{"match", "--max-input", "64MiB", "--patterns", pats, text},
		{"align", "--files", "--max-input", "64MiB", a, b},
	} {
		var stderr strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, prlimit, append([]string{"--as=2200000000", bin}, args...)...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		var exit *exec.ExitError
		msg := stderr.String()
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			t.Errorf("levlab %s under ulimit -v 2.2 GB still ran after 20 s", args[0])
		case !errors.As(err, &exit) || exit.ExitCode() != exitFailure:
			t.Errorf("levlab %s under ulimit -v 2.2 GB: %v, want exit status 1\n%.400s", args[0], err, msg)
		case !strings.Contains(msg, "needs about") || !strings.Contains(msg, "ulimit -v leaves this process") ||
			strings.Contains(msg, "goroutine ") || strings.Contains(msg, "runtime:"):
			t.Errorf("levlab %s under ulimit -v 2.2 GB: want the memory needed and the limit named, no trace:\n%.400s", args[0], msg)
		}
	}
}

// TestPatternsBOM: a byte-order mark at the start of a patterns file is no
// part of its first pattern.
func TestPatternsBOM(t *testing.T) {
	text := writeFile(t, "text", "ACGTACGT")
	pats := writeFile(t, "pats", "\xef\xbb\xbfACG\nTAC\n")
	if stdout, stderr, code := levlab(t, "match", "--patterns", pats, text); code != exitOK || stdout != "2\tACG\n2\tTAC\n" {
		t.Errorf("match --patterns with a BOM: exit %d, %q\n%s", code, stdout, stderr)
	}
}
