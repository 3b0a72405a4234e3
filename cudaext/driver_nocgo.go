//go:build !cgo

package cudaext

import (
	"context"
	"fmt"
)

// Without cgo there is no way to call the driver: the package still builds
// and says why, like a platform without a GPU.

var errNoCgo = fmt.Errorf("%w: built without cgo (CGO_ENABLED=0)", ErrUnavailable)

// Available reports that this build cannot reach CUDA.
func Available() error { return errNoCgo }

// Device reports that this build cannot reach CUDA.
func Device() (DeviceInfo, error) { return DeviceInfo{}, errNoCgo }

// NVRTCVersion reports that this build cannot reach CUDA.
func NVRTCVersion() (major, minor int, err error) { return 0, 0, errNoCgo }

// Ready reports that this build cannot reach CUDA.
func Ready() error { return errNoCgo }

// Diagonal reports that this build cannot reach CUDA.
func Diagonal[S Symbol](ctx context.Context, a, b []S, block int) (int, Timing, error) {
	return 0, Timing{}, errNoCgo
}

// Matrix reports that this build cannot reach CUDA.
func Matrix[S Symbol](ctx context.Context, a, b []S, block int) (int, Timing, error) {
	return 0, Timing{}, errNoCgo
}

// Fast reports that this build cannot reach CUDA.
func Fast[S Symbol](ctx context.Context, a, b []S, o FastOptions) (int, Timing, error) {
	return 0, Timing{}, errNoCgo
}

// Batch reports that this build cannot reach CUDA.
func Batch[S Symbol](ctx context.Context, as, bs [][]S) ([]int, Timing, error) {
	return nil, Timing{}, errNoCgo
}

// Pairs reports that this build cannot reach CUDA.
func Pairs[S Symbol](ctx context.Context, a, b [][]S, tri bool, fn func(first int, d []int32) error) (Timing, error) {
	return Timing{}, errNoCgo
}

func windows(chunk []byte, count int64, pattern []byte, k int) (int64, Timing, error) {
	return 0, Timing{}, errNoCgo
}
