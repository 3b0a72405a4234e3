//go:build mpi

package main

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/mpi"
)

// mpirunArgs are the flags that run every rank on this machine, over shared
// memory and loopback only, more ranks than cores allowed.
var mpirunArgs = []string{"--oversubscribe", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}

// findMpirun returns the path of mpirun. Where there is none the test is
// skipped with the reason, or fails when LEVLAB_REQUIRE_MPI is set (make
// test sets it: there the MPI tests must run for real).
func findMpirun(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("mpirun")
	if err != nil {
		msg := "no mpirun on PATH (Debian: apt-get install openmpi-bin libopenmpi-dev; make deps installs them): " + err.Error()
		if os.Getenv("LEVLAB_REQUIRE_MPI") != "" {
			t.Fatal(msg + "; LEVLAB_REQUIRE_MPI is set, so this is a failure")
		}
		t.Skip(msg)
	}
	// Open MPI refuses to run as root unless told that it is meant.
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	return path
}

// planted is the pattern the MPI tests plant across the cuts: 22 bytes,
// report 003's pattern length, ending with the two bytes it begins with so
// that a copy ending at a cut and one starting just before it agree where
// they overlap.
const planted = "ACGTTGCAACGTAGCTAGGCAC"

// substituted returns p with the bytes at the positions given replaced by
// others.
func substituted(p string, at ...int) string {
	b := []byte(p)
	for _, i := range at {
		b[i] = "ACGT"[(strings.IndexByte("ACGT", b[i])+1)%4]
	}
	return string(b)
}

// mpiText returns a random ACGT text of 3001 bytes with probes of planted
// at the cuts of the text into 2 and 3 parts (1000, 1500, 2000), where a
// part's shadow bytes one short would change the count:
//
//   - window, at the last position of a part (cut-1): a copy whose last
//     byte differs (k = 0 at cuts 1000 and 1500) or whose bytes 5, 12 and
//     21 differ (k = 2 at 2000): cut one byte short, the window would match;
//   - occurrence, ending at the first position of the next part (cut): an
//     exact copy (k = 0) or one with two bytes inserted (k = 2 at 2000):
//     with one byte less before the cut, the match would be lost.
func mpiText(rng *rand.Rand) []byte {
	text := make([]byte, 3001)
	for i := range text {
		text[i] = "ACGT"[rng.IntN(4)]
	}
	for _, cut := range []int{1000, 1500} {
		copy(text[cut-len(planted)+1:], planted)
		copy(text[cut-1:], substituted(planted, len(planted)-1))
	}
	inserted := planted[:12] + "TT" + planted[12:]
	copy(text[2000-len(inserted)+1:], inserted)
	copy(text[2000-1:], substituted(planted, 5, 12, 21))
	return text
}

// TestMPIMatchesOneProcess runs levlab match under mpirun with 1, 2 and 3
// ranks and requires the output of one process, byte for byte, in both
// modes, on a text whose parts cut through matches; in a second set of
// patterns one is longer than a part, so that its shadow bytes reach over
// several parts.
func TestMPIMatchesOneProcess(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	text := mpiText(rng)
	path := writeFile(t, "text", string(text))
	short := writeFile(t, "short", planted+"\nACG\n")
	long := writeFile(t, "long", planted+"\n"+string(text[100:1300])+"\n") // 1200 bytes: more than a part

	for _, mode := range []string{"window", "occurrence"} {
		for _, k := range []string{"0", "2"} {
			for _, pats := range []string{short, long} {
				args := []string{"match", "--mode", mode, "-k", k, "--workers", "1", "-p", "TTGCAACG", "--patterns", pats, path}
				// One process: the MPI build started without mpirun.
				want, stderr, code := runBinary(t, bin, args...)
				if code != exitOK || stderr != "" || strings.Count(want, "\n") != 3 {
					t.Fatalf("levlab %q: %q, stderr %q, exit status %d", args, want, stderr, code)
				}
				for _, ranks := range []int{1, 2, 3} {
					mpiArgs := append(append([]string{"-np", strconv.Itoa(ranks)}, mpirunArgs...), append([]string{bin}, args...)...)
					got, stderr, code := runBinary(t, mpirun, mpiArgs...)
					if code != exitOK || got != want {
						t.Errorf("mode %s, k %s, patterns %s, %d ranks: exit status %d, output\n%s\nwant, as one process prints,\n%s\nstderr:\n%s",
							mode, k, pats, ranks, code, got, want, stderr)
					}
				}
				if pats != short || k != "2" {
					continue
				}
				// --json: the same counts, and the ranks.
				jsonArgs := append(append([]string{"-np", "3"}, mpirunArgs...), append([]string{bin, "match", "--json"}, args[1:]...)...)
				out, stderr, code := runBinary(t, mpirun, jsonArgs...)
				if code != exitOK {
					t.Fatalf("mpirun %q: exit status %d, stderr %q", jsonArgs, code, stderr)
				}
				res := decodeMatch(t, out)
				var lines strings.Builder
				for _, c := range res.Counts {
					lines.WriteString(strconv.FormatInt(c.Count, 10) + "\t" + c.Pattern + "\n")
				}
				if res.Ranks != 3 || res.Mode != mode || res.TextBytes != len(text) || res.Workers != 1 || lines.String() != want {
					t.Errorf("mpirun -np 3 levlab match --json: %+v, want 3 ranks, mode %s, %d bytes, 1 worker, counts\n%s", res, mode, len(text), want)
				}
			}
		}
	}
}

// TestMPIFailures checks that a failure under mpirun is reported once, by
// rank 0, with levlab's status.
func TestMPIFailures(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	text := writeFile(t, "text", matchText)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"match", "-p", "A", "/nonexistent/text"}, exitFailure, "/nonexistent/text"},
		{[]string{"match", "-p", "A", "-k", "-1", text}, exitUsage, "-k -1"},
		// Every rank reads its own part: the text must be a regular file.
		{[]string{"match", "-p", "A", os.DevNull}, exitFailure, "not a regular file"},
	} {
		args := append(append([]string{"-np", "3"}, mpirunArgs...), append([]string{bin}, c.args...)...)
		stdout, stderr, code := runBinary(t, mpirun, args...)
		if code != c.code || stdout != "" || strings.Count(stderr, "levlab: match: ") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("mpirun %q: exit status %d (want %d), stdout %q, stderr (want one message naming %q):\n%s",
				args, code, c.code, stdout, c.want, stderr)
		}
	}
	// A levlab built without MPI refuses to run as several ranks.
	plain := buildLevlab(t)
	args := append(append([]string{"-np", "2"}, mpirunArgs...), plain, "match", "-p", "A", text)
	if stdout, stderr, code := runBinary(t, mpirun, args...); code == exitOK || stdout != "" || !strings.Contains(stderr, "-tags mpi") {
		t.Errorf("mpirun -np 2 of a levlab without MPI: exit status %d, stdout %q, stderr %q; want a failure saying -tags mpi", code, stdout, stderr)
	}
}

// mpiTimeout bounds every mpirun of the tests below: a job that hangs (a
// rank that died while the others wait in a collective) fails the test
// instead of hanging it.
const mpiTimeout = 30 * time.Second

// runMPI runs mpirun with args and the environment variables env added,
// and returns its output and exit status. A job still running after
// mpiTimeout is ended — SIGTERM to mpirun's process group, which mpirun
// passes on to the ranks, then SIGKILL — and fails the test.
func runMPI(t *testing.T, mpirun string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mpiTimeout)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, mpirun, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever is left of the job
	}
	if ctx.Err() != nil {
		t.Fatalf("mpirun %q still running after %v: killed\nstdout:\n%s\nstderr:\n%s", args, mpiTimeout, out.String(), errOut.String())
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("mpirun %q: %v", args, err)
	}
	t.Logf("mpirun %q: exit status %d after %v", args, code, time.Since(start).Round(time.Millisecond))
	return out.String(), errOut.String(), code
}

// TestMPIHugeK runs levlab match with k = MaxInt under mpirun with 3 ranks,
// on 10 bytes and on none: the shadow len(longest)+k-1 overflowed, rank 0
// panicked reading a part of negative length and the job hung. It must
// print what one process prints (every position matches), promptly.
func TestMPIHugeK(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	for _, text := range []string{"ACGTACGTAC", ""} {
		path := writeFile(t, "t"+strconv.Itoa(len(text)), text)
		for _, mode := range []string{"occurrence", "window"} {
			args := []string{"match", "--mode", mode, "-k", "9223372036854775807", "-p", "ACGT", path}
			want, stderr, code := runBinary(t, bin, args...)
			if wantLine := strconv.Itoa(len(text)) + "\tACGT\n"; code != exitOK || stderr != "" || want != wantLine {
				t.Fatalf("levlab %q: %q, stderr %q, exit status %d; want %q", args, want, stderr, code, wantLine)
			}
			mpiArgs := append(append([]string{"-np", "3"}, mpirunArgs...), append([]string{bin}, args...)...)
			got, stderr, code := runMPI(t, mpirun, nil, mpiArgs...)
			if code != exitOK || got != want {
				t.Errorf("mpirun %q: exit status %d, output %q, want %q, as one process prints; stderr:\n%s", mpiArgs, code, got, want, stderr)
			}
		}
	}
}

// TestMPIRankFails makes one rank fail, or panic, once it has read its part
// of the text (the test-only hooks of internal/mpi): mpirun must end with a
// failure within mpiTimeout, and its stderr hold levlab's message, naming
// the rank, once. A panic on one rank used to leave the job hanging
// silently: the deferred MPI_Finalize waited for the other ranks, which
// waited in a collective for the dead one.
func TestMPIRankFails(t *testing.T) {
	mpirun := findMpirun(t)
	bin := buildLevlab(t, "mpi")
	text := writeFile(t, "text", matchText)
	for _, c := range []struct {
		env, rank string // the hook
		msg       string // the message, without its end
	}{
		// Rank 0 speaks for the job where it fails; another rank is named.
		{mpi.TestFailRankEnv, "1", "levlab: match: rank 1 of 3: failure injected by " + mpi.TestFailRankEnv + "=1"},
		{mpi.TestFailRankEnv, "0", "levlab: match: failure injected by " + mpi.TestFailRankEnv + "=0"},
		{mpi.TestPanicRankEnv, "2", "levlab: match: rank 2 of 3: panic: panic injected by " + mpi.TestPanicRankEnv + "=2"},
		{mpi.TestPanicRankEnv, "0", "levlab: match: rank 0 of 3: panic: panic injected by " + mpi.TestPanicRankEnv + "=0"},
	} {
		env := c.env + "=" + c.rank
		args := append(append([]string{"-np", "3", "-x", c.env}, mpirunArgs...), bin, "match", "-p", "ACGT", text)
		stdout, stderr, code := runMPI(t, mpirun, []string{env}, args...)
		msg := c.msg
		if code == exitOK || stdout != "" || strings.Count(stderr, "levlab: match: ") != 1 || strings.Count(stderr, msg) != 1 {
			t.Errorf("%s: mpirun %q: exit status %d, stdout %q, stderr (want one message %q):\n%s", env, args, code, stdout, msg, stderr)
		}
	}
}
