//go:build unix

package progrun

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// group is the process group a program runs in, named by the program's
// pid: the program and whatever it starts that does not leave the group.
type group struct{ p *os.Process }

// setGroup has cmd start in a process group of its own, and, where the
// system can, die with the thread that started it.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// alive reports whether a process of the group is still there (a zombie
// nobody has reaped counts).
func (g group) alive() bool { return syscall.Kill(-g.p.Pid, 0) == nil }

func (g group) terminate() { syscall.Kill(-g.p.Pid, syscall.SIGTERM) }
func (g group) kill()      { syscall.Kill(-g.p.Pid, syscall.SIGKILL) }

// peakRSS returns the most memory the process held resident, in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0 // Wait failed: no state
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // kilobytes elsewhere
}
