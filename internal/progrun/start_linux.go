package progrun

import (
	"os"
	"os/exec"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// Cores returns the cores levlab may run on (its affinity), in order;
// nil where the system does not say.
func Cores() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cores []int
	for c := 0; len(cores) < set.Count(); c++ {
		if set.IsSet(c) {
			cores = append(cores, c)
		}
	}
	return cores
}

// startOn starts cmd held to cores (none: anywhere levlab may run). The
// child takes its affinity from the thread that starts it, so the start
// runs on a thread of its own, held to cores for the start alone.
func startOn(cmd *exec.Cmd, cores []int) error {
	if len(cores) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var was, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &was); err != nil {
		return cmd.Start()
	}
	for _, c := range cores {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return cmd.Start() // a core levlab may not use: anywhere, then
	}
	defer unix.SchedSetaffinity(0, &was)
	return cmd.Start()
}

// pidfdWorks reports whether this kernel hands out process file
// descriptors (Linux 5.3 on, where no seccomp filter refuses them).
var pidfdWorks = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
})

// exitWatch waits for a started program's exit through the runtime's
// poller, on a file descriptor of the process, rather than in a wait
// system call: a goroutine blocked in a system call has the runtime hand
// its processor to another thread and check it every 20 µs, which over a
// thousand short runs costs more than the runs' own bookkeeping.
type exitWatch struct{ file *os.File }

// watchExit returns the watch of cmd, not yet started; nil where the
// kernel gives no process descriptors.
func watchExit(cmd *exec.Cmd) *exitWatch {
	if !pidfdWorks() {
		return nil
	}
	return &exitWatch{}
}

// started opens a descriptor of the process once cmd has started: one of
// its own, non-blocking, for the one os keeps must block in Wait. The
// process is not reaped before Wait, so its pid is still its own.
func (w *exitWatch) started(cmd *exec.Cmd) {
	if w == nil || cmd.Process == nil {
		return
	}
	fd, err := unix.PidfdOpen(cmd.Process.Pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	w.file = os.NewFile(uintptr(fd), "pidfd")
}

// wait returns once the process has exited (or at once where there is no
// descriptor); Wait then reaps it without blocking.
func (w *exitWatch) wait() {
	if w == nil || w.file == nil {
		return
	}
	rc, err := w.file.SyscallConn()
	if err != nil {
		return
	}
	// Read waits for the descriptor to read ready (the process has
	// exited) each time the function says "not yet"; the function asks
	// the kernel itself, for an exit before Read began leaves no event
	// to wait for.
	rc.Read(func(fd uintptr) bool {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(p, 0)
		return err != nil || n > 0
	})
}

// close lets the descriptor go.
func (w *exitWatch) close() {
	if w != nil && w.file != nil {
		w.file.Close()
	}
}
