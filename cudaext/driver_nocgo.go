//go:build !cgo

package cudaext

import "fmt"

// Without cgo there is no way to call the driver: the package still builds
// and says why, like a platform without a GPU.

var errNoCgo = fmt.Errorf("%w: built without cgo (CGO_ENABLED=0)", ErrUnavailable)

// Available reports that this build cannot reach CUDA.
func Available() error { return errNoCgo }

// Device reports that this build cannot reach CUDA.
func Device() (DeviceInfo, error) { return DeviceInfo{}, errNoCgo }

// NVRTCVersion reports that this build cannot reach CUDA.
func NVRTCVersion() (major, minor int, err error) { return 0, 0, errNoCgo }
