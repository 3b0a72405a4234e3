package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Fatalf("file holds %q, want %q", b, "first")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	// A failing writer leaves the old file and no temporary one.
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one wrapping the writer's and naming %s", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Errorf("after a failed write the file holds %q, want the old %q", b, "first")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the file", len(entries))
	}
	missing := filepath.Join(dir, "no", "such", "x")
	if err := Write(missing, func(io.Writer) error { return nil }); err == nil || !errors.Is(err, fs.ErrNotExist) ||
		err.Error() != "writing "+missing+": the folder "+filepath.Dir(missing)+" does not exist: no such file or directory" {
		t.Errorf("writing into a missing folder: %v; want one naming the file and the folder, not the temporary file", err)
	}
	if err := Write(missing, func(io.Writer) error { return nil }); err == nil {
		t.Error("writing into a missing folder: no error")
	}
}
