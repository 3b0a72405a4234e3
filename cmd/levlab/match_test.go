package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/match"
)

// matchText is the text of the exact-output tests: 22 bytes.
const matchText = "ACGTACGTTTACGAACGT\nACG"

// checkBinaryFailure runs the levlab at bin and checks the shape of a
// failure: the status, nothing on stdout, one "levlab: COMMAND: " message
// naming each of want, the pointer to -h for bad usage, no panic trace.
func checkBinaryFailure(t *testing.T, bin string, args []string, wantCode int, want ...string) {
	t.Helper()
	name := args[0]
	stdout, stderr, code := runBinary(t, bin, args...)
	if code != wantCode {
		t.Errorf("levlab %q: exit status %d, want %d; stderr:\n%s", args, code, wantCode, stderr)
	}
	if stdout != "" {
		t.Errorf("levlab %q: failed but printed %q on stdout", args, stdout)
	}
	if !strings.HasPrefix(stderr, "levlab: "+name+": ") || strings.Count(stderr, "levlab: ") != 1 {
		t.Errorf("levlab %q: stderr %q is not one \"levlab: %s: \" message", args, stderr, name)
	}
	if hint := strings.Contains(stderr, "Run 'levlab "+name+" -h' for usage."); hint != (wantCode == exitUsage) {
		t.Errorf("levlab %q: stderr %q: the pointer to -h is there: %v, want it for bad usage only", args, stderr, hint)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("levlab %q: stderr %q does not mention %q", args, stderr, w)
		}
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("levlab %q: stderr holds a panic trace:\n%s", args, stderr)
	}
}

// TestMatchBinary runs levlab match as a user would: exact output, and
// every bad input with its status and message.
func TestMatchBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	text := writeFile(t, "text", matchText)
	// CRLF, an empty line, a blank-free last line without a newline.
	pats := writeFile(t, "patterns", "ACG\r\n\nTTT\n\r\nGTAC")
	empty := writeFile(t, "empty", "")
	blank := writeFile(t, "blank", "\n\r\n\n")

	for _, c := range []struct {
		args []string
		want string
	}{
		// -p patterns first, in order, then the file's, in order;
		// references computed by hand (window mode: a match starts at j,
		// the windows at the end are shorter).
		{[]string{"match", "-p", "ACGT", "-k", "1", "--patterns", pats, text}, "6\tACGT\n6\tACG\n4\tTTT\n4\tGTAC\n"},
		{[]string{"match", "--patterns", pats, "-p", "TTT", "-p", "ACGT", text}, "1\tTTT\n4\tACGT\n5\tACG\n1\tTTT\n2\tGTAC\n"},
		{[]string{"match", text, "-p", "ACGT"}, "4\tACGT\n"},
		// Occurrence: ends of substrings within k; ACGT exactly ends 3 times.
		{[]string{"match", "--mode", "occurrence", "-p", "ACGT", text}, "3\tACGT\n"},
		{[]string{"match", "--mode=occurrence", "--algo", "apm-naive", "-p", "ACGT", "-k", "4", text}, "22\tACGT\n"},
		// A pattern given twice is counted twice; "--" before a pattern
		// file name or text that begins with '-' works as in distance.
		{[]string{"match", "-p", "GT", "-p", "GT", "--workers", "1", "--", text}, "4\tGT\n4\tGT\n"},
	} {
		stdout, stderr, code := runBinary(t, bin, c.args...)
		if stdout != c.want || stderr != "" || code != exitOK {
			t.Errorf("levlab %q: %q, stderr %q, exit status %d; want %q", c.args, stdout, stderr, code, c.want)
		}
	}

	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"match", "-p", "A", "-k", "-1", text}, exitUsage, []string{"-k -1", ">= 0"}},
		{[]string{"match", "-p", "", text}, exitUsage, []string{`""`, "-p", "empty pattern"}},
		{[]string{"match", text}, exitUsage, []string{"no pattern", "-p PATTERN", "--patterns FILE"}},
		{[]string{"match", "--patterns", empty, text}, exitUsage, []string{empty, "no pattern"}},
		{[]string{"match", "--patterns", blank, text}, exitUsage, []string{blank, "no pattern"}},
		{[]string{"match", "-p", "A", "--mode", "fuzzy", text}, exitUsage, []string{`"fuzzy"`, "window", "occurrence"}},
		{[]string{"match", "-p", "A", "--algo", "quick", text}, exitUsage, []string{`"quick"`, "apm-naive", "apm-fast", "auto"}},
		{[]string{"match", "-p", "A", "--gpu-ratio", "1.5", text}, exitUsage, []string{"1.5", "between 0 and 1"}},
		{[]string{"match", "-p", "A", "--gpu-ratio", "-0.1", text}, exitUsage, []string{"-0.1", "between 0 and 1"}},
		{[]string{"match", "-p", "A", "--gpu-ratio", "NaN", text}, exitUsage, []string{"NaN", "between 0 and 1"}},
		{[]string{"match", "-p", "A", "--workers", "5000", text}, exitUsage, []string{"5000", "4096"}},
		{[]string{"match", "-p", "A", "--mode", "occurrence", "--gpu-ratio", "0.5", text}, exitUsage, []string{"0.5", "window"}},
		{[]string{"match", "-p", "A"}, exitUsage, []string{"one argument TEXTFILE", "got 0"}},
		{[]string{"match", "-p", "A", text, text}, exitUsage, []string{"one argument TEXTFILE", "got 2"}},
		{[]string{"match", "-p", "A", "--nope", text}, exitUsage, []string{"-nope"}},
		{[]string{"match", "-p", "A", "-k", "two", text}, exitUsage, []string{`"two"`, "-k"}},
		// Bad usage is reported before the text is read.
		{[]string{"match", "-p", "A", "-k", "-1", "/nonexistent/text"}, exitUsage, []string{"-k -1"}},
		{[]string{"match", "-p", "A", "/nonexistent/text"}, exitFailure, []string{"/nonexistent/text"}},
		{[]string{"match", "--patterns", "/nonexistent/patterns", text}, exitFailure, []string{"--patterns", "/nonexistent/patterns"}},
	} {
		checkBinaryFailure(t, bin, c.args, c.code, c.want...)
	}

	// A GPU share fails here with the reason, where no GPU is usable.
	args := []string{"match", "-p", "ACGT", "--gpu-ratio", "0.5", text}
	if err := cudaext.Available(); err != nil {
		checkBinaryFailure(t, bin, args, exitFailure, "gpu ratio", "unavailable")
	} else if stdout, stderr, code := runBinary(t, bin, args...); stdout != "4\tACGT\n" || code != exitOK {
		t.Errorf("levlab %q with a GPU: %q, stderr %q, exit status %d; want 4\\tACGT", args, stdout, stderr, code)
	}
}

// decodeMatch decodes match's --json output, checking that it is one object
// with every documented field.
func decodeMatch(t *testing.T, stdout string) matchResult {
	t.Helper()
	fields := decodeJSON[map[string]any](t, "match --json", stdout)
	for _, k := range []string{"seconds", "mode", "algo", "k", "workers", "gpu_ratio", "ranks", "text_bytes", "counts"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("--json output %q has no %q", stdout, k)
		}
	}
	return decodeJSON[matchResult](t, "match --json", stdout)
}

func TestMatchJSON(t *testing.T) {
	text := writeFile(t, "text", matchText)
	stdout, stderr, code := levlab(t, "match", "--json", "-p", "ACGT", "-p", "TTT", "-k", "1", "--workers", "2", "--algo", "apm-fast", text)
	if code != exitOK || stderr != "" {
		t.Fatalf("levlab match --json: exit status %d, stderr %q", code, stderr)
	}
	res := decodeMatch(t, stdout)
	if res.Seconds < 0 || res.Seconds > 60 {
		t.Errorf("seconds = %g", res.Seconds)
	}
	got := fmt.Sprintf("%s %s %d %d %g %d %d %v", res.Mode, res.Algo, res.K, res.Workers, res.GPURatio, res.Ranks, res.TextBytes, res.Counts)
	if want := "window apm-fast 1 2 0 1 22 [{ACGT 6} {TTT 4}]"; got != want {
		t.Errorf("levlab match --json: %s, want %s", got, want)
	}
	// Workers 0 is GOMAXPROCS, as run.
	stdout, _, _ = levlab(t, "match", "--json", "--mode", "occurrence", "-p", "ACGT", text)
	if res := decodeMatch(t, stdout); res.Workers < 1 || res.Mode != "occurrence" || res.Algo != "auto" || res.Counts[0].Count != 3 {
		t.Errorf("levlab match --json --mode occurrence: %+v", res)
	}
}

// TestMatchAgreesWithLev checks the command against match.Count on a
// random text with every algorithm, mode and a few worker counts, patterns
// from a file included.
func TestMatchAgreesWithLev(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	text := make([]byte, 3000)
	for i := range text {
		text[i] = "ACGT"[rng.IntN(4)]
	}
	path := writeFile(t, "text", string(text))
	var pats [][]byte
	var lines []string
	for _, n := range []int{1, 5, 22, 70} {
		start := rng.IntN(len(text) - n)
		pats = append(pats, text[start:start+n])
		lines = append(lines, string(text[start:start+n]))
	}
	patFile := writeFile(t, "patterns", strings.Join(lines, "\n")+"\n")
	for _, mode := range []match.Mode{match.Window, match.Occurrence} {
		for _, alg := range match.Algorithms() {
			for _, k := range []int{0, 2} {
				want, err := match.Count(text, pats, k, match.WithMode(mode), match.WithAlgorithm(alg))
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				for i, p := range pats {
					fmt.Fprintf(&b, "%d\t%s\n", want[i], p)
				}
				for _, w := range []string{"1", "3"} {
					args := []string{"match", "--mode", mode.String(), "--algo", alg.String(), "-k", fmt.Sprint(k), "--workers", w, "--patterns", patFile, path}
					stdout, stderr, code := levlab(t, args...)
					if stdout != b.String() || code != exitOK {
						t.Errorf("levlab %q: %q, stderr %q, status %d; want %q", args, stdout, stderr, code, b.String())
					}
				}
			}
		}
	}
}

func TestMatchUsage(t *testing.T) {
	stdout, stderr, code := levlab(t, "match", "-h")
	if code != exitOK || stderr != "" {
		t.Fatalf("levlab match -h: exit status %d, stderr %q", code, stderr)
	}
	for _, a := range match.Algorithms() {
		if matchAlgorithmSummaries[a] == "" || !strings.Contains(stdout, a.String()+" ") || !strings.Contains(stdout, matchAlgorithmSummaries[a]) {
			t.Errorf("levlab match -h does not list %s with its summary", a)
		}
	}
	if len(matchAlgorithmSummaries) != len(match.Algorithms()) {
		t.Errorf("matchAlgorithmSummaries has %d entries for %d algorithms", len(matchAlgorithmSummaries), len(match.Algorithms()))
	}
	for _, w := range []string{"COUNT<TAB>PATTERN", "patterns first, in their order", "mpirun", "\\r", "empty lines are skipped"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("levlab match -h does not say %q", w)
		}
	}
	top, _, _ := levlab(t, "-h")
	if !strings.Contains(top, "  match ") {
		t.Errorf("levlab -h does not list match:\n%s", top)
	}
}

// TestMatchPositions: --positions prints, pattern by pattern, the
// positions match.Positions finds, as many as the counts say; with --json
// or a GPU share it is bad usage.
func TestMatchPositions(t *testing.T) {
	rng := levtest.NewRand(t)
	text := levtest.RandomBytes(rng, 30_000, levtest.DNA)
	path := writeFile(t, "text.txt", string(text))
	pats := []string{"ACGTAC", string(text[100:122])}
	for _, mode := range []string{"window", "occurrence"} {
		args := []string{"match", "-k", "1", "--mode", mode, "-p", pats[0], "-p", pats[1], "--workers", "2"}
		counts, _, _ := levlab(t, append(args, path)...)
		stdout, stderr, code := levlab(t, append(args, "--positions", path)...)
		if code != exitOK || stderr != "" {
			t.Fatalf("--positions, %s: exit %d, %q", mode, code, stderr)
		}
		m, _ := match.ParseMode(mode)
		var want strings.Builder
		for i, p := range pats {
			match.Positions(text, []byte(p), 1, func(j int) error {
				fmt.Fprintf(&want, "%d\t%d\n", i+1, j)
				return nil
			}, match.WithMode(m))
			n := 0
			for _, l := range strings.Split(stdout, "\n") {
				if strings.HasPrefix(l, fmt.Sprintf("%d\t", i+1)) {
					n++
				}
			}
			if !strings.Contains(counts, fmt.Sprintf("%d\t%s\n", n, p)) {
				t.Errorf("%s: pattern %d: %d positions, but the counts say\n%s", mode, i+1, n, counts)
			}
		}
		if stdout != want.String() {
			t.Errorf("--positions, %s:\n got %.200q\nwant %.200q", mode, stdout, want.String())
		}
	}
	checkFailure(t, []string{"match", "--positions", "--json", "-p", "AC", path}, exitUsage, "--positions with --json")
	checkFailure(t, []string{"match", "--positions", "--gpu-ratio", "0.5", "-p", "AC", path}, exitUsage, "--positions with --gpu-ratio 0.5")
}
