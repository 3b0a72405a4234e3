//go:build !unix

package progrun

import (
	"os"
	"os/exec"
)

// group is the program alone: this system has no process groups Run can
// end, so what the program starts is not ended with it.
type group struct{ p *os.Process }

func setGroup(*exec.Cmd) {}

// alive reports false: once the program has exited there is nothing of
// its own left to end.
func (g group) alive() bool { return false }

func (g group) terminate() { g.p.Kill() }
func (g group) kill()      { g.p.Kill() }

// peakRSS returns 0: the system's usage does not say.
func peakRSS(*os.ProcessState) int64 { return 0 }
