package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/levlab/levlab/records"
)

// ErrBadPath is wrapped by the error of CheckPath, and of WriteFile and
// WriteFiles, when a path the report is to be written to cannot be one.
var ErrBadPath = errors.New("cannot be written to")

// CheckPath returns nil where a report's file (folder false) or its
// figures' folder (folder true) can be made at path as far as the paths
// themselves tell, and else an error wrapping ErrBadPath that says in
// plain words what is wrong: a folder on the way that is a file ("/x/r
// is a file, not a folder"), a link to nothing ("it is a link to /x/y,
// which does not exist"), a file where the figures' folder goes, a folder
// where the report's file goes. The error does not name path itself: the
// caller names it, as the flag or option that gave it. A folder that does
// not exist yet, or one the write may not be allowed into, is no error
// here: the write makes it, or says why not.
func CheckPath(path string, folder bool) error {
	if why := pathProblem(path, folder); why != "" {
		return fmt.Errorf("%s (%w)", why, ErrBadPath)
	}
	return nil
}

func pathProblem(path string, folder bool) string {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				if !folder {
					return "" // the report's file replaces the link, not its target
				}
				target, _ := os.Readlink(path)
				return fmt.Sprintf("it is a link to %s, which does not exist", target)
			}
			fi = st
		}
		switch {
		case folder && !fi.IsDir():
			return fmt.Sprintf("it is %s, not a folder", records.FileKind(fi.Mode()))
		case !folder && fi.IsDir():
			return "it is a folder, not a file"
		}
		return ""
	}
	// The first folder on the way that exists must be a folder.
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		fi, err := os.Lstat(dir)
		if err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				st, err := os.Stat(dir)
				if err != nil {
					target, _ := os.Readlink(dir)
					return fmt.Sprintf("%s is a link to %s, which does not exist", dir, target)
				}
				fi = st
			}
			if !fi.IsDir() {
				return fmt.Sprintf("%s is %s, not a folder", dir, records.FileKind(fi.Mode()))
			}
			return ""
		}
		// Not there, or under a file (ENOTDIR): look further up.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) || dir == filepath.Dir(dir) {
			return ""
		}
	}
}
