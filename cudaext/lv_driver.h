// The C half of package cudaext: the CUDA driver API and NVRTC, reached
// through dlopen/dlsym so that no CUDA header, toolkit or library is needed
// to build: the few types the calls use are declared here, and every
// function is looked up by its explicit versioned name (cuMemAlloc_v2, not
// the header's macro).
//
// The Go files include this header only; the C is in lv_driver.c (loading
// the libraries, the driver's own calls), lv_module.c (NVRTC compile, the
// kernels' module) and lv_jobs.c (one entry point per kernel job).

#ifndef LV_DRIVER_H
#define LV_DRIVER_H

#include <stddef.h>
#include <stdlib.h> // calloc and free, which the Go side calls too

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

// Both tables start with the dlopen handle; the rest is filled by lv_open
// from a symbol table of offsets.
typedef struct {
	void *handle;
	CUresult (*cuInit)(unsigned int);
	CUresult (*cuDriverGetVersion)(int *);
	CUresult (*cuGetErrorName)(CUresult, const char **);
	CUresult (*cuDeviceGet)(CUdevice *, int);
	CUresult (*cuDeviceGetCount)(int *);
	CUresult (*cuDeviceGetName)(char *, int, CUdevice);
	CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
	CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
	CUresult (*cuCtxSetCurrent)(CUcontext);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuModuleLoadData)(CUmodule *, const void *);
	CUresult (*cuModuleUnload)(CUmodule);
	CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*cuLaunchKernel)(CUfunction, unsigned int, unsigned int, unsigned int,
		unsigned int, unsigned int, unsigned int, unsigned int, CUstream, void **, void **);
	CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
	CUresult (*cuMemFree)(CUdeviceptr);
	CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
	CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
	CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
	CUresult (*cuEventCreate)(CUevent *, unsigned int);
	CUresult (*cuEventRecord)(CUevent, CUstream);
	CUresult (*cuEventSynchronize)(CUevent);
	CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
	CUresult (*cuEventDestroy)(CUevent);
	CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
} lv_driver;

typedef struct {
	void *handle;
	nvrtcResult (*nvrtcVersion)(int *, int *);
	const char *(*nvrtcGetErrorString)(nvrtcResult);
	nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
		const char *const *, const char *const *);
	nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
	nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
	nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *);
	nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);
	nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
} lv_nvrtc;

// lv_sym names a function and where its pointer goes in a table: the C
// files fill lv_driver and lv_nvrtc by dlsym, and lv_module by
// cuModuleGetFunction, from arrays of them.
typedef struct {
	const char *name;
	size_t off;
} lv_sym;

#define LV_SYM(T, field, name) {name, offsetof(T, field)}

// Every entry point declared below with an op argument is one whole job.
// On failure it returns the CUresult (or nvrtcResult) and sets *op to the
// name of the call that gave it; on success it returns 0.

#define LV_TRY(op_, call) do { CUresult r_ = (call); if (r_ != 0) { *op = (op_); return r_; } } while (0)

// lv_device is what lv_device_info reads of a device.
typedef struct {
	char name[256];
	int major, minor, sms;
	size_t mem;
} lv_device;

// lv_compiled is what lv_compile made: the log and the CUBIN, malloc'd.
typedef struct {
	char *log;
	size_t log_size;
	char *cubin;
	size_t cubin_size;
} lv_compiled;

// lv_module is the kernels loaded on a device by lv_module_load, every
// kernel looked up by name.
typedef struct {
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUfunction diag_u8, diag_u32, mat_init, mat_u8, mat_u32, fast_shared, fast_global, batch, pairs, windows;
} lv_module;

// lv_timing is what a job measured: allocation (host clock; cuMemAlloc
// is synchronous) and, with CUDA events on the legacy stream, the copies in,
// the computation and the copy out.
typedef struct {
	double alloc, copy_in, compute, copy_out;
	long long launches;
	unsigned blocks; // the largest grid launched
	int threads;
	size_t device_bytes;
} lv_timing;

// LV_CANCELED is what a job returns when its cancel flag was set.
#define LV_CANCELED (-2)

// lv_fast_args is cuda-fast's plan, prepared by the host.
typedef struct {
	size_t peq_bytes;
	int n, m, sigma, bands, chunk, block, sms, shared;
	size_t smem;
} lv_fast_args;

// lv_batch_args is a batch of pairs, prepared by the host.
typedef struct {
	size_t codes_len, peq_bytes;
	int pairs, max_n, chunk, block, sms;
} lv_batch_args;

// lv_pairs_args is a many-pairs job, prepared by the host (see
// kernels/pairs.cu): strings strings in all, codes_len codes and peq_words
// table words, tiles of at most tile_rows queries against nb targets.
typedef struct {
	size_t codes_len, peq_words;
	int strings, b_base, nb, tri, tile_rows, max_len, chunk, block, sms;
} lv_pairs_args;

// lv_pairs_job is one many-pairs job on the device, between lv_pairs_open
// and lv_pairs_close (opaque to Go).
typedef struct lv_pairs_job lv_pairs_job;

// lv_batch_in is where the batch's host arrays are, one argument each
// (cgo lets C read Go memory passed as an argument, not Go pointers stored
// in a struct).
#define LV_BATCH_IN const unsigned *in_codes, const long long *in_b_off, const int *in_b_len, const void *in_peq, \
	const long long *in_peq_off, const int *in_sigma, const int *in_a_len

// lv_driver.c
char *lv_open_driver(const char *path, lv_driver *d);
char *lv_open_nvrtc(const char *path, lv_nvrtc *r);
void lv_close(void *table);
const char *lv_error_name(const lv_driver *d, CUresult code);
CUresult lv_init(const lv_driver *d, int *version, int *count, const char **op);
CUresult lv_device_info(const lv_driver *d, int ordinal, lv_device *out, const char **op);
CUresult lv_round_trip(const lv_driver *d, int ordinal, const void *src, void *dst, size_t n, const char **op);
nvrtcResult lv_nvrtc_version(const lv_nvrtc *r, int *major, int *minor);
const char *lv_nvrtc_error_string(const lv_nvrtc *r, nvrtcResult code);
int lv_call_int(void *handle, const char *name);

// lv_module.c
nvrtcResult lv_compile(const lv_nvrtc *r, const char *src, const char *name,
		const char *const *opts, int nopts, lv_compiled *out, const char **op);
CUresult lv_module_load(const lv_driver *d, int ordinal, const void *image, lv_module *m, const char **op);

// lv_jobs.c
CUresult lv_run_diag(const lv_driver *d, const lv_module *m, const void *a, const void *b, int la, int lb, int sym,
		int block, volatile int *cancel, int *dist, lv_timing *tm, const char **op);
CUresult lv_run_matrix(const lv_driver *d, const lv_module *m, const void *a, const void *b, int la, int lb, int sym,
		int block, volatile int *cancel, int *dist, lv_timing *tm, const char **op);
CUresult lv_run_fast(const lv_driver *d, const lv_module *m, const unsigned *in_codes, const void *in_peq,
		const lv_fast_args *in, long long *score,
		lv_timing *tm, const char **op);
CUresult lv_run_batch(const lv_driver *d, const lv_module *m, LV_BATCH_IN, const lv_batch_args *in, int *out,
		lv_timing *tm, const char **op);
CUresult lv_pairs_open(const lv_driver *d, const lv_module *m, const unsigned *in_codes, const long long *in_code_off,
		const int *in_len, const void *in_peq, const long long *in_peq_off, const lv_pairs_args *in, lv_pairs_job **job,
		const char **op);
CUresult lv_pairs_next(lv_pairs_job *job, int *out, long long count, int first, int rows, const char **op);
CUresult lv_pairs_close(lv_pairs_job *job, CUresult r, lv_timing *tm, const char **op);
CUresult lv_run_windows(const lv_driver *d, const lv_module *m, const void *text, long long len, long long count,
		const void *peq, int words, int plen, int k, unsigned long long *matches, lv_timing *tm, const char **op);
void lv_set_flag(volatile int *flag);

#endif
