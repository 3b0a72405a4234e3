package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev/levtest"
)

// wantMatrix is levlab matrix's output from the reference: a against b
// (all: the pairs i < j of a), within k (−1: all), the top n (0: all).
func wantMatrix(a, b []string, all bool, k, top int) string {
	var out strings.Builder
	for i := range a {
		type pair struct{ j, d int }
		var row []pair
		for j := range b {
			if all && (j == i || (top == 0 && j < i)) {
				continue
			}
			d := levtest.ReferenceString(a[i], b[j])
			if k < 0 || d <= k {
				row = append(row, pair{j, d})
			}
		}
		if top > 0 {
			slices.SortStableFunc(row, func(x, y pair) int { return cmp.Compare(x.d, y.d) })
			row = row[:min(top, len(row))]
		}
		for _, p := range row {
			fmt.Fprintf(&out, "%d\t%d\t%d\n", i+1, p.j+1, p.d)
		}
	}
	return out.String()
}

func TestMatrix(t *testing.T) {
	rng := levtest.NewRand(t)
	var a, b []string
	for i := range 23 {
		a = append(a, string(levtest.RandomBytes(rng, rng.IntN(150), levtest.DNA)))
		if i%4 == 1 {
			a[i] = string(levtest.Mutate(rng, []byte(a[i-1]), 3, levtest.DNA))
		}
		b = append(b, string(levtest.RandomBytes(rng, rng.IntN(150), levtest.DNA)))
	}
	a[5] = "" // an empty line is the empty string
	// CRLF line ends, and no newline after the last line: which must not
	// be empty, or the file would end with a line end and hold one string
	// fewer (a string of length 0 is drawn once in 150).
	if a[len(a)-1] == "" {
		a[len(a)-1] = "A"
	}
	fileA := writeFile(t, "a.txt", strings.Join(a, "\r\n"))
	fileB := writeFile(t, "b.txt", strings.Join(b, "\n")+"\n")
	for _, tc := range []struct {
		args   []string
		b      []string
		all    bool
		k, top int
	}{
		{[]string{fileA}, a, true, -1, 0},
		{[]string{fileA, fileB}, b, false, -1, 0},
		{[]string{"--max", "40", "--workers", "3", fileA, fileB}, b, false, 40, 0},
		{[]string{"--top", "3", fileA, fileB}, b, false, -1, 3},
		{[]string{"--top", "2", "--max", "5", fileA}, a, true, 5, 2},
		{[]string{"--algo", "tworow", "--workers", "2", "--max", "60", fileA}, a, true, 60, 0},
		{[]string{"--runes", fileA}, a, true, -1, 0},
	} {
		stdout, stderr, code := levlab(t, append([]string{"matrix"}, tc.args...)...)
		if want := wantMatrix(a, tc.b, tc.all, tc.k, tc.top); code != exitOK || stderr != "" || stdout != want {
			t.Errorf("levlab matrix %q: exit %d, stderr %q\n got %.300q\nwant %.300q", tc.args, code, stderr, stdout, want)
		}
	}
}

func TestMatrixInputs(t *testing.T) {
	fasta := writeFile(t, "r.fa", ">read 1\nACGT\nAC\n>read 2\n\n>read 3\nACGA\n")
	stdout, _, code := levlab(t, "matrix", fasta)
	if want := "1\t2\t6\n1\t3\t2\n2\t3\t4\n"; code != exitOK || stdout != want {
		t.Errorf("FASTA: exit %d\n%q, want %q", code, stdout, want)
	}
	empty := writeFile(t, "empty.txt", "")
	if stdout, stderr, code := levlab(t, "matrix", empty, fasta); code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("an empty file: exit %d, %q, %q; want no pair and no error", code, stdout, stderr)
	}
	// Binary bytes are bytes; with --runes a line that is not UTF-8 is an
	// error naming it.
	bin := writeFile(t, "bin.txt", "a\xff\x00b\nab\n")
	if stdout, _, code := levlab(t, "matrix", bin); code != exitOK || stdout != "1\t2\t2\n" {
		t.Errorf("binary bytes: exit %d, %q; want 1 2 2", code, stdout)
	}
	checkFailure(t, []string{"matrix", "--runes", bin}, exitFailure, bin+" is not valid UTF-8", "byte 1 (0xff", "in string 1")
	// A line of 10^6 bytes against a short one.
	long := writeFile(t, "long.txt", strings.Repeat("A", 1_000_000)+"\nAC\n")
	if stdout, _, code := levlab(t, "matrix", "--max", "3", long); code != exitOK || stdout != "" {
		t.Errorf("a long line, max 3: exit %d, %q; want no pair", code, stdout)
	}
	if stdout, _, code := levlab(t, "matrix", long); code != exitOK || stdout != "1\t2\t999999\n" {
		t.Errorf("a long line: exit %d, %q", code, stdout)
	}
}

func TestMatrixUsageErrors(t *testing.T) {
	f := writeFile(t, "w.txt", "kitten\nsitting\n")
	checkFailure(t, []string{"matrix"}, exitUsage, "want FILE_A")
	checkFailure(t, []string{"matrix", f, f, f}, exitUsage, "3 arguments")
	checkFailure(t, []string{"matrix", "--max", "-1", f}, exitUsage, "max = -1")
	checkFailure(t, []string{"matrix", "--top", "0", f}, exitUsage, "top = 0")
	checkFailure(t, []string{"matrix", "--workers", "-1", f}, exitUsage, "workers = -1")
	checkFailure(t, []string{"matrix", "--algo", "nosuch", f}, exitUsage, `"nosuch"`)
	checkFailure(t, []string{"matrix", "--algo", "cuda-matrix", f}, exitUsage, "cuda-fast")
	checkFailure(t, []string{"matrix", filepath.Join(t.TempDir(), "none.txt")}, exitFailure, "none.txt")
	checkFailure(t, []string{"matrix", "--max-input", "4", f}, exitFailure, "input limit")
}

// TestMatrixNames: --names prints the strings (a FASTA record's header)
// in place of their numbers, tabs and backslashes escaped; --json one
// object a pair, the names under --names, read back by encoding/json.
func TestMatrixNames(t *testing.T) {
	words := writeFile(t, "w.txt", "kitten\r\nsit\\ting\nsi\tting\n")
	stdout, stderr, code := levlab(t, "matrix", "--names", words)
	if want := "kitten\tsit\\\\ting\t4\nkitten\tsi\\tting\t4\nsit\\\\ting\tsi\\tting\t2\n"; code != exitOK || stderr != "" || stdout != want {
		t.Errorf("--names: exit %d, %q\n got %q\nwant %q", code, stderr, stdout, want)
	}
	fasta := writeFile(t, "r.fa", ">read 1\nACGT\nAC\n>read 2\r\n\n>read 3\nACGA\n")
	stdout, _, code = levlab(t, "matrix", "--names", "--top", "1", fasta)
	if want := "read 1\tread 3\t2\nread 2\tread 3\t4\nread 3\tread 1\t2\n"; code != exitOK || stdout != want {
		t.Errorf("--names, FASTA: exit %d\n got %q\nwant %q", code, stdout, want)
	}
	stdout, _, code = levlab(t, "matrix", "--json", fasta, words)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != exitOK || len(lines) != 9 || lines[0] != `{"i":1,"j":1,"distance":6}` {
		t.Errorf("--json: exit %d, %d lines, first %q", code, len(lines), lines[0])
	}
	stdout, _, code = levlab(t, "matrix", "--json", "--names", "--max", "4", words)
	type pair struct {
		I, J, Distance int
		A, B           string
	}
	var got []pair
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var p pair
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("--json --names: %q: %v", l, err)
		}
		got = append(got, p)
	}
	want := []pair{{1, 2, 4, "kitten", `sit\ting`}, {1, 3, 4, "kitten", "si\tting"}, {2, 3, 2, `sit\ting`, "si\tting"}}
	if code != exitOK || !slices.Equal(got, want) {
		t.Errorf("--json --names: exit %d\n got %+v\nwant %+v", code, got, want)
	}
}
