package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildLevlab builds the command, with the build tags given if any, into a
// temporary folder and returns its path; it skips the test where no go
// command is on PATH.
func buildLevlab(t testing.TB, tags ...string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build levlab with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "levlab")
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	if out, err := exec.Command(goTool, append(args, ".")...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// runBinary runs the levlab at bin (or another program, such as mpirun,
// with its arguments) and returns its output and exit status.
func runBinary(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return out.String(), errOut.String(), code
}

// TestBinary builds levlab and runs it as a user would: main, os.Exit and
// the real streams included.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := buildLevlab(t)
	exe := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		return runBinary(t, bin, args...)
	}

	if stdout, stderr, code := exe("distance", "", "héllo"); stdout != "5\n" || stderr != "" || code != 0 {
		t.Errorf(`levlab distance "" héllo: %q, %q, exit status %d; want "5\n"`, stdout, stderr, code)
	}
	if stdout, stderr, code := exe("distance", "héllo", "hello"); stdout != "1\n" || stderr != "" || code != 0 {
		t.Errorf(`levlab distance héllo hello: %q, %q, exit status %d; want "1\n"`, stdout, stderr, code)
	}
	if stdout, stderr, code := exe("distance", "--nope", "a", "b"); stdout != "" || code != 2 ||
		!strings.HasPrefix(stderr, "levlab: ") || !strings.Contains(stderr, "-nope") {
		t.Errorf("levlab distance --nope a b: %q, %q, exit status %d; want status 2 and a message naming -nope", stdout, stderr, code)
	}
	if stdout, stderr, code := exe("distance", "--files", "/nonexistent/a", "/nonexistent/b"); stdout != "" || code != 1 ||
		!strings.Contains(stderr, "/nonexistent/a") {
		t.Errorf("levlab distance --files with missing files: %q, %q, exit status %d; want status 1 naming the file", stdout, stderr, code)
	}

	stdout, stderr, code := exe("info", "--json")
	if code != 0 || stderr != "" {
		t.Fatalf("levlab info --json: exit status %d, stderr %q", code, stderr)
	}
	info := decodeJSON[machineInfo](t, "info --json", stdout)
	// Where the build recorded a commit, it is the checkout's: HEAD, or
	// its first 12 digits where the build carried no VCS stamp and the
	// commit is the one records carry (buildinfo).
	if info.Commit != "" {
		head, err := exec.Command("git", "rev-parse", "HEAD").Output()
		if err != nil {
			t.Logf("git rev-parse HEAD: %v; not checking the commit %s", err, info.Commit)
		} else if want := strings.TrimSpace(string(head)); info.Commit != want && (len(info.Commit) < 12 || !strings.HasPrefix(want, info.Commit)) {
			t.Errorf("levlab info: commit %s, want HEAD %s", info.Commit, want)
		}
	} else {
		t.Logf("the build recorded no commit (version %s): VCS stamping is off or git is absent", info.Version)
	}
}
