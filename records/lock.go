package records

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LockName is the file, in a results folder, whose lock says that one
// writer has the folder: a second writer on the same folder would double
// rows or tear the header.
const LockName = ".levlab.lock"

// ErrLocked is wrapped by the error of LockDir when another process holds
// the folder.
var ErrLocked = errors.New("the results folder is in use")

// DirLock is the exclusive hold of one results folder by this process.
type DirLock struct {
	path string
	f    *os.File
}

// LockDir takes the results folder dir for this process, or returns an
// error wrapping ErrLocked that names the holder (its process id, command
// and start time, as it wrote them in dir/.levlab.lock). It does not wait.
// The lock is the operating system's (flock on Unix): a holder that dies,
// even by SIGKILL, releases it.
func LockDir(dir string) (*DirLock, error) { return LockDirAs(dir, LockName) }

// LockDirAs is LockDir with the lock file named name: one writer of each
// name, so that the shards of a run (levlab run --shard), each writing
// files of its own, share a folder.
func LockDirAs(dir, name string) (*DirLock, error) {
	path := filepath.Join(dir, name)
	for {
		f, err := createRegular(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("records: locking %s: %w", path, err)
		}
		if !held {
			holder := readHolder(path)
			if !bytes.HasPrefix(holder, []byte("pid ")) {
				// The holder may have let go while we waited: try again.
				if same, err := samePath(f, path); err == nil && !same {
					f.Close()
					continue
				}
			}
			f.Close()
			return nil, fmt.Errorf("records: %w: %s is being written by %s; wait for it to finish, or write elsewhere (--out)",
				ErrLocked, dir, describeHolder(holder))
		}
		// The holder before us removes the file as it unlocks: if it did
		// so between our open and our lock, we hold a file no one else
		// will find, and must take the new one.
		if same, err := samePath(f, path); err != nil || !same {
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("records: locking %s: %w", path, err)
			}
			continue
		}
		cmd := strings.Join(os.Args, " ")
		info := fmt.Sprintf("pid %d\nstarted %s\ncommand %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339), cmd)
		if err := f.Truncate(0); err == nil {
			_, err = f.WriteAt([]byte(info), 0)
		}
		// The holder's description is a courtesy to the next writer; the
		// lock holds without it.
		return &DirLock{path: path, f: f}, nil
	}
}

// readHolder reads the holder's description from the lock file at path.
// A holder writes it just after it takes the lock, so a writer that comes
// at the same moment may find the file still empty: it waits up to half a
// second for the process id to appear.
func readHolder(path string) []byte {
	var info []byte
	for range 50 {
		info, _ = os.ReadFile(path)
		if bytes.HasPrefix(info, []byte("pid ")) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return info
}

// describeHolder turns the lock file's lines into "process 123 (levlab
// run …, since …)".
func describeHolder(info []byte) string {
	var pid, started, cmd string
	for line := range bytes.SplitSeq(info, []byte{'\n'}) {
		k, v, _ := strings.Cut(string(line), " ")
		switch k {
		case "pid":
			pid = v
		case "started":
			started = v
		case "command":
			cmd = v
		}
	}
	if pid == "" {
		return "another process"
	}
	s := "process " + pid
	var more []string
	if cmd != "" {
		more = append(more, fmt.Sprintf("%q", cmd))
	}
	if started != "" {
		more = append(more, "since "+started)
	}
	if len(more) > 0 {
		s += " (" + strings.Join(more, ", ") + ")"
	}
	return s
}

// samePath reports whether f is still the file at path.
func samePath(f *os.File, path string) (bool, error) {
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	pi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(fi, pi), nil
}

// Unlock removes the lock file and releases the folder. It is safe to
// call more than once.
func (l *DirLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Removed while still held, so no one can take the old file after we
	// let go of it.
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("records: unlocking: %w", err)
	}
	return nil
}
