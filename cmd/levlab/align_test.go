package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// parseCIGAR reads an extended CIGAR back into edits.
func parseCIGAR(t *testing.T, cigar string) []lev.Edit {
	t.Helper()
	edits := []lev.Edit{}
	if !regexp.MustCompile(`^([0-9]+[=XID])*$`).MatchString(cigar) {
		t.Fatalf("CIGAR %q is not runs of =, X, I and D", cigar)
	}
	for _, m := range regexp.MustCompile(`([0-9]+)([=XID])`).FindAllStringSubmatch(cigar, -1) {
		n, _ := strconv.Atoi(m[1])
		edits = append(edits, lev.Edit{Op: lev.Op(m[2][0]), Len: n})
	}
	return edits
}

// wantAlignment runs levlab align with args and checks the one line it
// prints: the distance, and a CIGAR that aligns a and b (compared as
// symbols of S) at that distance.
func wantAlignment[S comparable](t *testing.T, a, b []S, d int, args ...string) {
	t.Helper()
	stdout, stderr, code := levlab(t, append([]string{"align"}, args...)...)
	if code != exitOK || stderr != "" {
		t.Fatalf("levlab align %q: exit status %d, stderr %q", args, code, stderr)
	}
	line, ok := strings.CutSuffix(stdout, "\n")
	dist, cigar, tab := strings.Cut(line, "\t")
	if !ok || !tab || strings.Contains(line, "\n") {
		t.Fatalf("levlab align %q printed %q, want DISTANCE<TAB>CIGAR on one line", args, stdout)
	}
	got, err := strconv.Atoi(dist)
	if err != nil || got != d {
		t.Errorf("levlab align %q: distance %q, want %d", args, dist, d)
	}
	al := lev.Alignment{Distance: got, Edits: parseCIGAR(t, cigar)}
	if msg := levtest.CheckAlignment(a, b, al, d); msg != "" {
		t.Errorf("levlab align %q: CIGAR %q: %s", args, cigar, msg)
	}
}

func TestAlignLiterals(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"kitten", "sitting", 3},
		{"", "", 0},
		{"", "héllo", 5},
		{"abc", "", 3},
		{"héllo wörld", "hello world", 2}, // runes, not bytes
		{"日本語のテキスト", "日本のテキスト", 1},
	} {
		for _, w := range []string{"1", "2"} {
			wantAlignment(t, []rune(c.a), []rune(c.b), c.d, "--workers", w, c.a, c.b)
		}
	}
	stdout, _, _ := levlab(t, "align", "kitten", "sitting")
	if stdout != "3\t1X3=1X1=1D\n" {
		t.Errorf("levlab align kitten sitting printed %q", stdout)
	}
}

func TestAlignFiles(t *testing.T) {
	rng := levtest.NewRand(t)
	a := levtest.RandomBytes(rng, 30000, levtest.DNA)
	b := levtest.Mutate(rng, a, 300, levtest.DNA)
	pa, pb := writeFile(t, "a", string(a)), writeFile(t, "b", string(b))
	wantAlignment(t, a, b, levtest.Reference(a, b), "--files", pa, pb)

	// Bytes by default, runes with --runes; a trailing newline counts.
	x, y := "héllo\n", "hello"
	px, py := writeFile(t, "x", x), writeFile(t, "y", y)
	wantAlignment(t, []byte(x), []byte(y), 3, "--files", px, py)
	wantAlignment(t, []rune(x), []rune(y), 2, "--files", "--runes", px, py)

	// One symbol against a long string: the right answer at once.
	long := strings.Repeat("ab", 500000)
	pl, p1 := writeFile(t, "long", long), writeFile(t, "one", "b")
	stdout, _, code := levlab(t, "align", "--files", pl, p1)
	if want := "999999\t999999I1=\n"; code != exitOK || stdout != want {
		t.Errorf("levlab align of 10^6 bytes and 1: %q, status %d; want %q", stdout, code, want)
	}
}

func TestAlignMax(t *testing.T) {
	for _, c := range []struct {
		max, want string
	}{
		{"3", "3\t1X3=1X1=1D\n"},
		{"2", "3\t*\n"},
		{"0", "1\t*\n"},
	} {
		stdout, stderr, code := levlab(t, "align", "--max", c.max, "kitten", "sitting")
		if code != exitOK || stdout != c.want {
			t.Errorf("levlab align --max %s kitten sitting: %q (status %d, %q), want %q", c.max, stdout, code, stderr, c.want)
		}
	}
	stdout, _, _ := levlab(t, "align", "--max", "2", "--format", "json", "kitten", "sitting")
	res := decodeJSON[alignResult](t, "align --max --format json", stdout)
	if res.Distance != 3 || res.CIGAR != nil || res.Max == nil || *res.Max != 2 {
		t.Errorf("levlab align --max 2 --format json: %s", stdout)
	}
	stdout, _, _ = levlab(t, "align", "--max", "2", "--format", "pretty", "kitten", "sitting")
	if !strings.Contains(stdout, "more than 2") {
		t.Errorf("levlab align --max 2 --format pretty: %q does not say the distance is past the cap", stdout)
	}
}

func TestAlignJSON(t *testing.T) {
	stdout, stderr, code := levlab(t, "align", "--format", "json", "--workers", "1", "kitten", "sitting")
	if code != exitOK || stderr != "" {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	res := decodeJSON[alignResult](t, "align --format json", stdout)
	want := alignResult{Unit: "runes", LenA: 6, LenB: 7, Distance: 3, Matches: 4, Substitutions: 2, Deletions: 1, Workers: 1}
	if res.CIGAR == nil || *res.CIGAR != "1X3=1X1=1D" || res.Seconds < 0 {
		t.Errorf("cigar %v, seconds %v", res.CIGAR, res.Seconds)
	}
	res.CIGAR, res.Seconds = nil, 0
	if res != want {
		t.Errorf("levlab align --format json kitten sitting = %+v, want %+v", res, want)
	}
}

func TestAlignPretty(t *testing.T) {
	stdout, _, code := levlab(t, "align", "--format", "pretty", "kitten", "sitting")
	want := `distance 3: 4 matches, 2 substitutions, 0 only in A, 1 only in B

A 1 kitten- 6
    .|||.|
B 1 sitting 7
`
	if code != exitOK || stdout != want {
		t.Errorf("pretty kitten sitting:\n%s\nwant:\n%s", stdout, want)
	}
	// Wide runes take two columns: the lines stay in step.
	stdout, _, _ = levlab(t, "align", "--format", "pretty", "日本語のテキスト", "日本のテキスト")
	lines := strings.Split(stdout, "\n")
	if len(lines) < 5 || lines[2] != "A 1 日本語のテキスト 8" || lines[4] != "B 1 日本- のテキスト 7" ||
		lines[3] != "    | | "+"  | | | | |" {
		t.Errorf("pretty of wide runes:\n%s", stdout)
	}

	// Two different symbols that do not print are drawn alike, and still a
	// substitution.
	stdout, _, code = levlab(t, "align", "--format", "pretty", "a\x01b", "a\x02b")
	if code != exitOK || !strings.Contains(stdout, "A 1 a·b 3\n    |.|\nB 1 a·b 3\n") {
		t.Errorf("pretty of two unprintable symbols (status %d):\n%s", code, stdout)
	}

	// Blocks of 60 columns, each line's positions beside it; unprintable
	// bytes drawn as ·.
	a := strings.Repeat("a", 100) + "\x00"
	b := strings.Repeat("a", 50) + strings.Repeat("b", 50)
	pa, pb := writeFile(t, "a", a), writeFile(t, "b", b)
	stdout, _, _ = levlab(t, "align", "--format", "pretty", "--files", pa, pb)
	blocks := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n\n")
	if len(blocks) != 3 {
		t.Fatalf("pretty of 101 and 100 bytes: %d blocks, want a header and two:\n%s", len(blocks), stdout)
	}
	// Each side, its gaps dropped, reads back whole, its positions running
	// on from block to block.
	for side, want := range map[int]string{0: strings.Repeat("a", 100) + "·", 2: b} {
		var got strings.Builder
		next := 1
		for k, block := range blocks[1:] {
			lines := strings.Split(block, "\n")
			f := strings.Fields(lines[side][1:])
			if len(f) != 3 {
				t.Fatalf("block %d line %q: want the first position, the symbols, the last", k, lines[side])
			}
			syms := strings.ReplaceAll(f[1], "-", "")
			if n := utf8.RuneCountInString(f[1]); n != 60 && k == 0 {
				t.Errorf("block %d holds %d columns, want 60", k, n)
			}
			if f[0] != strconv.Itoa(next) || f[2] != strconv.Itoa(next+utf8.RuneCountInString(syms)-1) {
				t.Errorf("block %d line %q: positions %s…%s, want from %d", k, lines[side], f[0], f[2], next)
			}
			next += utf8.RuneCountInString(syms)
			got.WriteString(syms)
		}
		if got.String() != want {
			t.Errorf("pretty's line %d reads %q, want %q", side, got.String(), want)
		}
	}
}

func TestAlignUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--format", "xml", "a", "b"}, []string{`"xml"`, "cigar, pretty, json"}},
		{[]string{"a"}, []string{"got 1", `"a"`}},
		{[]string{"--max", "-1", "a", "b"}, []string{"max = -1"}},
		{[]string{"--workers", "5000", "a", "b"}, []string{"workers = 5000"}},
		{[]string{"--runes", "a", "b"}, []string{"--runes", "--files"}},
		{[]string{"--nope", "a", "b"}, []string{"-nope"}},
		// A bad value is reported before any file is read.
		{[]string{"--format", "xml", "--files", "/nonexistent/a", "/nonexistent/b"}, []string{`"xml"`}},
	}
	for _, c := range cases {
		checkFailure(t, append([]string{"align"}, c.args...), exitUsage, c.want...)
	}
}

func TestAlignFailures(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	present := writeFile(t, "present", "abc")
	bad := writeFile(t, "bad", "ab\xffc")
	checkFailure(t, []string{"align", "--files", missing, present}, exitFailure, missing)
	checkFailure(t, []string{"align", "--files", "--runes", present, bad}, exitFailure, bad, "UTF-8", "byte 2")
	checkFailure(t, []string{"align", "--files", "--max-input", "2", present, present}, exitFailure, present, "--max-input")
	// Without --runes the bytes are compared: no error.
	wantAlignment(t, []byte("abc"), []byte("ab\xffc"), 1, "--files", present, bad)
}
