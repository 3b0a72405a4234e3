package records

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A results tree is a folder git tracks: a clone can carry a link or a
// FIFO where a records file is expected. Every file of a results tree is
// opened here, so that none is written through a link and none blocks.

// openRegular opens path for reading (following a link, as a tree may link
// a records file it shares) and returns it only if it is a regular file.
// It never waits: a FIFO with no writer is refused, not waited on.
func openRegular(path string) (*os.File, error) {
	return openChecked(path, os.O_RDONLY, 0, false)
}

// createRegular opens path with flag (O_CREATE among them), creating it
// with perm, without following a link: a link at path, dangling or not, is
// an error naming it, and so is anything but a regular file.
func createRegular(path string, flag int, perm os.FileMode) (*os.File, error) {
	return openChecked(path, flag, perm, true)
}

func openChecked(path string, flag int, perm os.FileMode, noFollow bool) (*os.File, error) {
	f, err := openNoWait(path, flag, perm, noFollow)
	if err != nil {
		if noFollow && isLink(path) {
			return nil, fmt.Errorf("records: %s is a symbolic link; levlab does not write through links in a results folder (remove it, or write elsewhere with --out)", path)
		}
		return nil, fmt.Errorf("records: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("records: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("records: %s is not a regular file (%s); levlab reads and writes only regular files in a results folder", path, FileKind(fi.Mode()))
	}
	return f, nil
}

// isLink reports whether path itself is a symbolic link.
func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// FileKind names a file's type for people: "a file", "a folder", "a
// FIFO", "a socket", "a device", "a symbolic link", else its mode.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a file of mode " + m.String()
}

// readRegular reads the regular file at path whole (see openRegular).
func readRegular(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	return data, nil
}

// ReadFileLimit reads the file at path whole, as the readers of a results
// tree open every file (openRegular): following a link, never waiting on a
// FIFO, and refusing anything but a regular file — a FIFO, a device such
// as /dev/zero, a folder — at once, naming it. A file of more than limit
// bytes is an error naming it and the limit, found before it is read (or,
// should it grow meanwhile, once limit+1 bytes have been), so that a
// reader of a kept spec or note holds at most limit bytes of it.
func ReadFileLimit(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func() error {
		return fmt.Errorf("records: %s is larger than %d bytes, the most levlab reads of such a file", path, limit)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, tooLarge()
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge()
	}
	return data, nil
}
