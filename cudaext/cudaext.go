// Package cudaext runs edit-distance kernels on NVIDIA GPUs through the CUDA
// driver API, loaded at run time so that the package builds, imports and
// tests on machines without a GPU or a CUDA toolkit.
//
// This build carries no kernels yet: Available reports why, and every entry
// point returns an error wrapping ErrUnavailable.
package cudaext

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped by every error that means "no usable GPU here":
// no driver, no device, or no backend compiled in. errors.Is tells callers
// (and tests) to skip rather than fail.
var ErrUnavailable = errors.New("cudaext: CUDA unavailable")

// Available returns nil when a CUDA device can run the kernels, else an
// error wrapping ErrUnavailable that says why.
func Available() error {
	return fmt.Errorf("%w: the CUDA backend is not part of this build", ErrUnavailable)
}
