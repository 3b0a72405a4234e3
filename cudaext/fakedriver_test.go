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

// fakeDriver is a stand-in libcuda.so.1 with every symbol the loader looks
// up: device memory is host memory, and MODE picks how it fails, so that
// the driver calls, their error names and the context handling run on
// machines without a GPU.
const fakeDriver = `
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { OK, INIT_FAILS, NO_DEVICE, ALLOC_FAILS, COUNT_FAILS_UNNAMED };

static int retained, current;

CUresult cuInit(unsigned flags) { return MODE == INIT_FAILS ? 100 : 0; }
CUresult cuDriverGetVersion(int *v) { *v = 12040; return 0; }
CUresult cuGetErrorName(CUresult c, const char **s) {
	switch (c) {
	case 100: *s = "FAKE_ERROR_NO_DEVICE"; return 0;
	case 2: *s = "FAKE_ERROR_OUT_OF_MEMORY"; return 0;
	}
	return 1;
}
CUresult cuDeviceGet(int *d, int ordinal) { if (ordinal != 0) return 101; *d = 0; return 0; }
CUresult cuDeviceGetCount(int *n) {
	if (MODE == COUNT_FAILS_UNNAMED) return 3;
	*n = MODE == NO_DEVICE ? 0 : 1;
	return 0;
}
CUresult cuDeviceGetName(char *b, int n, int d) { strncpy(b, "Fake GPU", n); return 0; }
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
	switch (attr) {
	case 16: *v = 132; return 0;
	case 75: *v = 9; return 0;
	case 76: *v = 0; return 0;
	}
	return 1;
}
CUresult cuDeviceTotalMem_v2(size_t *m, int d) { *m = (size_t)1 << 34; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { retained++; *c = &retained; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { retained--; return 0; }
CUresult cuCtxSetCurrent(void *c) { current = c != NULL; return 0; }
CUresult cuCtxSynchronize(void) { return current ? 0 : 201; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
	if (MODE == ALLOC_FAILS) return 2;
	if (!current) return 201;
	*p = (CUdeviceptr)(uintptr_t)malloc(n);
	return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return current ? 0 : 201; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return 0; }

// Present for the loader, never called by these tests.
CUresult cuModuleLoadData(void) { return 1; }
CUresult cuModuleUnload(void) { return 1; }
CUresult cuModuleGetFunction(void) { return 1; }
CUresult cuLaunchKernel(void) { return 1; }
CUresult cuEventCreate(void) { return 1; }
CUresult cuEventRecord(void) { return 1; }
CUresult cuEventSynchronize(void) { return 1; }
CUresult cuEventElapsedTime(void) { return 1; }
CUresult cuEventDestroy_v2(void) { return 1; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(void) { return 1; }

// For the test: contexts retained and not released, and whether one is
// still current.
int fake_leftover(void) { return retained + current; }
`

// buildFake compiles fakeDriver with the given MODE into a shared library
// in a temporary directory, or skips where there is no C compiler.
func buildFake(t *testing.T, mode string) string {
	t.Helper()
	cc := "cc"
	if out, err := exec.Command("go", "env", "CC").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		cc = strings.Fields(string(out))[0]
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler to build a fake driver: %v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "fake.c")
	if err := os.WriteFile(src, []byte(fakeDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "libcuda-"+strings.ToLower(mode)+".so")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-DMODE="+mode, "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	return lib
}

func TestFakeDriver(t *testing.T) {
	d, err := probe(buildFake(t, "OK"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := d.device(0)
	want := DeviceInfo{Name: "Fake GPU", Major: 9, SMs: 132, TotalMemory: 1 << 34, Driver: 12040, Devices: 1}
	if err != nil || info != want {
		t.Errorf("device(0) = %+v, %v; want %+v", info, err, want)
	}
	if info.Compute() != "9.0" {
		t.Errorf("Compute() = %q, want 9.0", info.Compute())
	}
	var e *Error
	if _, err := d.device(1); !errors.As(err, &e) || e.Op != "cuDeviceGet" || e.Code != 101 || e.Name != "CUDA_ERROR_INVALID_DEVICE" {
		t.Errorf("device(1): %v, want cuDeviceGet: CUDA_ERROR_INVALID_DEVICE (101) from the built-in names", err)
	}
	for _, n := range []int{0, 1, 64, 65, 4096} {
		in := bytes.Repeat([]byte{0xa5, 3, 0}, n)[:n]
		out, err := d.roundTrip(in)
		if err != nil || !bytes.Equal(in, out) {
			t.Errorf("roundTrip of %d bytes: %v, bytes equal %v", n, err, bytes.Equal(in, out))
		}
	}
	// Every entry point leaves no context retained or current.
	if left := d.callInt("fake_leftover"); left != 0 {
		t.Errorf("after the jobs, %d contexts retained or current", left)
	}
}

func TestFakeDriverFailures(t *testing.T) {
	cases := []struct{ mode, want string }{
		{"INIT_FAILS", "cudaext: CUDA unavailable: cuInit: FAKE_ERROR_NO_DEVICE (100)"},
		{"NO_DEVICE", "cudaext: CUDA unavailable: no CUDA device"},
		{"COUNT_FAILS_UNNAMED", "cudaext: CUDA unavailable: cuDeviceGetCount: CUDA_ERROR_NOT_INITIALIZED (3)"},
	}
	for _, c := range cases {
		_, err := probe(buildFake(t, c.mode))
		if !errors.Is(err, ErrUnavailable) || err.Error() != c.want {
			t.Errorf("MODE=%s: %v, want %q wrapping ErrUnavailable", c.mode, err, c.want)
		}
	}
	d, err := probe(buildFake(t, "ALLOC_FAILS"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.roundTrip([]byte("kitten"))
	var e *Error
	if !errors.As(err, &e) || err.Error() != "cudaext: cuMemAlloc_v2: FAKE_ERROR_OUT_OF_MEMORY (2)" {
		t.Errorf("roundTrip with a failing allocation: %v", err)
	}
	if left := d.callInt("fake_leftover"); left != 0 {
		t.Errorf("after a failed job, %d contexts retained or current", left)
	}
}
