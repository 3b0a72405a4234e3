//go:build unix && !linux

package progrun

import "syscall"

// setDeathSignal does nothing: only Linux ends a child with its parent.
func setDeathSignal(*syscall.SysProcAttr) {}
