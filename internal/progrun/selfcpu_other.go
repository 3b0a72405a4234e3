//go:build !unix

package progrun

// SelfCPU returns 0 and false: this system's usage is not read.
func SelfCPU() (seconds float64, ok bool) { return 0, false }
