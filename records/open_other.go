//go:build !unix

package records

import (
	"fmt"
	"os"
)

// openNoWait checks path before it opens it: without O_NOFOLLOW and
// O_NONBLOCK a link or a FIFO can only be refused by looking first.
func openNoWait(path string, flag int, perm os.FileMode, noFollow bool) (*os.File, error) {
	stat := os.Stat
	if noFollow {
		stat = os.Lstat
	}
	if fi, err := stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, FileKind(fi.Mode()))
	}
	return os.OpenFile(path, flag, perm)
}
