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

enum { OK, INIT_FAILS, NO_DEVICE, ALLOC_FAILS, COUNT_FAILS_UNNAMED, LAUNCH_FAILS };

static int retained, current, launches;
static long live_allocs; // device buffers and events not yet freed

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
	live_allocs++;
	return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); live_allocs--; return current ? 0 : 201; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return 0; }

// Modules and kernels. A function handle is its name; a launch runs a C
// stand-in of the kernel on the host with the launch's arguments, over the
// whole grid: per thread for the one-thread-per-cell kernels, as a whole
// dynamic programme for the warp kernels. Device memory is host memory, so
// the entry points' allocations, copies, arguments and read-backs are
// checked end to end.
typedef struct { char name[40]; } fake_fn;

CUresult cuModuleLoadData(void **mod, const void *image) {
	if (!current) return 201;
	*mod = (void *)image;
	return 0;
}
CUresult cuModuleUnload(void *mod) { return 0; }
CUresult cuModuleGetFunction(void **f, void *mod, const char *name) {
	fake_fn *fn = calloc(1, sizeof *fn);
	strncpy(fn->name, name, sizeof fn->name - 1);
	*f = fn;
	return 0;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int block, size_t smem) { *n = 2; return 0; }
CUresult cuEventCreate(void **e, unsigned flags) { *e = malloc(1); live_allocs++; return 0; }
CUresult cuEventRecord(void *e, void *stream) { return current ? 0 : 201; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 0.25f; return 0; }
CUresult cuEventDestroy_v2(void *e) { free(e); live_allocs--; return 0; }

#define ARG(T, i) (*(T *)args[i])
static int imin(int a, int b) { return a < b ? a : b; }

// fake_dp is the two-row programme over symbols read through two getters.
typedef long long (*sym_at)(const void *, long long);
static int fake_dp(const void *a, sym_at ga, long long la, const void *b, sym_at gb, long long lb) {
	int *prev = malloc((lb + 1) * sizeof(int)), *cur = malloc((lb + 1) * sizeof(int));
	for (long long j = 0; j <= lb; j++) prev[j] = j;
	for (long long i = 1; i <= la; i++) {
		cur[0] = i;
		long long x = ga(a, i - 1);
		for (long long j = 1; j <= lb; j++) {
			int v = prev[j - 1] + (x != gb(b, j - 1));
			v = imin(v, imin(prev[j] + 1, cur[j - 1] + 1));
			cur[j] = v;
		}
		int *t = prev; prev = cur; cur = t;
	}
	int d = prev[lb];
	free(prev); free(cur);
	return d;
}
static long long at_u8(const void *p, long long i) { return ((const uint8_t *)p)[i]; }
static long long at_u32(const void *p, long long i) { return ((const uint32_t *)p)[i]; }

// rows_from_peq recovers the row symbols (codes) of a cuda-fast match table
// of 32-bit words: row i has the code whose word i/32 has bit i%32.
static uint32_t *rows_from_peq(const uint32_t *peq, int sigma, long long stride, int m) {
	uint32_t *rows = calloc(m, 4);
	for (int c = 0; c < sigma; c++)
		for (int i = 0; i < m; i++)
			if (peq[(long long)c * stride + i / 32] >> (i % 32) & 1) rows[i] = c;
	return rows;
}

static void fake_diag(void **args, long long threads, int wide) {
	const void *a = ARG(void *, 0), *b = ARG(void *, 1);
	int d = ARG(int, 2), lo = ARG(int, 3), cells = ARG(int, 4);
	const int *p2 = ARG(int *, 5), *p1 = ARG(int *, 6);
	int *cur = ARG(int *, 7);
	for (long long t = 0; t < threads && t < cells; t++) {
		int i = lo + t, j = d - i, v;
		if (i == 0) v = j;
		else if (j == 0) v = i;
		else {
			long long x = wide ? at_u32(a, i - 1) : at_u8(a, i - 1), y = wide ? at_u32(b, j - 1) : at_u8(b, j - 1);
			v = imin(p2[i - 1] + (x != y), imin(p1[i - 1], p1[i]) + 1);
		}
		cur[i] = v;
	}
}

static void fake_mat(void **args, long long threads, int wide) {
	const void *a = ARG(void *, 0), *b = ARG(void *, 1);
	int *h = ARG(int *, 2);
	int n = ARG(int, 3);
	long long start = ARG(long long, 4);
	int cells = ARG(int, 5);
	long long w = (long long)n + 1;
	for (long long t = 0; t < threads && t < cells; t++) {
		long long index = start + t * (w - 1), row = index / w, col = index % w;
		long long x = wide ? at_u32(a, row - 1) : at_u8(a, row - 1), y = wide ? at_u32(b, col - 1) : at_u8(b, col - 1);
		h[index] = imin(h[index - w - 1] + (x != y), imin(h[index - w], h[index - 1]) + 1);
	}
}

static void fake_mat_init(void **args, long long threads) {
	int *h = ARG(int *, 0), m = ARG(int, 1), n = ARG(int, 2);
	for (long long t = 0; t < threads; t++) {
		if (t <= n) h[t] = t;
		if (t <= m) h[t * ((long long)n + 1)] = t;
	}
}

static void fake_fast(void **args) {
	const uint32_t *codes = ARG(uint32_t *, 0);
	int n = ARG(int, 1), m = ARG(int, 2);
	const uint32_t *peq = ARG(uint32_t *, 3);
	int sigma = ARG(int, 4), bands = ARG(int, 5);
	unsigned long long *result = ARG(unsigned long long *, 9);
	uint32_t *rows = rows_from_peq(peq, sigma, (long long)bands * 32, m);
	*result += (unsigned long long)(long long)(fake_dp(rows, at_u32, m, codes, at_u32, n) - n);
	free(rows);
}

static void fake_batch(void **args) {
	const uint32_t *codes = ARG(uint32_t *, 0);
	const long long *b_off = ARG(long long *, 1);
	const int *b_len = ARG(int *, 2);
	const uint32_t *peq = ARG(uint32_t *, 3);
	const long long *peq_off = ARG(long long *, 4);
	const int *sigma = ARG(int *, 5), *a_len = ARG(int *, 6);
	int pairs = ARG(int, 7);
	int *out = ARG(int *, 11);
	for (int p = 0; p < pairs; p++) {
		int m = a_len[p], bands = (m + 1023) / 1024;
		uint32_t *rows = rows_from_peq(peq + peq_off[p], sigma[p], (long long)bands * 32, m);
		out[p] = fake_dp(rows, at_u32, m, codes + b_off[p], at_u32, b_len[p]);
		free(rows);
	}
}

// fake_pairs computes every pair of the tile from the strings' codes (the
// tables are the real kernel's business): out[q] for query first + q/nb
// against target q%nb, skipping j <= i under tri.
static void fake_pairs(void **args) {
	const uint32_t *codes = ARG(uint32_t *, 0);
	const long long *off = ARG(long long *, 1);
	const int *len = ARG(int *, 2);
	int b_base = ARG(int, 5), nb = ARG(int, 6), tri = ARG(int, 7), first = ARG(int, 8), rows = ARG(int, 9);
	int *out = ARG(int *, 13);
	for (long long q = 0; q < (long long)rows * nb; q++) {
		int i = first + (int)(q / nb), j = (int)(q % nb), c = b_base + j;
		if (tri && j <= i) continue;
		out[q] = fake_dp(codes + off[i], at_u32, len[i], codes + off[c], at_u32, len[c]);
	}
}

static void fake_windows(void **args, long long threads) {
	const uint8_t *text = ARG(uint8_t *, 0);
	long long len = ARG(long long, 1), count = ARG(long long, 2);
	const uint64_t *peq = ARG(uint64_t *, 3);
	int m = ARG(int, 4), words = ARG(int, 5), k = ARG(int, 6);
	unsigned long long *result = ARG(unsigned long long *, 7);
	uint8_t *p = calloc(m, 1);
	for (int c = 0; c < 256; c++)
		for (int i = 0; i < m; i++)
			if (peq[c * words + i / 64] >> (i % 64) & 1) p[i] = c;
	for (long long j = 0; j < threads && j < count; j++) {
		long long size = m < len - j ? m : len - j;
		if (fake_dp(p, at_u8, size, text + j, at_u8, size) <= k) (*result)++;
	}
	free(p);
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		unsigned smem, void *stream, void **args, void **extra) {
	if (!current) return 201;
	if (MODE == LAUNCH_FAILS) return 719;
	if (gx == 0 || bx == 0 || bx > 1024) return 1;
	const char *name = ((fake_fn *)f)->name;
	long long threads = (long long)gx * bx;
	launches++;
	if (!strcmp(name, "lv_diag_u8")) fake_diag(args, threads, 0);
	else if (!strcmp(name, "lv_diag_u32")) fake_diag(args, threads, 1);
	else if (!strcmp(name, "lv_mat_u8")) fake_mat(args, threads, 0);
	else if (!strcmp(name, "lv_mat_u32")) fake_mat(args, threads, 1);
	else if (!strcmp(name, "lv_mat_init")) fake_mat_init(args, threads);
	else if (!strcmp(name, "lv_fast_shared") || !strcmp(name, "lv_fast_global")) fake_fast(args);
	else if (!strcmp(name, "lv_batch")) fake_batch(args);
	else if (!strcmp(name, "lv_pairs")) fake_pairs(args);
	else if (!strcmp(name, "lv_windows")) fake_windows(args, threads);
	else return 500;
	return 0;
}

int fake_launches(void) { return launches; }
int fake_live(void) { return (int)live_allocs; }
int fake_current(void) { return current; }

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
