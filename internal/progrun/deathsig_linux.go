package progrun

import "syscall"

// setDeathSignal has the kernel send the program SIGKILL when the thread
// that started it ends — when levlab dies, however it dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
