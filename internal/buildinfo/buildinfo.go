// Package buildinfo says which levlab this is: the commit it was built
// from, for the records it measures and the reports it writes.
package buildinfo

import (
	"bytes"
	"context"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Commit returns the revision the binary was built from. Test binaries
// and builds with -buildvcs=false carry none; then git is asked about the
// working directory, if git is there.
func Commit() string {
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if rev == "" {
		return "unknown"
	}
	st, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output()
	return shortRev(rev, err == nil && len(bytes.TrimSpace(st)) > 0)
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
