// Package buildinfo says which levlab this is: the commit it was built
// from, for the records it measures and the reports it writes.
package buildinfo

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Module is levlab's module path: git is asked only about a checkout whose
// go.mod declares it.
const Module = "github.com/levlab/levlab"

// stamp is the commit make build wrote into the binary (-ldflags -X
// github.com/levlab/levlab/internal/buildinfo.stamp=REV, from
// scripts/commit.sh); "" in a build without it.
var stamp string

// Commit returns the revision the binary was built from: the stamp make
// build gives it, else what go build recorded of git. Test binaries and
// builds with -buildvcs=false carry neither; then git is asked about the
// checkout this package was compiled from, where that is still on disk and
// is levlab's own module, never about the working directory (which may be
// a student's repository) — the checkout as it is when asked, which is
// the build's commit only while no commit is made after the build.
// Otherwise "unknown".
func Commit() string {
	if stamp != "" {
		return stamp
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev string
		var dirty bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty, _ = strconv.ParseBool(s.Value)
			}
		}
		if rev != "" {
			return shortRev(rev, dirty)
		}
	}
	root := sourceRoot()
	if root == "" {
		return "unknown"
	}
	return gitCommit(root)
}

// sourceRoot returns the root of the levlab checkout this file was compiled
// from, or "" where there is none: a -trimpath build, a checkout since
// removed, or a folder whose go.mod is not levlab's.
func sourceRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // internal/buildinfo/buildinfo.go
	if ModulePath(filepath.Join(root, "go.mod")) != Module {
		return ""
	}
	return root
}

// ModulePath returns the module path a go.mod file declares, or "" where
// the file cannot be read or declares none.
func ModulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// gitCommit asks git for the commit checked out at root, and whether its
// tracked files are changed outside ResultsDir; "unknown" where git cannot say, or where root
// is not the top of its own repository (a levlab copied into another).
func gitCommit(root string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	top, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--show-toplevel").Output()
	if err != nil || !sameDir(strings.TrimSpace(string(top)), root) {
		return "unknown"
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if rev == "" {
		return "unknown"
	}
	st, err := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)"+ResultsDir).Output()
	return shortRev(rev, err == nil && len(bytes.TrimSpace(st)) > 0)
}

// ResultsDir is the folder of a levlab checkout that holds measured
// records, not code: a change there leaves the commit clean, as a run
// writes its own records there while later runs of it ask the commit.
const ResultsDir = "results"

// sameDir reports whether a and b name one folder.
func sameDir(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func shortRev(rev string, dirty bool) string {
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
