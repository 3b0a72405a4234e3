//go:build cgo

package cudaext

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestNoDriverNamesLibrary(t *testing.T) {
	if _, err := exec.LookPath("ldconfig"); err == nil {
		out, _ := exec.Command("ldconfig", "-p").Output()
		if bytes.Contains(out, []byte("libcuda.so.1 ")) {
			t.Skip("libcuda.so.1 is installed here")
		}
	}
	_, err := probe("libcuda.so.1")
	if err == nil {
		t.Skip("libcuda.so.1 loads here")
	}
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "libcuda.so.1") {
		t.Errorf("probe(libcuda.so.1) = %v, want ErrUnavailable naming libcuda.so.1", err)
	}
	if !strings.HasPrefix(err.Error(), "cudaext: CUDA unavailable: libcuda.so.1: ") {
		t.Errorf("probe(libcuda.so.1) = %q, want it to start with the library", err)
	}
}

func TestEnvPathNotFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "libcuda.so.1")
	t.Setenv(EnvLibCUDA, path)
	_, err := probe(libPath(EnvLibCUDA, "libcuda.so.1"))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), path) {
		t.Errorf("%s=%s: %v, want ErrUnavailable naming the path", EnvLibCUDA, path, err)
	}
}

func TestEnvPathNotADriver(t *testing.T) {
	libc := findLibrary(t, "libc.so.6")
	t.Setenv(EnvLibCUDA, libc)
	_, err := probe(libPath(EnvLibCUDA, "libcuda.so.1"))
	want := libc + ": no symbol cuInit"
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s=%s: %v, want ErrUnavailable saying %q", EnvLibCUDA, libc, err, want)
	}
}

func TestNVRTCNotALibrary(t *testing.T) {
	libc := findLibrary(t, "libc.so.6")
	t.Setenv(EnvLibNVRTC, libc)
	_, err := loadNVRTC()
	want := libc + ": no symbol nvrtcVersion"
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s=%s: %v, want ErrUnavailable saying %q", EnvLibNVRTC, libc, err, want)
	}
	path := filepath.Join(t.TempDir(), "libnvrtc.so.13")
	t.Setenv(EnvLibNVRTC, path)
	if _, err := loadNVRTC(); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), path) {
		t.Errorf("%s=%s: %v, want ErrUnavailable naming the path", EnvLibNVRTC, path, err)
	}
}

// TestNVRTCNamesEachTried: without the variable, the error says why each
// default name did not load.
func TestNVRTCNamesEachTried(t *testing.T) {
	t.Setenv(EnvLibNVRTC, "")
	r, err := loadNVRTC()
	if err == nil {
		t.Skipf("NVRTC %d.%d loads here", r.major, r.minor)
	}
	for _, name := range []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("loadNVRTC() = %v: does not name %s", err, name)
		}
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("loadNVRTC() = %v, which does not wrap ErrUnavailable", err)
	}
	t.Log(err)
}

// findLibrary returns the path ldconfig knows for the shared library name,
// or skips.
func findLibrary(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("ldconfig", "-p").Output()
	if err != nil {
		t.Skipf("ldconfig -p: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) >= 3 && fields[0] == name {
			path := fields[len(fields)-1]
			if _, err := os.Stat(path); err == nil {
				return path
			}
		}
	}
	t.Skipf("ldconfig -p lists no %s", name)
	return ""
}

func TestRoundTrip(t *testing.T) {
	requireGPU(t)
	d, _ := state()
	for _, n := range []int{0, 1, 63, 64, 65, 1 << 20} {
		in := make([]byte, n)
		for i := range in {
			in[i] = byte(i*7 + 1)
		}
		out, err := d.roundTrip(in)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !bytes.Equal(in, out) {
			t.Errorf("n=%d: the bytes did not come back unchanged", n)
		}
	}
}

// TestCompile compiles a small kernel for the device found (sm_90 where
// there is none: NVRTC needs no GPU) and a bad source, whose error is named
// and whose log comes back.
func TestCompile(t *testing.T) {
	needNVRTC(t)
	arch := "--gpu-architecture=sm_90"
	if d, err := Device(); err == nil {
		arch = "--gpu-architecture=sm_" + strings.ReplaceAll(d.Compute(), ".", "")
	}
	cubin, log, err := compile(`extern "C" __global__ void add(int *x) { x[threadIdx.x] += 1; }`, "add.cu", arch)
	if err != nil || len(cubin) == 0 {
		t.Fatalf("compile: %v (%d bytes)\n%s", err, len(cubin), log)
	}
	_, log, err = compile(`this is not CUDA`, "bad.cu", arch)
	var e *Error
	if !errors.As(err, &e) || e.Op != "nvrtcCompileProgram" || e.Name != "NVRTC_ERROR_COMPILATION" || !strings.Contains(log, "bad.cu") {
		t.Errorf("compile of a bad source: err = %v, log %q; want nvrtcCompileProgram: NVRTC_ERROR_COMPILATION and a log naming bad.cu", err, log)
	}
}
