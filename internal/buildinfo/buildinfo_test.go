package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir, failing the test on error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=s", "GIT_AUTHOR_EMAIL=s@example.org",
		"GIT_COMMITTER_NAME=s", "GIT_COMMITTER_EMAIL=s@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestCommitNotOfTheWorkingDirectory: run inside a student's own
// repository, levlab does not record that repository's commit as its own.
func TestCommitNotOfTheWorkingDirectory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "ed.c"), []byte("int main(){}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "ed.c")
	git(t, dir, "commit", "-q", "-m", "mine")
	theirs := git(t, dir, "rev-parse", "HEAD")[:12]
	t.Chdir(dir)
	if got := Commit(); strings.HasPrefix(got, theirs) {
		t.Errorf("Commit() in another repository = %q, that repository's own commit", got)
	}
}

// TestModulePath reads the module line of a go.mod, quoted or not, and
// nothing from a file that has none.
func TestModulePath(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"module github.com/levlab/levlab\n\ngo 1.26\n", Module},
		{"// c\nmodule \"example.org/x\"\n", "example.org/x"},
		{"modulex foo\n", ""},
		{"", ""},
	} {
		p := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ModulePath(p); got != c.want {
			t.Errorf("ModulePath(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if got := ModulePath(filepath.Join(dir, "none")); got != "" {
		t.Errorf("ModulePath of a missing file = %q", got)
	}
}

// TestCommitOfOwnCheckout: the test binary carries no VCS stamp, so the
// commit comes from this checkout, where git can tell it.
func TestCommitOfOwnCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := sourceRoot()
	if root == "" {
		t.Fatal("sourceRoot found no levlab checkout around its own source")
	}
	cmd := exec.Command("git", "-C", root, "rev-parse", "HEAD")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	if got, want := Commit(), strings.TrimSpace(string(out))[:12]; !strings.HasPrefix(got, want) {
		t.Errorf("Commit() = %q, want the checkout's %s", got, want)
	}
}

// A changed record under results/ leaves the commit clean; a changed
// source does not.
func TestDirtyLeavesOutResults(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	for name, text := range map[string]string{"go.mod": "module " + Module + "\n", "a.go": "package a\n", ResultsDir + "/r.csv": "x\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "c")
	rev := git(t, dir, "rev-parse", "HEAD")[:12]
	if err := os.WriteFile(filepath.Join(dir, ResultsDir, "r.csv"), []byte("y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitCommit(dir); got != rev {
		t.Errorf("with a record changed: %q, want %q", got, rev)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitCommit(dir); got != rev+"-dirty" {
		t.Errorf("with a source changed: %q, want %q", got, rev+"-dirty")
	}
}

// The commit make build stamps into the binary wins over git's word on
// the checkout as it is now, which may have moved on since the build.
func TestStampWins(t *testing.T) {
	defer func(s string) { stamp = s }(stamp)
	stamp = "0123456789ab"
	if got := Commit(); got != "0123456789ab" {
		t.Errorf("Commit() = %q with a stamp, want the stamp", got)
	}
}

// make build and scripts/paper-results.sh stamp what scripts/commit.sh
// prints: the commit as Commit's git fallback names it.
func TestCommitScriptAgrees(t *testing.T) {
	root := sourceRoot()
	if root == "" {
		t.Skip("no checkout")
	}
	out, err := exec.Command("sh", filepath.Join(root, "scripts", "commit.sh")).Output()
	if err != nil {
		t.Skipf("scripts/commit.sh: %v", err)
	}
	if got, want := strings.TrimSpace(string(out)), gitCommit(root); got != want {
		t.Errorf("scripts/commit.sh prints %q, Commit's git fallback %q", got, want)
	}
}
