//go:build !linux

package progrun

import "os/exec"

// Cores returns the cores levlab may run on; nil here, where the system
// does not say.
func Cores() []int { return nil }

// startOn starts cmd; cores are not kept here.
func startOn(cmd *exec.Cmd, cores []int) error { return cmd.Start() }

// exitWatch is Linux's; here Wait waits alone.
type exitWatch struct{}

func watchExit(*exec.Cmd) *exitWatch { return nil }
func (*exitWatch) started()          {}
func (*exitWatch) wait()             {}
func (*exitWatch) close()            {}
