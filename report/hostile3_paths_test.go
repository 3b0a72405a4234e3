//go:build unix

package report

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckPath: what is wrong with a path the report is written to is
// said plainly, the folder at fault named.
func TestCheckPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path   string
		folder bool
		want   string // "" for no error
	}{
		{filepath.Join(dir, "r.md"), false, ""},
		{filepath.Join(dir, "new", "figs"), true, ""},
		{dir, true, ""},
		{file, false, ""},
		{filepath.Join(dir, "dangling"), false, ""}, // the file replaces the link
		{file, true, "it is a file, not a folder"},
		{dir, false, "it is a folder, not a file"},
		{filepath.Join(dir, "dangling"), true, "it is a link to " + filepath.Join(dir, "nowhere") + ", which does not exist"},
		{filepath.Join(file, "r.md"), false, file + " is a file, not a folder"},
		{filepath.Join(file, "a", "b", "r.md"), false, file + " is a file, not a folder"},
		{filepath.Join(dir, "dangling", "figs"), true, filepath.Join(dir, "dangling") + " is a link to " + filepath.Join(dir, "nowhere") + ", which does not exist"},
		{"/dev/null", true, "it is a device, not a folder"},
	} {
		err := CheckPath(c.path, c.folder)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckPath(%s, %v) = %v, want nil", c.path, c.folder, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.Is(err, ErrBadPath)):
			t.Errorf("CheckPath(%s, %v) = %v, want %q wrapping ErrBadPath", c.path, c.folder, err, c.want)
		}
	}
}
