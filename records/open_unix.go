//go:build unix

package records

import (
	"os"
	"syscall"
)

// openNoWait opens path with O_NONBLOCK, so that a FIFO is not waited on
// (the caller refuses it), and O_NOFOLLOW where asked, so that the kernel,
// not a check before the open, refuses a link.
func openNoWait(path string, flag int, perm os.FileMode, noFollow bool) (*os.File, error) {
	flag |= syscall.O_NONBLOCK
	if noFollow {
		flag |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flag, perm)
}
