package cudaext

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// requireGPU makes the device tests fail rather than skip where no device
// is usable, for machines that are meant to have one.
func requireGPU(t *testing.T) {
	t.Helper()
	err := Available()
	if err == nil {
		return
	}
	if os.Getenv("LEVLAB_REQUIRE_GPU") == "1" {
		t.Fatalf("LEVLAB_REQUIRE_GPU=1 but %v", err)
	}
	t.Skip(err)
}

func TestAvailableSaysWhy(t *testing.T) {
	err := Available()
	if err == nil {
		t.Logf("CUDA is available here")
		return
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Available() = %v, which does not wrap ErrUnavailable", err)
	}
	// The reason names the library that did not load, the driver call that
	// failed, or the empty device list.
	msg := err.Error()
	if !strings.Contains(msg, "libcuda.so.1") && !strings.Contains(msg, os.Getenv(EnvLibCUDA)+":") &&
		!errors.As(err, new(*Error)) && !strings.HasSuffix(msg, "no CUDA device") && !strings.Contains(msg, "without cgo") {
		t.Errorf("Available() = %q: names no library, driver call or device count", err)
	}
	if Available() != err {
		t.Errorf("Available() is not cached: a second call returned a different error")
	}
	if _, derr := Device(); derr != err {
		t.Errorf("Device() error = %v, want Available's %v", derr, err)
	}
	t.Logf("Available() = %v", err)
}

func TestErrorFormat(t *testing.T) {
	cases := []struct {
		e    Error
		want string
	}{
		{Error{Op: "cuMemAlloc_v2", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY"}, "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2)"},
		{Error{Op: "cuInit", Code: 100, Name: errorNames[100]}, "cuInit: CUDA_ERROR_NO_DEVICE (100)"},
		{Error{Op: "nvrtcCompileProgram", Code: 6, Name: "NVRTC_ERROR_COMPILATION"}, "nvrtcCompileProgram: NVRTC_ERROR_COMPILATION (6)"},
		{Error{Op: "cuLaunchKernel", Code: 12345}, "cuLaunchKernel: unknown error (12345)"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%#v.Error() = %q, want %q", c.e, got, c.want)
		}
	}
	var err error = &Error{Op: "cuInit", Code: 3, Name: errorNames[3]}
	wrapped := errors.Join(ErrUnavailable, err)
	var e *Error
	if !errors.As(wrapped, &e) || e.Code != 3 || e.Name != "CUDA_ERROR_NOT_INITIALIZED" {
		t.Errorf("errors.As(%v) = %+v", wrapped, e)
	}
}

func TestDevice(t *testing.T) {
	requireGPU(t)
	d, err := Device()
	if err != nil {
		t.Fatal(err)
	}
	if d.Name == "" || d.Major < 3 || d.SMs < 1 || d.TotalMemory == 0 || d.Driver < 1000 || d.Devices < 1 {
		t.Errorf("Device() = %+v: implausible", d)
	}
	t.Logf("%s, compute %s, %d SMs, %d MiB, driver %d", d.Name, d.Compute(), d.SMs, d.TotalMemory>>20, d.Driver)
}

// TestRequireGPU runs TestDevice again in a child process with
// LEVLAB_REQUIRE_GPU=1 where no GPU is usable: it must fail, not skip.
func TestRequireGPU(t *testing.T) {
	if Available() == nil {
		t.Skip("CUDA is available here: nothing to fail")
	}
	if os.Getenv("LEVLAB_REQUIRE_GPU") != "" {
		t.Skip("LEVLAB_REQUIRE_GPU is set already")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDevice$", "-test.v")
	cmd.Env = append(os.Environ(), "LEVLAB_REQUIRE_GPU=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--- FAIL: TestDevice") || !strings.Contains(string(out), "LEVLAB_REQUIRE_GPU=1 but") {
		t.Errorf("TestDevice with LEVLAB_REQUIRE_GPU=1 and no GPU: err = %v, want a failure\n%s", err, out)
	}
}
