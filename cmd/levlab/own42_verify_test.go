package main

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/lev/levtest"
)

// cc compiles C source (a file of examples/, or text) into dir and
// returns the program's path; without a C compiler the test is skipped.
func cc(t *testing.T, dir, name, src string, flags ...string) string {
	t.Helper()
	compiler, err := exec.LookPath("cc")
	if err != nil {
		t.Skipf("no C compiler: %v", err)
	}
	if !strings.HasSuffix(src, ".c") {
		p := filepath.Join(dir, name+".c")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		src = p
	}
	out := filepath.Join(dir, name)
	args := append([]string{"-O2", "-o", out, src}, flags...)
	if b, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
		t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out
}

// examplesOnce builds the examples' programs once for every test here,
// as make examples does.
var (
	examplesOnce sync.Once
	examplesDir  string
	examplesErr  string
)

func examples(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles C; not in -short")
	}
	examplesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "levlab-examples-")
		if err != nil {
			examplesErr = err.Error()
			return
		}
		examplesDir = dir
		compiler, err := exec.LookPath("cc")
		if err != nil {
			examplesErr = "no C compiler: " + err.Error()
			return
		}
		for _, name := range []string{"ed_args", "ed_menu", "ed_file", "ed_fixed", "ed_seeded"} {
			if b, err := exec.Command(compiler, "-O2", "-Wall", "-Wextra", "-Werror", "-o", filepath.Join(dir, name), "../../examples/"+name+".c").CombinedOutput(); err != nil {
				examplesErr = string(b) + err.Error()
				return
			}
		}
	})
	if strings.HasPrefix(examplesErr, "no C compiler") {
		t.Skip(examplesErr)
	}
	if examplesErr != "" {
		t.Fatalf("building the examples: %s", examplesErr)
	}
	return examplesDir
}

// dp is the distance of two byte strings in C, for the test programs
// below, each wrong in one way a student's can be.
const dp = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define DIST(name, T) static long name(const T *a, long n, const T *b, long m) { \
	long *row = malloc((m + 1) * sizeof *row); \
	for (long j = 0; j <= m; j++) row[j] = j; \
	for (long i = 1; i <= n; i++) { \
		long diag = row[0]; \
		row[0] = i; \
		for (long j = 1; j <= m; j++) { \
			long up = row[j], best = diag + (a[i - 1] != b[j - 1]); \
			if (up + 1 < best) best = up + 1; \
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1; \
			row[j] = best; \
			diag = up; \
		} \
	} \
	long d = row[m]; \
	free(row); \
	return d; \
}
DIST(dist, unsigned char)
static unsigned char *slurp(const char *path, long *len) {
	FILE *f = fopen(path, "rb");
	if (!f) { perror(path); exit(1); }
	long cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap + 1);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += (long)got;
		if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}
`

// Programs of honest limits, each failing one trait of case.
const (
	// noEmptyProg takes no empty string, and is right on every other.
	noEmptyProg = dp + `int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	if (n == 0 || m == 0) { fprintf(stderr, "error: an empty string\n"); return 1; }
	printf("%ld\n", dist(a, n, b, m));
	return 0;
}
`
	// strlenProg keeps its strings as C strings: a NUL ends them.
	strlenProg = dp + `int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	printf("%ld\n", dist(a, strlen((char *)a), b, strlen((char *)b)));
	return 0;
}
`
	// chompProg strips a trailing line end from each string, as a
	// program that reads lines does.
	chompProg = dp + `int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	if (n > 0 && a[n - 1] == '\n') n--;
	if (m > 0 && b[m - 1] == '\n') m--;
	printf("%ld\n", dist(a, n, b, m));
	return 0;
}
`
	// wordsProg reads its strings with scanf's %s: white space splits
	// them. Each comes after an x, so that an empty one is a word too.
	wordsProg = dp + `int main(void) {
	static char a[1 << 20], b[1 << 20];
	if (scanf("%s %s", a, b) != 2) { a[0] = 0; b[0] = 0; }
	printf("distance %ld\n", dist((unsigned char *)a + 1, strlen(a + 1), (unsigned char *)b + 1, strlen(b + 1)));
	return 0;
}
`
	// utf8Prog decodes its input as UTF-8 text, as a Python program's
	// open().read() does, and fails on bytes that are not.
	utf8Prog = dp + `static int valid(const unsigned char *s, long n) {
	long i = 0;
	while (i < n) {
		unsigned c = s[i++];
		int k = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
		if (k < 0) return 0;
		while (k-- > 0) { if (i >= n || (s[i++] & 0xC0) != 0x80) return 0; }
	}
	return 1;
}
int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	if (!valid(a, n) || !valid(b, m)) { fprintf(stderr, "UnicodeDecodeError: invalid start byte\n"); return 1; }
	printf("%ld\n", dist(a, n, b, m));
	return 0;
}
`
	// hammingProg takes equal lengths only, and says so on stdout.
	hammingProg = dp + `int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	if (n != m) { printf("error: the strings must be of one length\n"); return 1; }
	printf("%ld\n", dist(a, n, b, m));
	return 0;
}
`
)

// verifyOut runs levlab verify and returns its stdout and exit status.
func verifyOut(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	stdout, stderr, code := levlab(t, append([]string{"verify", "--seed", "7"}, args...)...)
	if k := regexp.MustCompile(`inputs: (\S+)/a and`).FindStringSubmatch(stdout); k != nil {
		os.RemoveAll(k[1])
	}
	return stdout, stderr, code
}

// The shapes of program verify takes besides two files: the strings as
// arguments ({a:text} {b:text}), a menu on stdin (--stdin), one input
// file (--input, {input}), and a program that makes its own strings but
// takes files when asked.
func TestVerifyShapes(t *testing.T) {
	ex := examples(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"arguments", []string{"--", filepath.Join(ex, "ed_args"), "{a:text}", "{b:text}"}},
		{"stdin menu", []string{"--text", "--stdin", `1\n{a:text}\n{b:text}\n2\n3\n`, "--", filepath.Join(ex, "ed_menu")}},
		{"one file", []string{"--input", `{n} {m}\n{a:text}\n{b:text}\n`, "--", filepath.Join(ex, "ed_file"), "{input}"}},
		// Two cases at a time, each opening input.txt in its own folder.
		{"a file of a fixed name", []string{"--text", "--jobs", "2", "--input", `{a:text}\n{b:text}\n`, "--input-name", "input.txt", "--", filepath.Join(ex, "ed_fixed")}},
		{"self-generated strings", []string{"--", filepath.Join(ex, "ed_seeded"), "-f", "{a}", "{b}"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := verifyOut(t, append([]string{"--cases", "300", "--max-len", "2100"}, c.args...)...)
			if code != exitOK || !strings.Contains(stdout, "300 agree, 0 fail") || strings.Contains(stdout, "whatever the strings") {
				t.Errorf("exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// A program that prints one distance whatever the strings reads none of
// them: verify says so, and where it was given {a} and {b} and took the
// files' names for the strings, says that.
func TestVerifySaysTheStringsAreNotRead(t *testing.T) {
	ex := examples(t)
	stdout, stderr, code := verifyOut(t, "--cases", "200", "--", filepath.Join(ex, "ed_args"), "{a}", "{b}")
	if code != exitFailure || !regexp.MustCompile(`(?m)^every run that printed a distance printed 1, whatever the strings \(\d+ runs, which want 0 to \d+\): `+
		`1 is the distance between its arguments …/a and …/b, the names of the files \{a\} and \{b\} stand for; for the strings themselves as arguments write \{a:text\} and \{b:text\}$`).MatchString(stdout) {
		t.Errorf("file names taken for the strings: exit %d\n%s%s", code, stdout, stderr)
	}
	seven := writeScript(t, "seven", "echo 7\n")
	stdout, stderr, code = verifyOut(t, "--cases", "200", "--", seven, "{a}", "{b}")
	if code != exitFailure || !strings.Contains(stdout, "printed 7, whatever the strings") || !strings.Contains(stdout, "it reads none of the strings levlab gives it") {
		t.Errorf("a program printing 7: exit %d\n%s%s", code, stdout, stderr)
	}
	// Wrong, but not the same number each time: no such line.
	plusOne := writeScript(t, "plusone", `d=$("`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2" | sed -n 's/distance: //p'); echo $((d + 1))`+"\n")
	stdout, stderr, _ = verifyOut(t, "--cases", "60", "--", plusOne, "{a}", "{b}")
	if strings.Contains(stdout, "whatever the strings") || !strings.Contains(stdout, "0 agree") {
		t.Errorf("a program off by one:\n%s%s", stdout, stderr)
	}
}

// With {a:text} no case holds a NUL byte, which no argument carries; a
// string longer than an argument holds is refused up front.
func TestVerifyTextArguments(t *testing.T) {
	dir := t.TempDir()
	// Fails where an argument is cut short: where a string held a NUL.
	prog := cc(t, dir, "nulcheck", dp+`int main(int argc, char **argv) {
	long n = strlen(argv[1]), m = strlen(argv[2]);
	if (n != atol(argv[3]) || m != atol(argv[4])) { fprintf(stderr, "cut short\n"); return 1; }
	printf("%ld\n", dist((unsigned char *)argv[1], n, (unsigned char *)argv[2], m));
	return 0;
}
`)
	stdout, stderr, code := verifyOut(t, "--cases", "400", "--max-len", "2100", "--", prog, "{a:text}", "{b:text}", "{n}", "{m}")
	if code != exitOK || !strings.Contains(stdout, "400 agree, 0 fail") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	checkFailure(t, []string{"verify", "--max-len", "200000", "--", prog, "{a:text}", "{b:text}"}, exitUsage, "--max-len 200000", "131071 bytes", "--stdin")
	checkFailure(t, []string{"verify", "--", prog, "{a:txt}"}, exitUsage, "{a:txt}", "{a:text}")
}

// Failures that share a trait of the cases are said to, with the flag
// that leaves such cases out; with the flag the program agrees, or its
// real failures are left.
func TestVerifyTraits(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, src string
		cmd       []string
		says      []string
		flag      string
	}{
		{"NUL", strlenProg, []string{"{a}", "{b}"}, []string{"hold a NUL byte", "--text"}, "--text"},
		{"trailing line end", chompProg, []string{"{a}", "{b}"}, []string{"ends in a line end", "--text"}, "--text"},
		{"white space", wordsProg, nil, []string{"hold white space", "--text"}, "--text"},
		{"not UTF-8", utf8Prog, []string{"{a}", "{b}"}, []string{"hold bytes that are not valid UTF-8", "--text"}, "--text"},
		{"unequal lengths", hammingProg, []string{"{a}", "{b}"}, []string{"pair strings of unequal lengths", "--equal-lengths",
			`"error: the strings must be of one length" (on stdout; stderr was empty)`}, "--equal-lengths"},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := cc(t, dir, strings.ReplaceAll(c.name, " ", "_"), c.src)
			args := append([]string{"--cases", "1000", "--max-len", "2100"}, "--")
			if c.cmd == nil {
				args = append([]string{"--stdin", `x{a:text} x{b:text}`}, args...)
			}
			args = append(append(args, prog), c.cmd...)
			stdout, _, code := verifyOut(t, args...)
			if code != exitFailure {
				t.Fatalf("exit %d, want 1\n%s", code, stdout)
			}
			for _, w := range c.says {
				if !strings.Contains(stdout, w) {
					t.Errorf("verify does not say %q:\n%s", w, stdout)
				}
			}
			stdout, stderr, code := verifyOut(t, append([]string{c.flag}, args...)...)
			if code != exitOK {
				t.Errorf("with %s: exit %d\n%s%s", c.flag, code, stdout, stderr)
			}
		})
	}
}

// utf16Prog counts UTF-16 code units, as a JavaScript or Java program
// does: a symbol past U+FFFF is two.
const utf16Prog = dp + `DIST(dist16, unsigned short)
static unsigned short *units(const char *path, long *k) {
	long n;
	unsigned char *s = slurp(path, &n);
	unsigned short *u = malloc((2 * n + 1) * sizeof *u);
	*k = 0;
	for (long i = 0; i < n;) {
		unsigned c = s[i], more = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
		unsigned r = more == 0 ? c : c & (0x3F >> more);
		for (unsigned j = 1; j <= more; j++) r = r << 6 | (s[i + j] & 0x3F);
		i += more + 1;
		if (r > 0xFFFF) { r -= 0x10000; u[(*k)++] = 0xD800 | r >> 10; u[(*k)++] = 0xDC00 | (r & 0x3FF); }
		else u[(*k)++] = r;
	}
	return u;
}
int main(int argc, char **argv) {
	long n, m;
	unsigned short *a = units(argv[1], &n), *b = units(argv[2], &m);
	printf("%ld\n", dist16(a, n, b, m));
	return 0;
}
`

// Under --runes, a program that counts UTF-16 code units fails on the
// cases with a symbol past U+FFFF, and verify names them and the cause.
func TestVerifyTraitPastBMP(t *testing.T) {
	prog := cc(t, t.TempDir(), "utf16", utf16Prog)
	stdout, stderr, code := verifyOut(t, "--runes", "--cases", "1000", "--max-len", "2100", "--", prog, "{a}", "{b}")
	if code != exitFailure || !regexp.MustCompile(`(?m)^all \d+ failures hold a symbol past U\+FFFF \(an emoji, say\) \(as do \d+ of the \d+ runs\): a program that counts UTF-16 code units`).MatchString(stdout) {
		t.Errorf("exit %d, want 1 and the failures' trait named\n%s%s", code, stdout, stderr)
	}
	// Bytes are not symbols: the trait is no case's without --runes.
	past := slices.IndexFunc(verifyTraits, func(v verifyTrait) bool { return v.name == "past U+FFFF" })
	for _, c := range levtest.Cases(rand.New(rand.NewPCG(1, 2)), levtest.CaseOptions{N: 1000, MaxLen: 2100}) {
		if traitsOf(&c)&(1<<past) != 0 {
			t.Fatalf("case %s of bytes has the trait past U+FFFF", c.Name)
		}
	}
}

// A real bug among honest limits: the limits' failures stop their family
// after ten, the long cases still run, and the failures no trait explains
// are listed first, by family with the smallest of each.
func TestVerifyFamilies(t *testing.T) {
	dir := t.TempDir()
	// No NUL (a C string), and one too many past 2,000 bytes.
	prog := cc(t, dir, "twobugs", dp+`int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	n = strlen((char *)a), m = strlen((char *)b);
	printf("%ld\n", dist(a, n, b, m) + (n > 2000));
	return 0;
}
`)
	stdout, _, code := verifyOut(t, "--cases", "1000", "--max-len", "2600", "--", prog, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s", code, stdout)
	}
	for _, w := range []string{
		"failures by family of case, with the smallest of each:",
		"  length boundaries: 241 agree", // each of 14 lengths, no case twice
		"not run (a family stops after 10 failures)",
		"  long: ",
		"  random over 256 symbols: ",
		"hold a NUL byte",
		"the smallest failures, those no trait above explains first:",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("verify does not say %q:\n%s", w, stdout)
		}
	}
	if first := regexp.MustCompile(`(?m)^  1\. (long|random \d+ vs \d+ over ACGT)`).FindString(stdout); first == "" {
		t.Errorf("the first failure listed is not a long one, which no trait explains:\n%s", stdout)
	}
}

// --workers runs every case at each count: a program that deadlocks on
// one rank fails there alone, each of its time-outs tried again alone
// first; a launcher's exit status of 128+N is named as signal N.
func TestVerifyWorkers(t *testing.T) {
	ex := examples(t)
	// A launcher in the way of mpirun: one rank waits for a message that
	// never comes; three ranks crash.
	launcher := writeScript(t, "launch", `np=$2; shift 2
if [ "$np" = 1 ]; then sleep 5; fi
if [ "$np" = 3 ]; then echo "rank 2 crashed" >&2; exit 139; fi
exec "$@"
`)
	stdout, stderr, code := verifyOut(t, "--cases", "20", "--max-len", "2100", "--timeout", "300ms", "--workers", "1,2,3",
		"--input", `{n} {m}\n{a:text}\n{b:text}\n`, "--", launcher, "-np", "{workers}", filepath.Join(ex, "ed_file"), "{input}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, w := range []string{
		"runs (20 cases at --workers 1,2,3)",
		"by --workers:", "  1: 12 of 12 fail", "  2: 0 of 20 fail", "  3: 12 of 12 fail", // ten of the known answers, then the first two boundaries
		"at --workers 1: ran past --timeout 300ms",
		"at --workers 3: exited with status 139 = 128+11", "mpirun", "signal 11 (segmentation fault)", `"rank 2 crashed"`,
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("verify does not say %q:\n%s", w, stdout)
		}
	}
	// A run slowed by the machine's other work may agree when run again.
	if !regexp.MustCompile(`(1 run past --timeout 300ms was|\d+ runs past --timeout 300ms were) run again, alone: \d+ agreed then`).MatchString(stdout) {
		t.Errorf("verify does not say the runs past the time-out were run again:\n%s", stdout)
	}
	if strings.Contains(stdout, "ran at a time") {
		t.Errorf("a command that takes {workers} ran cases beside each other:\n%s", stdout)
	}
	checkFailure(t, []string{"verify", "--workers", "1,2", "--", "true", "{a}"}, exitUsage, "--workers 1,2", "no {workers}")
	checkFailure(t, []string{"verify", "--workers", "1,x", "--", "true"}, exitUsage, "--workers 1,x", "comma-separated")
	checkFailure(t, []string{"verify", "--workers", "2,2", "--", "true", "{workers}"}, exitUsage, "names 2 twice")
	checkFailure(t, []string{"verify", "--jobs", "some", "--", "true"}, exitUsage, "--jobs some", "auto")
	checkFailure(t, []string{"verify", "--input", "x", "--", "true"}, exitUsage, "--input", "no {input}")
	checkFailure(t, []string{"verify", "--", "true", "{input}"}, exitUsage, "{input}", "no --input")
	checkFailure(t, []string{"verify", "--stdin", `\q`, "--", "true"}, exitUsage, "--stdin", `\q`, "no escape")
	checkFailure(t, []string{"verify", "--stdin", `{input}`, "--", "true"}, exitUsage, "--stdin", "{input}", "no placeholder")
}

// A case past the time-out is run again, alone, before it fails: a
// program slow only the first time it meets a case agrees.
func TestVerifyRetriesTimeOuts(t *testing.T) {
	ex := examples(t)
	seen := t.TempDir()
	prog := writeScript(t, "slowfirst", `key=$(cksum < "$1" | cut -d' ' -f1)-$(cksum < "$2" | cut -d' ' -f1)
if [ ! -e "`+seen+`/$key" ]; then : > "`+seen+`/$key"; sleep 60; fi
exec "`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2"
`)
	// The time-out leaves the second run, two checksums and a small
	// program, room on a machine busy with other tests (500 ms did not,
	// once, under -race); the first runs still sleep far past it.
	stdout, stderr, code := verifyOut(t, "--cases", "6", "--timeout", "3s", "--", prog, "{a}", "{b}")
	if code != exitOK || !strings.Contains(stdout, "6 agree, 0 fail") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Said where every case agreed too: the program is slow there.
	if !strings.Contains(stdout, "6 runs past --timeout 3s were run again, alone: 6 agreed then\n") {
		t.Errorf("verify does not say the runs past the time-out agreed only when run again:\n%s", stdout)
	}
}

// The time left is fitted to a start and a cost a cell once runs of
// paceRuns sizes have finished: cases come smallest first, so the runs so
// far alone would put the longest at the time of the short ones.
func TestVerifyPace(t *testing.T) {
	var p pace
	for i := range paceRuns - 1 {
		p.add(float64(i*1000), 0.01+1e-6*float64(i*1000))
	}
	if _, _, ok := p.fit(); ok {
		t.Errorf("fitted after %d runs, want %d", paceRuns-1, paceRuns)
	}
	p.add(1e6, 0.01+1)
	start, perCell, ok := p.fit()
	if !ok || math.Abs(start-0.01) > 1e-9 || math.Abs(perCell-1e-6) > 1e-12 {
		t.Errorf("fit: start %g, a cell %g, %v; want 0.01 and 1e-6", start, perCell, ok)
	}
	// Time that falls with the cells is a start alone; one that would
	// start below 0 is a cost a cell alone; one size tells nothing.
	var fall, steep, one pace
	for i := range paceRuns {
		fall.add(float64(i), 1-0.01*float64(i))
		steep.add(float64(100+i), 2*float64(i))
		one.add(5, 1)
	}
	if start, perCell, ok := fall.fit(); !ok || perCell != 0 || math.Abs(start-(1-0.01*float64(paceRuns-1)/2)) > 1e-9 {
		t.Errorf("falling: start %g, a cell %g, %v", start, perCell, ok)
	}
	if start, perCell, ok := steep.fit(); !ok || start != 0 || perCell <= 0 {
		t.Errorf("steep: start %g, a cell %g, %v", start, perCell, ok)
	}
	if _, _, ok := one.fit(); ok {
		t.Errorf("one size fitted")
	}
}

// A program that hangs is not run again past verifyRetryHangs retries
// that ran past the time-out again: each would take a whole --timeout.
func TestVerifyStopsRetryingAHang(t *testing.T) {
	prog := writeScript(t, "hangs", "sleep 30\n")
	stdout, stderr, code := verifyOut(t, "--cases", "8", "--timeout", "200ms", "--jobs", "1", "--", prog, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, w := range []string{
		"0 agree, 8 fail",
		"3 runs past --timeout 200ms were run again, alone: 0 agreed then\n",
		"the other 5 runs past it were not run again: 3 had run past it again, alone, none agreeing, so the program, not the machine, is slow there\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("verify does not say %q:\n%s", w, stdout)
		}
	}
	if got := strings.Count(stderr, "levlab verify: running again, alone, "); got != 3 || strings.Contains(stderr[strings.Index(stderr, "running again"):], " cases, ") {
		t.Errorf("stderr tells of %d runs run again, want 3, and nothing else after the first:\n%s", got, stderr)
	}
	if !strings.Contains(stderr, `levlab verify: running again, alone, 1 of the 8 runs past --timeout 200ms: known: "" vs "" (0 and 0 bytes)`) {
		t.Errorf("stderr does not name the run it runs again:\n%s", stderr)
	}
}

// Progress goes to stderr while verify runs: where stderr is no
// terminal, every verifyLogEvery (a second here).
func TestVerifyProgress(t *testing.T) {
	ex := examples(t)
	prog := writeScript(t, "slow", `sleep 0.4; exec "`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2"`+"\n")
	// At the default, 10 s, 8 cases of 0.4 s say nothing but their start
	// into a log.
	stdout, stderr, code := verifyOut(t, "--cases", "8", "--jobs", "1", "--", prog, "{a}", "{b}")
	if code != exitOK || regexp.MustCompile(`levlab verify: \d of 8 cases`).MatchString(stderr) {
		t.Errorf("exit %d, progress every second where stderr is no terminal\n%s%s", code, stdout, stderr)
	}
	defer func(was time.Duration) { verifyLogEvery = was }(verifyLogEvery)
	verifyLogEvery = time.Second
	stdout, stderr, code = verifyOut(t, "--cases", "8", "--jobs", "1", "--", prog, "{a}", "{b}")
	if code != exitOK || !regexp.MustCompile(`levlab verify: \d of 8 cases, 0 failed, \d+s`).MatchString(stderr) {
		t.Errorf("exit %d, no progress on stderr\n%s%s", code, stdout, stderr)
	}
	// Too few cases for the long and random families: said.
	if !strings.Contains(stderr, "levlab verify: 8 cases hold no long case and no random pair: more --cases (1000 by default) reach them\n") {
		t.Errorf("8 cases: stderr does not say they hold no long case or random pair\n%s", stderr)
	}
	// Past verifyPaceAfter it says how long the rest will take.
	defer func(was time.Duration) { verifyPaceAfter = was }(verifyPaceAfter)
	verifyPaceAfter = time.Second
	stdout, stderr, code = verifyOut(t, "--cases", "8", "--jobs", "1", "--", prog, "{a}", "{b}")
	if code != exitOK || !regexp.MustCompile(`levlab verify: [1-7] of 8 cases, 0 failed, [1-9]s, [1-9]s or more to go at this pace\n`).MatchString(stderr) {
		t.Errorf("exit %d, no time to go on stderr\n%s%s", code, stdout, stderr)
	}
}

// The time to go counts the runs as verify would run them: none of a
// family that has failed enough, each at most --timeout, a family
// stopped after verifyFamilyFailures time-outs foreseen, and those run
// again, alone, verifyRetryHangs at most.
func TestVerifyToGo(t *testing.T) {
	mk := func(family string, n int) verifyRun {
		return verifyRun{c: &levtest.Case{A: make([]byte, n), B: make([]byte, n), Family: family}, workers: 1}
	}
	s := &verifySession{v: &verifier{cmd: progrun.Command{Reading: progrun.Reading{Timeout: 10 * time.Second}}},
		famFails: map[string]int{}, famAgree: map[string]int{}, traitRuns: map[traitKey]traitRecord{}}
	// Runs of 0.01 s and a microsecond a cell.
	for i := range paceRuns {
		s.pace.add(float64(i*i*1e6), 0.01+float64(i*i))
	}
	// Left: two of 1,000 × 1,000 (1.01 s each), and two long ones (10⁸
	// cells, 100 s): each the time-out's 10 s, then 10 s each again,
	// alone.
	s.runs = []verifyRun{mk("a", 1000), mk("a", 1000), mk("long", 10000), mk("long", 10000)}
	if got := s.toGo(time.Minute, paceRuns, 1); got != ", about 42s to go" {
		t.Errorf("toGo: %q, want about 42 s (two runs of 1 s, two cut at 10 s and run again)", got)
	}
	// Twelve long ones, two at a time: ten time out and stop the family;
	// three of them are run again alone.
	for range 10 {
		s.runs = append(s.runs, mk("long", 10000))
	}
	if got := s.toGo(time.Minute, paceRuns, 2); got != ", about 1m21s to go" {
		t.Errorf("toGo, 12 long runs, 2 at a time: %q, want about 81 s ((2.02 + 100) / 2 + 30)", got)
	}
	// The long family stopped already: the two short ones alone.
	s.famFails["long\x001"] = verifyFamilyFailures
	if got := s.toGo(time.Minute, paceRuns, 2); got != ", about 1s to go" {
		t.Errorf("toGo, the long family stopped, 2 at a time: %q, want about 1 s", got)
	}
	// A long one in flight will time out and be run again, alone: the
	// two short ones, its 10 s, and 10 s again.
	all := s.runs
	s.famFails, s.runs = map[string]int{}, all[:2]
	s.flying = map[*verifyRun]bool{new(mk("long", 10000)): true}
	if got := s.toGo(time.Minute, paceRuns, 1); got != ", about 22s to go" {
		t.Errorf("toGo, a long run in flight: %q, want about 22 s (2.02 + 10, and 10 again)", got)
	}
	s.flying, s.runs = nil, all
	// Fitted to runs of at most 100 cells, nothing is said of a million:
	// the pace of the runs so far, at least.
	var small pace
	for i := range paceRuns {
		small.add(float64(10*i), 0.01+0.001*float64(i%2))
	}
	s.pace, s.famFails, s.finished = small, map[string]int{}, paceRuns
	if got := s.toGo(time.Minute, 4, 1); got != ", 2m30s or more to go at this pace" {
		t.Errorf("toGo, fitted to runs of 100 cells at most: %q, want the pace so far", got)
	}
}

// A program wrong for three reasons at once — it takes no empty string,
// keeps its strings as C strings and is off by one past 2,000 bytes —
// has each trait said, though none is shared by half the failures.
func TestVerifyNamesEachOfSeveralTraits(t *testing.T) {
	prog := cc(t, t.TempDir(), "threefold", dp+`int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	if (n == 0 || m == 0) { fprintf(stderr, "error: an empty string\n"); return 1; }
	printf("%ld\n", dist(a, strlen((char *)a), b, strlen((char *)b)) + (n > 2000 || m > 2000));
	return 0;
}
`)
	stdout, stderr, code := verifyOut(t, "--cases", "1000", "--max-len", "3000", "--", prog, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, re := range []string{
		`(?m)^\d+ of the \d+ failures have an empty string \(as do \d+ of the \d+ runs\): a program that takes no empty string`,
		`(?m)^\d+ of the \d+ failures hold a NUL byte \(as do \d+ of the \d+ runs\): .*--text`,
	} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("verify does not say %s:\n%s", re, stdout)
		}
	}
}

// A trait that fails throughout — here the empty string, which the
// program takes nowhere — is left out after verifyTraitFailures runs, and
// its failures do not stop their family: the length boundaries past it
// (63 … 1001) still run.
func TestVerifyLeavesOutATraitThatFailsThroughout(t *testing.T) {
	prog := cc(t, t.TempDir(), "noempty", noEmptyProg)
	stdout, stderr, code := verifyOut(t, "--cases", "1000", "--max-len", "2100", "--", prog, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, re := range []string{
		`(?m)^left out: \d+ runs that have an empty string, once 10 such had failed and none agreed$`,
		`(?m)^  length boundaries: \d of 2\d\d fail, \d+ left out \(above\)$`,
		`(?m)^all 1\d failures have an empty string \(as do 1\d of the \d+ runs\): a program that takes no empty string`,
	} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("verify does not say %s:\n%s", re, stdout)
		}
	}
	if strings.Contains(stdout, "a family stops") {
		t.Errorf("a family stopped on failures the empty string explains:\n%s", stdout)
	}
}

// A program that takes strings up to 99 bytes (and exits 1 past them)
// with a real bug below: once ten runs past the longest string of a run
// that agreed have printed no distance, the longer ones are left out, the
// limit and --max-len are said, and the bug's wrong distances are listed
// first. --max-len 99 then keeps every case within the limit.
func TestVerifyLengthOfItsOwn(t *testing.T) {
	prog := cc(t, t.TempDir(), "upto99", dp+`int main(int argc, char **argv) {
	long n, m;
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	if (n > 99 || m > 99) { fprintf(stderr, "strings of 99 bytes at most\n"); return 1; }
	printf("%ld\n", dist(a, n, b, m) + (n % 10 == 7));
	return 0;
}
`)
	stdout, stderr, code := verifyOut(t, "--cases", "1000", "--max-len", "2100", "--seed", "4", "--", prog, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, re := range []string{
		`(?m)^left out: \d{3} runs with a string longer than 9\d bytes, the longest of any run that agreed, once 10 such had failed printing no distance$`,
		`(?m)^\d+ of the \d+ failures printed no distance for a string longer than 9\d bytes, .*--max-len 9\d keeps every case to it`,
		`(?m)^  1\. .*: printed \d+, want \d+`,
		`(?m)^  long: 1 of 1 fail, \d+ left out \(above\)$`, // the longest, alone, first
	} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("verify does not say %s:\n%s", re, stdout)
		}
	}
	stdout, stderr, code = verifyOut(t, "--cases", "300", "--max-len", "99", "--seed", "4", "--", prog, "{a}", "{b}")
	if code != exitFailure || strings.Contains(stdout, "exited with status 1") || strings.Contains(stdout, "left out") || !strings.Contains(stdout, "300 of 300 cases") {
		t.Errorf("--max-len 99: exit %d, want 1 for the bug alone, every case run:\n%s%s", code, stdout, stderr)
	}
}

// The distance is read where programs print it: beside a time in
// seconds (MPI's) and one in milliseconds, a wrong one quoting its line.
func TestVerifyReadsTheDistance(t *testing.T) {
	ex := examples(t)
	mpi := writeScript(t, "mpi", `"`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2" | sed -n 's/distance: //p'; echo "MPI Time = 0.000035s"`+"\n")
	ms := writeScript(t, "ms", `"`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2" | sed -n 's/distance: //p'; echo "0 ms"`+"\n")
	for _, prog := range []string{mpi, ms} {
		stdout, stderr, code := verifyOut(t, "--cases", "60", "--", prog, "{a}", "{b}")
		if code != exitOK || !strings.Contains(stdout, "60 agree") {
			t.Errorf("%s: exit %d\n%s%s", filepath.Base(prog), code, stdout, stderr)
		}
	}
	none := writeScript(t, "none", `echo "Time taken: 2.5 s"`+"\n")
	stdout, _, _ := verifyOut(t, "--cases", "3", "--", none, "{a}", "{b}")
	if !strings.Contains(stdout, `printed no distance`) || !strings.Contains(stdout, `"Time taken: 2.5 s"`) {
		t.Errorf("a program printing no distance:\n%s", stdout)
	}
}

// A program whose distance levlab cannot read, one that prints only its
// time, stops verify after verifyUnread runs, saying what to do; one that
// prints none for some cases alone runs on.
func TestVerifyStopsWhereNoDistanceIsRead(t *testing.T) {
	ex := examples(t)
	timeOnly := writeScript(t, "timeonly", `echo "Parallel Execution Time=0.000040"`+"\n")
	stdout, stderr, code := verifyOut(t, "--cases", "1000", "--", timeOnly, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	ran := regexp.MustCompile(`(?m)^(\d+) of 1000 cases`).FindStringSubmatch(stdout)
	if ran == nil {
		t.Fatalf("no count of the cases run:\n%s", stdout)
	}
	if n, _ := strconv.Atoi(ran[1]); n < verifyUnread || n > verifyUnread+4 {
		t.Errorf("%d cases ran, want about %d\n%s", n, verifyUnread, stdout)
	}
	if !regexp.MustCompile(`(?m)^stopped after 2[0-4] runs printed no distance and none printed one: .*--distance-regexp$`).MatchString(stdout) ||
		!strings.Contains(stdout, `"Parallel Execution Time=0.000040"`) {
		t.Errorf("verify does not say why it stopped, and what to do:\n%s", stdout)
	}
	if strings.Contains(stdout, "run again, alone") {
		t.Errorf("a time-out was run again where no distance could be read:\n%s", stdout)
	}

	// Nothing printed where the first string is empty: every case but
	// those is read, and verify runs them all.
	someNone := writeScript(t, "somenone", `[ -s "$1" ] || exit 0
exec "`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2"
`)
	stdout, stderr, code = verifyOut(t, "--cases", "200", "--jobs", "1", "--", someNone, "{a}", "{b}")
	if code != exitFailure || strings.Contains(stdout, "printed no distance and none") || !strings.Contains(stdout, " 102 agree, 12 fail") {
		t.Errorf("exit %d, want 1 with 102 agreeing and 12 failing\n%s%s", code, stdout, stderr)
	}
}
