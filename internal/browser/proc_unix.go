//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that killGroup
// reaches Chromium's helper processes too.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
