//go:build !unix

package browser

import "os/exec"

// ownGroup does nothing here: there are no process groups to start.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills Chromium itself; its helpers go when their parent does.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
