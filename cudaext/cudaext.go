// Package cudaext runs edit-distance kernels on NVIDIA GPUs through the CUDA
// driver API, loaded at run time so that the package builds, imports and
// tests on machines without a GPU or a CUDA toolkit.
//
// At first use (never in an init function) the package dlopens the driver,
// libcuda.so.1 or the path in $LEVLAB_LIBCUDA, looks up every function by
// its explicit versioned name (cuMemAlloc_v2 …), initialises it and counts
// the devices; NVRTC (libnvrtc.so.13, .12, .so, then Debian's .11.2, or
// $LEVLAB_LIBNVRTC) is loaded the same way when first needed. No CUDA
// header, toolkit or library is needed to build. Every C entry point does
// one whole job with the device's primary context made current inside it,
// so Go holds no CUDA context between calls; every CUresult and
// nvrtcResult comes back as an *Error carrying its name.
//
// The kernels (kernels/*.cu, embedded) are compiled by NVRTC for the
// device found, at first use, and the CUBIN is cached by hash in the user
// cache folder: Diagonal (report 000), Matrix (report 002), Fast (levlab's
// persistent bit-parallel kernel; FastModel is its schedule on the CPU),
// Batch (many pairs, a warp each) and CountWindows (report 003's window
// count). Each returns a Timing with allocation, copies and computation
// apart.
package cudaext

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped by every error that means "no usable GPU here":
// no driver, no device, or no backend compiled in. errors.Is tells callers
// (and tests) to skip rather than fail.
var ErrUnavailable = errors.New("cudaext: CUDA unavailable")

// Environment variables that override where the libraries are looked for.
const (
	EnvLibCUDA  = "LEVLAB_LIBCUDA"  // path of the driver library; default libcuda.so.1
	EnvLibNVRTC = "LEVLAB_LIBNVRTC" // path of NVRTC; default libnvrtc.so.13, .12, then libnvrtc.so
)

// DeviceInfo describes a CUDA device, for records and `levlab info`.
type DeviceInfo struct {
	Ordinal     int    // device number, 0 first
	Name        string // as the driver names it, e.g. "NVIDIA H100 80GB HBM3"
	Major       int    // compute capability, major
	Minor       int    // compute capability, minor
	SMs         int    // streaming multiprocessors
	TotalMemory uint64 // bytes
	Driver      int    // driver API version, 1000*major + 10*minor (12040 is 12.4)
	Devices     int    // how many devices the driver sees
}

// Compute returns the compute capability as "major.minor".
func (d DeviceInfo) Compute() string { return fmt.Sprintf("%d.%d", d.Major, d.Minor) }

// Error is a failed CUDA driver or NVRTC call: the function, its result
// code and the code's name ("CUDA_ERROR_OUT_OF_MEMORY",
// "NVRTC_ERROR_COMPILATION"), empty where neither the library nor the
// built-in table knows it.
type Error struct {
	Op   string // the function called, by its exported name (cuMemAlloc_v2)
	Code int    // CUresult or nvrtcResult
	Name string
}

func (e *Error) Error() string {
	name := e.Name
	if name == "" {
		name = "unknown error"
	}
	return fmt.Sprintf("%s: %s (%d)", e.Op, name, e.Code)
}

// errorNames names the common CUresult codes where the driver cannot
// (cuGetErrorName failed or was never loaded).
var errorNames = map[int]string{
	0:   "CUDA_SUCCESS",
	1:   "CUDA_ERROR_INVALID_VALUE",
	2:   "CUDA_ERROR_OUT_OF_MEMORY",
	3:   "CUDA_ERROR_NOT_INITIALIZED",
	4:   "CUDA_ERROR_DEINITIALIZED",
	34:  "CUDA_ERROR_STUB_LIBRARY",
	46:  "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE",
	200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT",
	209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	218: "CUDA_ERROR_INVALID_PTX",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	400: "CUDA_ERROR_INVALID_HANDLE",
	500: "CUDA_ERROR_NOT_FOUND",
	600: "CUDA_ERROR_NOT_READY",
	700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	719: "CUDA_ERROR_LAUNCH_FAILED",
	803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	999: "CUDA_ERROR_UNKNOWN",
}
