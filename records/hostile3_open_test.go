//go:build unix

package records

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRegularLimit: a file read whole is a regular file, reached
// through a link or not, of at most the bytes asked; a FIFO or a device is
// refused at once, naming it.
func TestReadRegularLimit(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.toml")
	treeFiles(t, dir, map[string]string{"small.toml": "name = \"x\"\n"})
	if b, err := ReadFileLimit(small, 100); err != nil || string(b) != "name = \"x\"\n" {
		t.Errorf("ReadFileLimit(small) = %q, %v", b, err)
	}
	if _, err := ReadFileLimit(small, 4); err == nil || !strings.Contains(err.Error(), small) || !strings.Contains(err.Error(), "4 bytes") {
		t.Errorf("ReadFileLimit past the limit: %v, want an error naming the file and the limit", err)
	}
	zero := filepath.Join(dir, "zero.toml")
	treeLinks(t, dir, map[string]string{"zero.toml": "/dev/zero"})
	err := within(t, "ReadFileLimit(/dev/zero)", func() error { _, err := ReadFileLimit(zero, 1<<20); return err })
	if err == nil || !strings.Contains(err.Error(), "a device") {
		t.Errorf("ReadFileLimit of a link to /dev/zero: %v, want a device refused", err)
	}
}
