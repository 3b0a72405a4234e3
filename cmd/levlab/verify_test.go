package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeScript writes an executable shell script and returns its path.
func writeScript(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestVerify runs verify through levlab itself (every case agrees), a
// program wrong past 100 bytes (exit 1, the smallest failure first, its
// inputs kept), and programs that fail every way a program can.
func TestVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	stdout, stderr, code := levlab(t, "verify", "--cases", "400", "--max-len", "3000", "--seed", "3", "--", bin, "distance", "--files", "{a}", "{b}")
	if code != exitOK || !strings.HasPrefix(stdout, "400 of 400 cases through ") || !strings.Contains(stdout, "400 agree, 0 fail (--seed 3)") {
		t.Errorf("verify of levlab distance: exit %d\n%s%s", code, stdout, stderr)
	}
	// Text: levlab distance --runes --files counts runes, as the cases do.
	stdout, stderr, code = levlab(t, "verify", "--runes", "--cases", "200", "--max-len", "2100", "--", bin, "distance", "--files", "--runes", "{a}", "{b}")
	if code != exitOK || !strings.Contains(stdout, "200 agree, 0 fail") {
		t.Errorf("verify --runes of levlab distance --runes: exit %d\n%s%s", code, stdout, stderr)
	}

	wrong := writeScript(t, "wrong", `d=$("`+bin+`" distance --files "$1" "$2")
if [ "$(wc -c < "$1")" -gt 100 ]; then echo "distance: $((d+1))"; else echo "distance: $d"; fi
`)
	stdout, _, code = levlab(t, "verify", "--cases", "300", "--max-len", "3000", "--seed", "3", "--", wrong, "{a}", "{b}")
	if code != exitFailure {
		t.Fatalf("verify of a wrong program: exit %d, want 1\n%s", code, stdout)
	}
	first := regexp.MustCompile(`(?m)^  1\. .* \((\d+) and (\d+) bytes\): printed (\d+), want (\d+) \(the line "distance: \d+"\)$`).FindStringSubmatch(stdout)
	if first == nil || atoi(t, first[1]) <= 100 || atoi(t, first[3]) != atoi(t, first[4])+1 {
		t.Errorf("the first failure listed is not a case past 100 bytes answered one too many:\n%s", stdout)
	}
	// Three at a time: the same failures, listed in the same order.
	stdout3, _, code := levlab(t, "verify", "--jobs", "3", "--cases", "300", "--max-len", "3000", "--seed", "3", "--", wrong, "{a}", "{b}")
	list := regexp.MustCompile(`(?s)the smallest failures:.*the smallest failure's inputs`)
	if code != exitFailure || list.FindString(stdout3) != list.FindString(stdout) || list.FindString(stdout) == "" {
		t.Errorf("verify --jobs 3 lists other failures than one at a time: exit %d\n%s\n%s", code, stdout3, stdout)
	}
	if k := regexp.MustCompile(`inputs: (\S+) and`).FindStringSubmatch(stdout3); k != nil {
		os.RemoveAll(filepath.Dir(k[1]))
	}
	kept := regexp.MustCompile(`inputs: (\S+) and (\S+) \(want (\d+)\)`).FindStringSubmatch(stdout)
	if kept == nil {
		t.Fatalf("the smallest failure's inputs are not named:\n%s", stdout)
	}
	if a, err := os.ReadFile(kept[1]); err != nil || len(a) < 101 {
		t.Errorf("the kept input %s: %d bytes, %v", kept[1], len(a), err)
	}
	os.RemoveAll(filepath.Dir(kept[1]))

	// With a regexp: the first group of the last match, where the last
	// integer is another number.
	stdout, _, code = levlab(t, "verify", "--cases", "50", "--max-len", "3000", "--distance-regexp", `"distance":\s*(\d+)`, "--", bin, "distance", "--json", "--files", "{a}", "{b}")
	if code != exitOK || !strings.Contains(stdout, "50 agree") {
		t.Errorf("verify --distance-regexp of levlab distance --json: exit %d\n%s", code, stdout)
	}

	for _, c := range []struct {
		name string
		prog []string
		says string
	}{
		{"hangs", []string{"sleep", "30"}, "ran past --timeout 300ms"},
		{"floods", []string{"yes", "7"}, "printed more than 1.0 MiB on stdout"},
		{"prints nothing", []string{"true"}, "exited 0 but printed no distance"},
		{"fails", []string{"sh", "-c", "echo oops >&2; exit 3"}, `exited with status 3: "oops"`},
		{"crashes", []string{"sh", "-c", "kill -SEGV $$"}, "killed by signal 11 (segmentation fault)"},
	} {
		start := time.Now()
		stdout, stderr, code := levlab(t, append([]string{"verify", "--cases", "2", "--timeout", "300ms", "--"}, c.prog...)...)
		if code != exitFailure || !strings.Contains(stdout, c.says) || !strings.Contains(stdout, "0 agree, 2 fail") {
			t.Errorf("%s: exit %d, want 1 saying %q\n%s%s", c.name, code, c.says, stdout, stderr)
		}
		// Both fail alike: the reason is said once, over the cases.
		if !strings.Contains(stdout, "the smallest failures, each "+c.says) {
			t.Errorf("%s: the one reason of both failures is not said once, over the list\n%s", c.name, stdout)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: verify took %v", c.name, took)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestVerifyUsage: bad usage exits 2 naming what is wrong; a program that
// cannot be run exits 1.
func TestVerifyUsage(t *testing.T) {
	checkFailure(t, []string{"verify"}, exitUsage, "no program")
	checkFailure(t, []string{"verify", "--", "true", "{c}"}, exitUsage, "{c}", "{a} {b} {n} {m} {workers}")
	checkFailure(t, []string{"verify", "--cases", "0", "--", "true"}, exitUsage, "--cases 0")
	checkFailure(t, []string{"verify", "--jobs", "0", "--", "true"}, exitUsage, "--jobs 0")
	checkFailure(t, []string{"verify", "--timeout", "-1s", "--", "true"}, exitUsage, "--timeout")
	checkFailure(t, []string{"verify", "--distance-regexp", "(", "--", "true"}, exitUsage, "--distance-regexp")
	checkFailure(t, []string{"verify", "--distance-regexp", `\d+`, "--", "true"}, exitUsage, "no group")
	checkFailure(t, []string{"verify", "--", "no-such-program-here", "{a}", "{b}"}, exitFailure, "no-such-program-here")
	notExec := filepath.Join(t.TempDir(), "prog")
	os.WriteFile(notExec, []byte("#!/bin/sh\necho 1\n"), 0o644)
	checkFailure(t, []string{"verify", "--", notExec, "{a}", "{b}"}, exitFailure, notExec)
}

// TestVerifyExamples builds the examples' OpenMP program (make examples'
// way) and verifies it and its off-by-one twin: the first agrees, the
// second fails from the antidiagonals of 256 cells on, where it splits
// its work in chunks.
//
// The other packages' tests share the two cores meanwhile, and an OpenMP
// thread that spins at a barrier while its partner waits for a core turns
// each antidiagonal into a time slice: with GOMP's default wait policy a
// 999-byte pair once ran past 10 s under make test. The threads here
// sleep at their barriers instead (OMP_WAIT_POLICY=PASSIVE), and a case
// has a minute.
func TestVerifyExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles C; not in -short")
	}
	t.Setenv("OMP_WAIT_POLICY", "PASSIVE")
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skipf("no C compiler: %v", err)
	}
	dir := t.TempDir()
	for _, out := range []string{"ed_omp", "ed_omp_offbyone"} {
		args := []string{"-O2", "-fopenmp", "-o", filepath.Join(dir, out), "../../examples/ed_omp.c"}
		if out == "ed_omp_offbyone" {
			args = append(args, "-DOFF_BY_ONE")
		}
		if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	stdout, stderr, code := levlab(t, "verify", "--cases", "300", "--max-len", "2100", "--timeout", "1m", "--", filepath.Join(dir, "ed_omp"), "{a}", "{b}")
	if code != exitOK || !strings.Contains(stdout, "300 agree, 0 fail") {
		t.Errorf("verify of examples/ed_omp.c: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code = levlab(t, "verify", "--cases", "300", "--max-len", "2100", "--timeout", "1m", "--", filepath.Join(dir, "ed_omp_offbyone"), "{a}", "{b}")
	first := regexp.MustCompile(`(?m)^  1\. .* \((\d+) and (\d+) bytes\): printed`).FindStringSubmatch(stdout)
	if code != exitFailure || first == nil || min(atoi(t, first[1]), atoi(t, first[2])) < 255 {
		t.Errorf("verify of the off-by-one: exit %d, want 1 with the smallest failure's strings of 255 bytes or more\n%s", code, stdout)
	}
}
