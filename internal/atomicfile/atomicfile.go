// Package atomicfile writes files whole or not at all: into a temporary
// file in the same folder, renamed over the target once complete, so that
// a reader never sees half a file and a failure leaves the old one.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write calls write with a temporary file beside path and, when it and the
// close succeed, makes the file readable by all (0644) and renames it to
// path. On any failure the temporary file is removed and the error names
// path.
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		// The temporary file's name is of no use to the reader: say what
		// is wrong with the folder.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("writing %s: the folder %s does not exist: %w", path, dir, err)
		}
		return fmt.Errorf("writing %s: cannot create a file in %s: %w", path, dir, err)
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
