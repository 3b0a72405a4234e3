package cudaext

/*
#cgo LDFLAGS: -ldl

// The CUDA driver API and NVRTC, reached through dlopen/dlsym so that no CUDA
// header, toolkit or library is needed to build: the few types the calls
// below use are declared here, and every function is looked up by its
// explicit versioned name (cuMemAlloc_v2, not the header's macro).

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

// Device attributes (CUdevice_attribute) read by lv_device_info.
enum {
	LV_ATTR_SM_COUNT = 16,
	LV_ATTR_CC_MAJOR = 75,
	LV_ATTR_CC_MINOR = 76,
};

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

typedef struct {
	const char *name;
	size_t off;
} lv_sym;

#define LV_SYM(T, field, name) {name, offsetof(T, field)}

static const lv_sym lv_driver_syms[] = {
	LV_SYM(lv_driver, cuInit, "cuInit"),
	LV_SYM(lv_driver, cuDriverGetVersion, "cuDriverGetVersion"),
	LV_SYM(lv_driver, cuGetErrorName, "cuGetErrorName"),
	LV_SYM(lv_driver, cuDeviceGet, "cuDeviceGet"),
	LV_SYM(lv_driver, cuDeviceGetCount, "cuDeviceGetCount"),
	LV_SYM(lv_driver, cuDeviceGetName, "cuDeviceGetName"),
	LV_SYM(lv_driver, cuDeviceGetAttribute, "cuDeviceGetAttribute"),
	LV_SYM(lv_driver, cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
	LV_SYM(lv_driver, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	LV_SYM(lv_driver, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	LV_SYM(lv_driver, cuCtxSetCurrent, "cuCtxSetCurrent"),
	LV_SYM(lv_driver, cuCtxSynchronize, "cuCtxSynchronize"),
	LV_SYM(lv_driver, cuModuleLoadData, "cuModuleLoadData"),
	LV_SYM(lv_driver, cuModuleUnload, "cuModuleUnload"),
	LV_SYM(lv_driver, cuModuleGetFunction, "cuModuleGetFunction"),
	LV_SYM(lv_driver, cuLaunchKernel, "cuLaunchKernel"),
	LV_SYM(lv_driver, cuMemAlloc, "cuMemAlloc_v2"),
	LV_SYM(lv_driver, cuMemFree, "cuMemFree_v2"),
	LV_SYM(lv_driver, cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
	LV_SYM(lv_driver, cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
	LV_SYM(lv_driver, cuMemsetD8, "cuMemsetD8_v2"),
	LV_SYM(lv_driver, cuEventCreate, "cuEventCreate"),
	LV_SYM(lv_driver, cuEventRecord, "cuEventRecord"),
	LV_SYM(lv_driver, cuEventSynchronize, "cuEventSynchronize"),
	LV_SYM(lv_driver, cuEventElapsedTime, "cuEventElapsedTime"),
	LV_SYM(lv_driver, cuEventDestroy, "cuEventDestroy_v2"),
	LV_SYM(lv_driver, cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
};

static const lv_sym lv_nvrtc_syms[] = {
	LV_SYM(lv_nvrtc, nvrtcVersion, "nvrtcVersion"),
	LV_SYM(lv_nvrtc, nvrtcGetErrorString, "nvrtcGetErrorString"),
	LV_SYM(lv_nvrtc, nvrtcCreateProgram, "nvrtcCreateProgram"),
	LV_SYM(lv_nvrtc, nvrtcCompileProgram, "nvrtcCompileProgram"),
	LV_SYM(lv_nvrtc, nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"),
	LV_SYM(lv_nvrtc, nvrtcGetProgramLog, "nvrtcGetProgramLog"),
	LV_SYM(lv_nvrtc, nvrtcGetCUBINSize, "nvrtcGetCUBINSize"),
	LV_SYM(lv_nvrtc, nvrtcGetCUBIN, "nvrtcGetCUBIN"),
	LV_SYM(lv_nvrtc, nvrtcDestroyProgram, "nvrtcDestroyProgram"),
};

// lv_open dlopens path and fills the table at dst (handle first) from syms.
// It returns NULL on success, else a malloc'd message: dlerror's text when
// the library does not load, or the name of the first missing symbol
// prefixed by "symbol " (the library is closed again).
static char *lv_open(const char *path, void *dst, const lv_sym *syms, size_t n) {
	dlerror();
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();
		return strdup(e != NULL ? e : "dlopen failed");
	}
	for (size_t i = 0; i < n; i++) {
		void *f = dlsym(h, syms[i].name);
		if (f == NULL) {
			size_t len = strlen(syms[i].name) + sizeof "symbol ";
			char *msg = malloc(len);
			if (msg != NULL) {
				strcpy(msg, "symbol ");
				strcat(msg, syms[i].name);
			}
			dlclose(h);
			return msg;
		}
		memcpy((char *)dst + syms[i].off, &f, sizeof f);
	}
	*(void **)dst = h;
	return NULL;
}

// lv_close closes the library of a table filled by lv_open and frees it.
static void lv_close(void *table) {
	dlclose(*(void **)table);
	free(table);
}

static char *lv_open_driver(const char *path, lv_driver *d) {
	return lv_open(path, d, lv_driver_syms, sizeof lv_driver_syms / sizeof lv_driver_syms[0]);
}

static char *lv_open_nvrtc(const char *path, lv_nvrtc *r) {
	return lv_open(path, r, lv_nvrtc_syms, sizeof lv_nvrtc_syms / sizeof lv_nvrtc_syms[0]);
}

// Every entry point below is one whole job. On failure it returns the
// CUresult (or nvrtcResult) and sets *op to the name of the call that gave
// it; on success it returns 0.

#define LV_TRY(op_, call) do { CUresult r_ = (call); if (r_ != 0) { *op = (op_); return r_; } } while (0)

static const char *lv_error_name(const lv_driver *d, CUresult code) {
	const char *name = NULL;
	if (d->cuGetErrorName(code, &name) != 0) {
		return NULL;
	}
	return name;
}

// lv_init initialises the driver and counts the devices.
static CUresult lv_init(const lv_driver *d, int *version, int *count, const char **op) {
	LV_TRY("cuInit", d->cuInit(0));
	LV_TRY("cuDriverGetVersion", d->cuDriverGetVersion(version));
	LV_TRY("cuDeviceGetCount", d->cuDeviceGetCount(count));
	return 0;
}

typedef struct {
	char name[256];
	int major, minor, sms;
	size_t mem;
} lv_device;

// lv_device_info describes device ordinal; it needs no context.
static CUresult lv_device_info(const lv_driver *d, int ordinal, lv_device *out, const char **op) {
	CUdevice dev;
	LV_TRY("cuDeviceGet", d->cuDeviceGet(&dev, ordinal));
	LV_TRY("cuDeviceGetName", d->cuDeviceGetName(out->name, sizeof out->name, dev));
	out->name[sizeof out->name - 1] = 0;
	LV_TRY("cuDeviceGetAttribute", d->cuDeviceGetAttribute(&out->major, LV_ATTR_CC_MAJOR, dev));
	LV_TRY("cuDeviceGetAttribute", d->cuDeviceGetAttribute(&out->minor, LV_ATTR_CC_MINOR, dev));
	LV_TRY("cuDeviceGetAttribute", d->cuDeviceGetAttribute(&out->sms, LV_ATTR_SM_COUNT, dev));
	LV_TRY("cuDeviceTotalMem_v2", d->cuDeviceTotalMem(&out->mem, dev));
	return 0;
}

// lv_enter makes the primary context of device ordinal current on this OS
// thread; every entry point that touches device memory or modules starts
// with it (Go may run each cgo call on a different thread) and ends with
// lv_leave.
static CUresult lv_enter(const lv_driver *d, int ordinal, CUdevice *dev, const char **op) {
	CUcontext ctx;
	LV_TRY("cuDeviceGet", d->cuDeviceGet(dev, ordinal));
	LV_TRY("cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain(&ctx, *dev));
	CUresult r = d->cuCtxSetCurrent(ctx);
	if (r != 0) {
		d->cuDevicePrimaryCtxRelease(*dev);
		*op = "cuCtxSetCurrent";
		return r;
	}
	return 0;
}

static void lv_leave(const lv_driver *d, CUdevice dev) {
	d->cuCtxSetCurrent(NULL);
	d->cuDevicePrimaryCtxRelease(dev);
}

// lv_round_trip copies n bytes from src to the device and back into dst,
// after clearing the device buffer: a whole job that checks the context,
// allocation and copies work.
static CUresult lv_round_trip(const lv_driver *d, int ordinal, const void *src, void *dst, size_t n, const char **op) {
	CUdevice dev;
	CUresult r = lv_enter(d, ordinal, &dev, op);
	if (r != 0) {
		return r;
	}
	CUdeviceptr buf = 0;
	if ((r = d->cuMemAlloc(&buf, n)) != 0) {
		*op = "cuMemAlloc_v2";
	} else if ((r = d->cuMemsetD8(buf, 0, n)) != 0) {
		*op = "cuMemsetD8_v2";
	} else if ((r = d->cuMemcpyHtoD(buf, src, n)) != 0) {
		*op = "cuMemcpyHtoD_v2";
	} else if ((r = d->cuMemcpyDtoH(dst, buf, n)) != 0) {
		*op = "cuMemcpyDtoH_v2";
	} else if ((r = d->cuCtxSynchronize()) != 0) {
		*op = "cuCtxSynchronize";
	}
	if (buf != 0) {
		CUresult rf = d->cuMemFree(buf);
		if (r == 0 && rf != 0) {
			r = rf;
			*op = "cuMemFree_v2";
		}
	}
	lv_leave(d, dev);
	return r;
}

static nvrtcResult lv_nvrtc_version(const lv_nvrtc *r, int *major, int *minor) {
	return r->nvrtcVersion(major, minor);
}

static const char *lv_nvrtc_error_string(const lv_nvrtc *r, nvrtcResult code) {
	return r->nvrtcGetErrorString(code);
}

// lv_call_int calls the int (void) function name of the library behind
// handle, for tests with a stand-in driver; -1 where there is none.
static int lv_call_int(void *handle, const char *name) {
	void *f = dlsym(handle, name);
	if (f == NULL) {
		return -1;
	}
	int (*fn)(void);
	memcpy(&fn, &f, sizeof f);
	return fn();
}

typedef struct {
	char *log;
	size_t log_size;
	char *cubin;
	size_t cubin_size;
} lv_compiled;

// lv_compile compiles one CUDA C++ source to a CUBIN with the given options:
// create, compile, fetch the log (also on failure) and the CUBIN, destroy.
// out's buffers are malloc'd; the caller frees them.
static nvrtcResult lv_compile(const lv_nvrtc *r, const char *src, const char *name,
		const char *const *opts, int nopts, lv_compiled *out, const char **op) {
	nvrtcProgram prog = NULL;
	nvrtcResult res = r->nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
	if (res != 0) {
		*op = "nvrtcCreateProgram";
		return res;
	}
	nvrtcResult cres = r->nvrtcCompileProgram(prog, nopts, opts);
	size_t size = 0;
	if (r->nvrtcGetProgramLogSize(prog, &size) == 0 && size > 1) {
		out->log = malloc(size);
		if (out->log != NULL && r->nvrtcGetProgramLog(prog, out->log) == 0) {
			out->log_size = size - 1;
		}
	}
	if (cres != 0) {
		*op = "nvrtcCompileProgram";
		res = cres;
	} else if ((res = r->nvrtcGetCUBINSize(prog, &size)) != 0) {
		*op = "nvrtcGetCUBINSize";
	} else if ((out->cubin = malloc(size > 0 ? size : 1)) == NULL) {
		*op = "malloc";
		res = -1;
	} else if ((res = r->nvrtcGetCUBIN(prog, out->cubin)) != 0) {
		*op = "nvrtcGetCUBIN";
	} else {
		out->cubin_size = size;
	}
	r->nvrtcDestroyProgram(&prog);
	return res;
}

// ---- Kernels: the module and one entry point per job. ----

typedef struct {
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUfunction diag_u8, diag_u32, mat_init, mat_u8, mat_u32, fast_shared, fast_global, batch, windows;
} lv_module;

static const lv_sym lv_kernel_syms[] = {
	LV_SYM(lv_module, diag_u8, "lv_diag_u8"),
	LV_SYM(lv_module, diag_u32, "lv_diag_u32"),
	LV_SYM(lv_module, mat_init, "lv_mat_init"),
	LV_SYM(lv_module, mat_u8, "lv_mat_u8"),
	LV_SYM(lv_module, mat_u32, "lv_mat_u32"),
	LV_SYM(lv_module, fast_shared, "lv_fast_shared"),
	LV_SYM(lv_module, fast_global, "lv_fast_global"),
	LV_SYM(lv_module, batch, "lv_batch"),
	LV_SYM(lv_module, windows, "lv_windows"),
};

// lv_module_load retains the primary context of device ordinal for the
// life of the process (so that the module stays loaded between jobs),
// loads the CUBIN image and looks up every kernel. The context is current
// only inside this call.
static CUresult lv_module_load(const lv_driver *d, int ordinal, const void *image, lv_module *m, const char **op) {
	LV_TRY("cuDeviceGet", d->cuDeviceGet(&m->dev, ordinal));
	LV_TRY("cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain(&m->ctx, m->dev));
	CUresult r = d->cuCtxSetCurrent(m->ctx);
	if (r != 0) {
		*op = "cuCtxSetCurrent";
	} else if ((r = d->cuModuleLoadData(&m->mod, image)) != 0) {
		*op = "cuModuleLoadData";
	} else {
		for (size_t i = 0; i < sizeof lv_kernel_syms / sizeof lv_kernel_syms[0]; i++) {
			CUfunction f;
			if ((r = d->cuModuleGetFunction(&f, m->mod, lv_kernel_syms[i].name)) != 0) {
				*op = "cuModuleGetFunction";
				d->cuModuleUnload(m->mod);
				break;
			}
			memcpy((char *)m + lv_kernel_syms[i].off, &f, sizeof f);
		}
	}
	d->cuCtxSetCurrent(NULL);
	if (r != 0) {
		d->cuDevicePrimaryCtxRelease(m->dev);
	}
	return r;
}

#include <time.h>

static double lv_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// lv_timing is what a job measured: allocation (host clock; cuMemAlloc
// is synchronous) and, with CUDA events on the legacy stream, the copies in,
// the computation and the copy out.
typedef struct {
	double alloc, copy_in, compute, copy_out;
	long long launches;
	int blocks, threads;
	size_t device_bytes;
} lv_timing;

#define LV_MAX_BUFFERS 12
#define LV_CANCELED (-2)

// lv_job holds what one entry point allocated, freed by lv_job_end
// whatever happened.
typedef struct {
	const lv_driver *d;
	const lv_module *m;
	const char **op;
	CUdeviceptr buf[LV_MAX_BUFFERS];
	int nbuf;
	CUevent ev[4];
	int nev;
	lv_timing *tm;
} lv_job;

static CUresult lv_job_begin(lv_job *j, const lv_driver *d, const lv_module *m, lv_timing *tm, const char **op) {
	memset(j, 0, sizeof *j);
	memset(tm, 0, sizeof *tm);
	j->d = d;
	j->m = m;
	j->op = op;
	j->tm = tm;
	LV_TRY("cuCtxSetCurrent", d->cuCtxSetCurrent(m->ctx));
	for (int i = 0; i < 4; i++) {
		CUresult r = d->cuEventCreate(&j->ev[i], 0);
		if (r != 0) {
			*op = "cuEventCreate";
			return r;
		}
		j->nev++;
	}
	return 0;
}

static CUresult lv_alloc(lv_job *j, CUdeviceptr *p, size_t n) {
	const char **op = j->op;
	if (n == 0) {
		n = 1;
	}
	LV_TRY("cuMemAlloc_v2", j->d->cuMemAlloc(p, n));
	j->buf[j->nbuf++] = *p;
	j->tm->device_bytes += n;
	return 0;
}

static CUresult lv_record(lv_job *j, int i) {
	const char **op = j->op;
	LV_TRY("cuEventRecord", j->d->cuEventRecord(j->ev[i], NULL));
	return 0;
}

// lv_times waits for the last event and reads the three intervals.
static CUresult lv_times(lv_job *j) {
	const char **op = j->op;
	float ms[3];
	LV_TRY("cuEventSynchronize", j->d->cuEventSynchronize(j->ev[3]));
	for (int i = 0; i < 3; i++) {
		LV_TRY("cuEventElapsedTime", j->d->cuEventElapsedTime(&ms[i], j->ev[i], j->ev[i + 1]));
	}
	j->tm->copy_in = ms[0] * 1e-3;
	j->tm->compute = ms[1] * 1e-3;
	j->tm->copy_out = ms[2] * 1e-3;
	return 0;
}

static CUresult lv_launch(lv_job *j, CUfunction f, unsigned grid, unsigned block, unsigned smem, void **args) {
	const char **op = j->op;
	LV_TRY("cuLaunchKernel", j->d->cuLaunchKernel(f, grid, 1, 1, block, 1, 1, smem, NULL, args, NULL));
	j->tm->launches++;
	return 0;
}

// lv_job_end synchronises, frees and destroys everything the job made and
// leaves the context; it returns r, or the first error of its own where r
// is 0.
static CUresult lv_job_end(lv_job *j, CUresult r) {
	const lv_driver *d = j->d;
	CUresult s = d->cuCtxSynchronize();
	if (r == 0 && s != 0) {
		r = s;
		*j->op = "cuCtxSynchronize";
	}
	for (int i = j->nbuf - 1; i >= 0; i--) {
		CUresult f = d->cuMemFree(j->buf[i]);
		if (r == 0 && f != 0) {
			r = f;
			*j->op = "cuMemFree_v2";
		}
	}
	for (int i = 0; i < j->nev; i++) {
		d->cuEventDestroy(j->ev[i]);
	}
	d->cuCtxSetCurrent(NULL);
	return r;
}

// lv_copy_in records event 0, copies n[i] bytes from src[i] to dst[i] for
// each of the count buffers, and records event 1.
static CUresult lv_copy_in(lv_job *j, int count, const CUdeviceptr *dst, const void *const *src, const size_t *n) {
	const char **op = j->op;
	CUresult r = lv_record(j, 0);
	for (int i = 0; r == 0 && i < count; i++) {
		LV_TRY("cuMemcpyHtoD_v2", j->d->cuMemcpyHtoD(dst[i], src[i], n[i]));
	}
	return r != 0 ? r : lv_record(j, 1);
}

// lv_copy_out records event 2 (the computation is over), copies n bytes of
// the result back, records event 3 and reads the three intervals.
static CUresult lv_copy_out(lv_job *j, void *dst, CUdeviceptr src, size_t n) {
	const char **op = j->op;
	CUresult r = lv_record(j, 2);
	if (r != 0) {
		return r;
	}
	LV_TRY("cuMemcpyDtoH_v2", j->d->cuMemcpyDtoH(dst, src, n));
	if ((r = lv_record(j, 3)) != 0) {
		return r;
	}
	return lv_times(j);
}

static unsigned lv_blocks(long long cells, int block) {
	return (unsigned)((cells + block - 1) / block);
}

// lv_run_diag: cuda-diagonal. a, b are m and n symbols of sym bytes each.
static CUresult lv_run_diag(const lv_driver *d, const lv_module *m, const void *a, const void *b, int la, int lb, int sym,
		int block, volatile int *cancel, int *dist, lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUdeviceptr da, db, fr[3];
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &da, (size_t)la * sym)) == 0 && (r = lv_alloc(&j, &db, (size_t)lb * sym)) == 0) {
		for (int i = 0; i < 3 && r == 0; i++) {
			r = lv_alloc(&j, &fr[i], ((size_t)la + 1) * sizeof(int));
		}
	}
	tm->alloc = lv_now() - t0;
	tm->threads = block;
	if (r == 0) {
		CUdeviceptr dst[] = {da, db};
		const void *src[] = {a, b};
		size_t n[] = {(size_t)la * sym, (size_t)lb * sym};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	CUfunction f = sym == 1 ? m->diag_u8 : m->diag_u32;
	CUdeviceptr p2 = fr[0], p1 = fr[1], cur = fr[2];
	for (int diag = 0; r == 0 && diag <= la + lb; diag++) {
		int lo = diag > lb ? diag - lb : 0, hi = diag < la ? diag : la, cells = hi - lo + 1;
		void *args[] = {&da, &db, &diag, &lo, &cells, &p2, &p1, &cur};
		unsigned grid = lv_blocks(cells, block);
		if (grid > tm->blocks) {
			tm->blocks = grid;
		}
		r = lv_launch(&j, f, grid, block, 0, args);
		CUdeviceptr old = p2;
		p2 = p1;
		p1 = cur;
		cur = old;
		if ((diag & 1023) == 0 && *cancel) {
			r = LV_CANCELED;
		}
	}
	if (r == 0) {
		r = lv_copy_out(&j, dist, p1 + (size_t)la * sizeof(int), sizeof(int));
	}
	return lv_job_end(&j, r);
}

// lv_run_matrix: cuda-matrix. The allocation and initialisation of the
// matrix (first row and column) are timed together as the allocation.
static CUresult lv_run_matrix(const lv_driver *d, const lv_module *m, const void *a, const void *b, int la, int lb, int sym,
		int block, volatile int *cancel, int *dist, lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUdeviceptr da, db, h;
	long long w = (long long)lb + 1;
	size_t cells = ((size_t)la + 1) * (size_t)w;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &da, (size_t)la * sym)) == 0 && (r = lv_alloc(&j, &db, (size_t)lb * sym)) == 0) {
		r = lv_alloc(&j, &h, cells * sizeof(int));
	}
	if (r == 0) {
		void *args[] = {&h, &la, &lb};
		int side = (la > lb ? la : lb) + 1;
		r = lv_launch(&j, m->mat_init, lv_blocks(side, block), block, 0, args);
	}
	if (r == 0 && (r = d->cuCtxSynchronize()) != 0) {
		*op = "cuCtxSynchronize";
	}
	tm->alloc = lv_now() - t0;
	tm->threads = block;
	if (r == 0) {
		CUdeviceptr dst[] = {da, db};
		const void *src[] = {a, b};
		size_t n[] = {(size_t)la * sym, (size_t)lb * sym};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	CUfunction f = sym == 1 ? m->mat_u8 : m->mat_u32;
	for (int diag = 2; r == 0 && diag <= la + lb; diag++) {
		int lo = diag - lb > 1 ? diag - lb : 1, hi = diag - 1 < la ? diag - 1 : la, n = hi - lo + 1;
		long long start = (long long)lo * w + (diag - lo);
		void *args[] = {&da, &db, &h, &lb, &start, &n};
		unsigned grid = lv_blocks(n, block);
		if (grid > tm->blocks) {
			tm->blocks = grid;
		}
		r = lv_launch(&j, f, grid, block, 0, args);
		if ((diag & 1023) == 0 && *cancel) {
			r = LV_CANCELED;
		}
	}
	if (r == 0) {
		r = lv_copy_out(&j, dist, h + cells * sizeof(int) - sizeof(int), sizeof(int));
	}
	return lv_job_end(&j, r);
}

// lv_fast_args is cuda-fast's plan, prepared by the host.
typedef struct {
	size_t peq_bytes;
	int n, m, sigma, bands, chunk, block, sms, shared;
	size_t smem;
} lv_fast_args;

// lv_run_fast: cuda-fast, one persistent launch of no more blocks than the
// device holds at once (the schedule needs every waited-for warp resident).
static CUresult lv_run_fast(const lv_driver *d, const lv_module *m, const unsigned *in_codes, const void *in_peq,
		const lv_fast_args *in, long long *score,
		lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUfunction f = in->shared ? m->fast_shared : m->fast_global;
	int per_sm = 0;
	if (r == 0 && (r = d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, in->block, in->smem)) != 0) {
		*op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
	}
	if (r == 0 && per_sm < 1) {
		*op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
		r = 701; // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: not one block fits
	}
	int warps_per_block = in->block / 32;
	long long want = ((long long)in->bands + warps_per_block - 1) / warps_per_block;
	long long fit = (long long)per_sm * in->sms;
	unsigned grid = (unsigned)(want < fit ? want : fit);
	CUdeviceptr codes, peq, boundary, progress, result;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &codes, (size_t)in->n * 4)) == 0 && (r = lv_alloc(&j, &peq, in->peq_bytes)) == 0 &&
			(r = lv_alloc(&j, &boundary, (size_t)in->n)) == 0 && (r = lv_alloc(&j, &progress, (size_t)in->bands * 4)) == 0) {
		r = lv_alloc(&j, &result, 8);
	}
	tm->alloc = lv_now() - t0;
	tm->threads = in->block;
	tm->blocks = grid;
	if (r == 0 && ((r = d->cuMemsetD8(progress, 0, (size_t)in->bands * 4)) != 0 || (r = d->cuMemsetD8(result, 0, 8)) != 0)) {
		*op = "cuMemsetD8_v2";
	}
	if (r == 0) {
		CUdeviceptr dst[] = {codes, peq};
		const void *src[] = {in_codes, in_peq};
		size_t n[] = {(size_t)in->n * 4, in->peq_bytes};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	if (r == 0) {
		int n = in->n, mm = in->m, sigma = in->sigma, bands = in->bands, chunk = in->chunk;
		void *args[] = {&codes, &n, &mm, &peq, &sigma, &bands, &boundary, &progress, &chunk, &result};
		r = lv_launch(&j, f, grid, in->block, (unsigned)in->smem, args);
	}
	if (r == 0) {
		r = lv_copy_out(&j, score, result, 8);
	}
	return lv_job_end(&j, r);
}

// lv_batch_args is a batch of pairs, prepared by the host.
typedef struct {
	size_t codes_len, peq_bytes;
	int pairs, max_n, chunk, block, sms;
} lv_batch_args;

// lv_batch_in is where the batch's host arrays are, one argument each
// (cgo lets C read Go memory passed as an argument, not Go pointers stored
// in a struct).
#define LV_BATCH_IN const unsigned *in_codes, const long long *in_b_off, const int *in_b_len, const void *in_peq, \
	const long long *in_peq_off, const int *in_sigma, const int *in_a_len

static CUresult lv_run_batch(const lv_driver *d, const lv_module *m, LV_BATCH_IN, const lv_batch_args *in, int *out,
		lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	int per_sm = 0;
	size_t smem = (size_t)(in->block / 32) * in->chunk;
	if (r == 0 && (r = d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, m->batch, in->block, smem)) != 0) {
		*op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
	}
	int warps_per_block = in->block / 32;
	long long want = ((long long)in->pairs + warps_per_block - 1) / warps_per_block;
	long long fit = (long long)(per_sm > 0 ? per_sm : 1) * in->sms;
	unsigned grid = (unsigned)(want < fit ? want : fit);
	long long warps = (long long)grid * warps_per_block;
	long long stride = ((long long)in->max_n + 127) / 128 * 128;
	size_t np = (size_t)in->pairs;
	CUdeviceptr codes, b_off, b_len, peq, peq_off, sigma, a_len, scratch, dout;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &codes, in->codes_len * 4)) == 0 && (r = lv_alloc(&j, &b_off, np * 8)) == 0 &&
			(r = lv_alloc(&j, &b_len, np * 4)) == 0 && (r = lv_alloc(&j, &peq, in->peq_bytes)) == 0 &&
			(r = lv_alloc(&j, &peq_off, np * 8)) == 0 && (r = lv_alloc(&j, &sigma, np * 4)) == 0 &&
			(r = lv_alloc(&j, &a_len, np * 4)) == 0 && (r = lv_alloc(&j, &scratch, (size_t)(warps * stride))) == 0) {
		r = lv_alloc(&j, &dout, np * 4);
	}
	tm->alloc = lv_now() - t0;
	tm->threads = in->block;
	tm->blocks = grid;
	if (r == 0) {
		CUdeviceptr dst[] = {codes, b_off, b_len, peq, peq_off, sigma, a_len};
		const void *src[] = {in_codes, in_b_off, in_b_len, in_peq, in_peq_off, in_sigma, in_a_len};
		size_t n[] = {in->codes_len * 4, np * 8, np * 4, in->peq_bytes, np * 8, np * 4, np * 4};
		r = lv_copy_in(&j, 7, dst, src, n);
	}
	if (r == 0) {
		int pairs = in->pairs, chunk = in->chunk;
		void *args[] = {&codes, &b_off, &b_len, &peq, &peq_off, &sigma, &a_len, &pairs, &scratch, &stride, &chunk, &dout};
		r = lv_launch(&j, m->batch, grid, in->block, (unsigned)smem, args);
	}
	if (r == 0) {
		r = lv_copy_out(&j, out, dout, np * 4);
	}
	return lv_job_end(&j, r);
}

// lv_run_windows: the window count of report 003 over count positions of
// a chunk of len bytes.
static CUresult lv_run_windows(const lv_driver *d, const lv_module *m, const void *text, long long len, long long count,
		const void *peq, int words, int plen, int k, unsigned long long *matches, lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUdeviceptr dtext, dpeq, result;
	double t0 = lv_now();
	size_t peq_bytes = (size_t)256 * words * 8;
	if (r == 0 && (r = lv_alloc(&j, &dtext, (size_t)len)) == 0 && (r = lv_alloc(&j, &dpeq, peq_bytes)) == 0) {
		r = lv_alloc(&j, &result, 8);
	}
	tm->alloc = lv_now() - t0;
	int block = 256;
	unsigned grid = lv_blocks(count, block);
	tm->threads = block;
	tm->blocks = grid;
	if (r == 0 && (r = d->cuMemsetD8(result, 0, 8)) != 0) {
		*op = "cuMemsetD8_v2";
	}
	if (r == 0) {
		CUdeviceptr dst[] = {dtext, dpeq};
		const void *src[] = {text, peq};
		size_t n[] = {(size_t)len, peq_bytes};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	if (r == 0) {
		void *args[] = {&dtext, &len, &count, &dpeq, &plen, &words, &k, &result};
		r = lv_launch(&j, m->windows, grid, block, (unsigned)peq_bytes, args);
	}
	if (r == 0) {
		r = lv_copy_out(&j, matches, result, 8);
	}
	return lv_job_end(&j, r);
}

static void lv_set_flag(volatile int *flag) {
	__atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}
*/
import "C"

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"
)

// driver is a loaded, initialised CUDA driver. Its table lives in C memory
// and is never freed: a process loads the driver once.
type driver struct {
	c       *C.lv_driver
	version int // cuDriverGetVersion: 1000*major + 10*minor
	devices int
}

// nvrtc is a loaded NVRTC library.
type nvrtc struct {
	c            *C.lv_nvrtc
	major, minor int
}

// state is the driver as Available found it, probed at first use.
var state = sync.OnceValues(func() (*driver, error) {
	return probe(libPath(EnvLibCUDA, "libcuda.so.1"))
})

// compiler is NVRTC, loaded at first use.
var compiler = sync.OnceValues(loadNVRTC)

// loadNVRTC loads NVRTC from $LEVLAB_LIBNVRTC, else the first of
// libnvrtc.so.13, libnvrtc.so.12 and libnvrtc.so that loads; the error wraps
// ErrUnavailable and says why each one tried did not. It caches nothing.
func loadNVRTC() (*nvrtc, error) {
	paths := []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", "libnvrtc.so.11.2"}
	if p := os.Getenv(EnvLibNVRTC); p != "" {
		paths = []string{p}
	}
	var why []string
	for _, p := range paths {
		r, err := openNVRTC(p)
		if err == nil {
			return r, nil
		}
		why = append(why, err.Error())
	}
	return nil, fmt.Errorf("%w: NVRTC: %s", ErrUnavailable, strings.Join(why, "; "))
}

// libPath returns $env, or def where it is unset or empty.
func libPath(env, def string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return def
}

// load dlopens path and fills the table of the given size through open; the
// returned memory is C's, freed here on failure.
func load(path string, size C.size_t, open func(cpath *C.char, table unsafe.Pointer) *C.char) (unsafe.Pointer, error) {
	table := C.calloc(1, size)
	if table == nil {
		return nil, fmt.Errorf("%s: out of memory", path)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	msg := open(cpath, table)
	if msg == nil {
		return table, nil
	}
	C.free(table)
	text := C.GoString(msg)
	C.free(unsafe.Pointer(msg))
	if sym, ok := strings.CutPrefix(text, "symbol "); ok {
		return nil, fmt.Errorf("%s: no symbol %s: not the library expected", path, sym)
	}
	if !strings.Contains(text, path) {
		text = path + ": " + text
	}
	return nil, fmt.Errorf("%s", text)
}

// probe loads the driver at path, initialises it and counts the devices;
// every failure wraps ErrUnavailable. It caches nothing (state does).
func probe(path string) (*driver, error) {
	table, err := load(path, C.size_t(unsafe.Sizeof(C.lv_driver{})), func(p *C.char, t unsafe.Pointer) *C.char {
		return C.lv_open_driver(p, (*C.lv_driver)(t))
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	d := &driver{c: (*C.lv_driver)(table)}
	var version, count C.int
	var op *C.char
	if r := C.lv_init(d.c, &version, &count, &op); r != 0 {
		// The library stays open: once cuInit has run, unloading the driver
		// under threads it may have started is not safe.
		err := fmt.Errorf("%w: %w", ErrUnavailable, d.error(op, r))
		C.free(table)
		return nil, err
	}
	d.version, d.devices = int(version), int(count)
	if d.devices < 1 {
		C.free(table)
		return nil, fmt.Errorf("%w: no CUDA device", ErrUnavailable)
	}
	return d, nil
}

// openNVRTC loads NVRTC from path and asks its version.
func openNVRTC(path string) (*nvrtc, error) {
	table, err := load(path, C.size_t(unsafe.Sizeof(C.lv_nvrtc{})), func(p *C.char, t unsafe.Pointer) *C.char {
		return C.lv_open_nvrtc(p, (*C.lv_nvrtc)(t))
	})
	if err != nil {
		return nil, err
	}
	r := &nvrtc{c: (*C.lv_nvrtc)(table)}
	var major, minor C.int
	if res := C.lv_nvrtc_version(r.c, &major, &minor); res != 0 {
		err := fmt.Errorf("%s: %w", path, r.error("nvrtcVersion", res))
		C.lv_close(table)
		return nil, err
	}
	r.major, r.minor = int(major), int(minor)
	return r, nil
}

// error turns a CUresult from the call named op into an *Error, named by
// the driver itself.
func (d *driver) error(op *C.char, code C.CUresult) *Error {
	e := &Error{Op: C.GoString(op), Code: int(code)}
	if name := C.lv_error_name(d.c, code); name != nil {
		e.Name = C.GoString(name)
	} else {
		e.Name = errorNames[e.Code]
	}
	return e
}

// error turns an nvrtcResult from the call named op into an *Error.
func (r *nvrtc) error(op string, code C.nvrtcResult) *Error {
	e := &Error{Op: op, Code: int(code)}
	if code > 0 {
		if s := C.lv_nvrtc_error_string(r.c, code); s != nil {
			e.Name = C.GoString(s)
		}
	}
	return e
}

// Available returns nil when the CUDA driver loads, initialises and finds
// at least one device, else an error wrapping ErrUnavailable that says which
// step failed and why. The answer is found once, at first use, and cached.
func Available() error {
	_, err := state()
	return err
}

// Device describes device 0, the one the kernels use; the error wraps
// ErrUnavailable where Available fails.
func Device() (DeviceInfo, error) {
	d, err := state()
	if err != nil {
		return DeviceInfo{}, err
	}
	return d.device(0)
}

// device describes the device numbered ordinal.
func (d *driver) device(ordinal int) (DeviceInfo, error) {
	var out C.lv_device
	var op *C.char
	if r := C.lv_device_info(d.c, C.int(ordinal), &out, &op); r != 0 {
		return DeviceInfo{}, fmt.Errorf("cudaext: device %d: %w", ordinal, d.error(op, r))
	}
	return DeviceInfo{
		Ordinal:     ordinal,
		Name:        C.GoString(&out.name[0]),
		Major:       int(out.major),
		Minor:       int(out.minor),
		SMs:         int(out.sms),
		TotalMemory: uint64(out.mem),
		Driver:      d.version,
		Devices:     d.devices,
	}, nil
}

// NVRTCVersion returns the version of the NVRTC library that kernels would
// be compiled with, loading it at first use; the error wraps ErrUnavailable
// and says why each library tried did not load.
func NVRTCVersion() (major, minor int, err error) {
	r, err := compiler()
	if err != nil {
		return 0, 0, err
	}
	return r.major, r.minor, nil
}

// callInt calls the function name, int (void), of the driver's library:
// tests ask a stand-in driver what it saw.
func (d *driver) callInt(name string) int {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return int(C.lv_call_int(d.c.handle, cname))
}

// roundTrip copies b to device 0 and back in one job (allocate, clear,
// copy in, copy out, synchronise, free): the smallest use of the primary
// context, for tests.
func (d *driver) roundTrip(b []byte) ([]byte, error) {
	out := make([]byte, len(b))
	if len(b) == 0 {
		return out, nil
	}
	var op *C.char
	if r := C.lv_round_trip(d.c, 0, unsafe.Pointer(&b[0]), unsafe.Pointer(&out[0]), C.size_t(len(b)), &op); r != 0 {
		return nil, fmt.Errorf("cudaext: %w", d.error(op, r))
	}
	return out, nil
}

// compile compiles src (CUDA C++) with NVRTC into a CUBIN, with options
// such as "--gpu-architecture=sm_90"; the compiler's log comes back also
// when compilation fails.
func compile(src, name string, options ...string) (cubin []byte, log string, err error) {
	r, err := compiler()
	if err != nil {
		return nil, "", err
	}
	csrc, cname := C.CString(src), C.CString(name)
	defer C.free(unsafe.Pointer(csrc))
	defer C.free(unsafe.Pointer(cname))
	copts := make([]*C.char, len(options)+1) // never empty: &copts[0] below
	for i, o := range options {
		copts[i] = C.CString(o)
	}
	defer func() {
		for _, p := range copts {
			C.free(unsafe.Pointer(p))
		}
	}()
	// The options array holds C pointers only, so C may read it from C
	// memory; copy it there to keep cgo's pointer rules plain.
	arr := (**C.char)(C.calloc(C.size_t(len(copts)), C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	defer C.free(unsafe.Pointer(arr))
	copy(unsafe.Slice(arr, len(copts)), copts)
	var out C.lv_compiled
	var op *C.char
	res := C.lv_compile(r.c, csrc, cname, arr, C.int(len(options)), &out, &op)
	if out.log != nil {
		log = C.GoStringN(out.log, C.int(out.log_size))
		C.free(unsafe.Pointer(out.log))
	}
	if out.cubin != nil {
		cubin = C.GoBytes(unsafe.Pointer(out.cubin), C.int(out.cubin_size))
		C.free(unsafe.Pointer(out.cubin))
	}
	if res != 0 {
		return nil, log, fmt.Errorf("cudaext: %s: %w", name, r.error(C.GoString(op), res))
	}
	return cubin, log, nil
}

// module is the kernels loaded on device 0.
type module struct {
	c    *C.lv_module
	d    *driver
	info DeviceInfo
}

// loaded compiles (or takes from the cache) and loads the kernels at first
// use; the error wraps ErrUnavailable where the driver or NVRTC is missing.
var loaded = sync.OnceValues(func() (*module, error) {
	d, err := state()
	if err != nil {
		return nil, err
	}
	info, err := d.device(0)
	if err != nil {
		return nil, err
	}
	cubin, err := cubinFor(info.Major, info.Minor)
	if err != nil {
		return nil, fmt.Errorf("cudaext: compiling the kernels for sm_%d%d: %w", info.Major, info.Minor, err)
	}
	return loadModule(d, info, cubin)
})

// kernelModule is the module every job runs on: loaded, or a stand-in's in
// tests.
var kernelModule = loaded

// loadModule loads a CUBIN image on device 0 of d and looks up the kernels.
func loadModule(d *driver, info DeviceInfo, cubin []byte) (*module, error) {
	m := (*C.lv_module)(C.calloc(1, C.size_t(unsafe.Sizeof(C.lv_module{}))))
	image := C.CBytes(cubin)
	defer C.free(image)
	var op *C.char
	if r := C.lv_module_load(d.c, 0, image, m, &op); r != 0 {
		C.free(unsafe.Pointer(m))
		return nil, fmt.Errorf("cudaext: loading the kernels: %w", d.error(op, r))
	}
	return &module{c: m, d: d, info: info}, nil
}

// Ready returns nil when the kernels are compiled and loaded on device 0,
// doing so at first use; the error says why not and wraps ErrUnavailable
// where no GPU, driver or NVRTC is usable.
func Ready() error {
	_, err := kernelModule()
	return err
}

// watch returns a flag in C memory that becomes 1 when ctx is done, for
// the launch loops to poll, and the function that stops watching.
func watch(ctx context.Context) (*C.int, func()) {
	flag := (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-ctx.Done():
			C.lv_set_flag(flag)
		case <-done:
		}
	}()
	return flag, func() {
		close(done)
		wg.Wait()
		C.free(unsafe.Pointer(flag))
	}
}

func timing(t *C.lv_timing) Timing {
	return Timing{
		AllocSeconds:   float64(t.alloc),
		CopyInSeconds:  float64(t.copy_in),
		ComputeSeconds: float64(t.compute),
		CopyOutSeconds: float64(t.copy_out),
		Launches:       int64(t.launches),
		Blocks:         int(t.blocks),
		Threads:        int(t.threads),
		DeviceBytes:    int64(t.device_bytes),
	}
}

// jobError turns a failed entry point's result into an error.
func (m *module) jobError(ctx context.Context, name string, op *C.char, r C.CUresult) error {
	if r == C.LV_CANCELED {
		return fmt.Errorf("cudaext: %s: %w", name, context.Cause(ctx))
	}
	return fmt.Errorf("cudaext: %s: %w", name, m.d.error(op, r))
}

// Diagonal computes the distance with report 000's kernel: one launch per
// antidiagonal (m+n+1 of them), one thread per cell, block threads per
// block (0: DefaultBlock). Device memory O(m+n). ctx is polled between
// launches.
func Diagonal[S Symbol](ctx context.Context, a, b []S, block int) (int, Timing, error) {
	return antidiagonals(ctx, "cuda-diagonal", a, b, block, false)
}

// Matrix computes the distance with report 002's kernel: the whole (m+1) ×
// (n+1) matrix of 4-byte values on the device, one launch per
// antidiagonal. Timing.AllocSeconds holds the matrix's allocation and
// initialisation.
func Matrix[S Symbol](ctx context.Context, a, b []S, block int) (int, Timing, error) {
	return antidiagonals(ctx, "cuda-matrix", a, b, block, true)
}

// start does what every single-pair job does first: it checks the lengths,
// loads the kernels, answers a pair with an empty side (done) and checks
// that ctx is not done yet.
func start(ctx context.Context, name string, la, lb int) (m *module, d int, done bool, err error) {
	if err := checkLengths(name, la, lb); err != nil {
		return nil, 0, false, err
	}
	if m, err = kernelModule(); err != nil {
		return nil, 0, false, err
	}
	switch {
	case la == 0:
		return m, lb, true, nil
	case lb == 0:
		return m, la, true, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, false, fmt.Errorf("cudaext: %s: %w", name, err)
	}
	return m, 0, false, nil
}

func antidiagonals[S Symbol](ctx context.Context, name string, a, b []S, block int, matrix bool) (int, Timing, error) {
	block, err := resolveBlock(name, block)
	if err != nil {
		return 0, Timing{}, err
	}
	m, d, done, err := start(ctx, name, len(a), len(b))
	if done || err != nil {
		return d, Timing{}, err
	}
	flag, stop := watch(ctx)
	defer stop()
	var dist C.int
	var tm C.lv_timing
	var op *C.char
	sym := C.int(unsafe.Sizeof(a[0]))
	pa, pb := unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0])
	var r C.CUresult
	if matrix {
		r = C.lv_run_matrix(m.d.c, m.c, pa, pb, C.int(len(a)), C.int(len(b)), sym, C.int(block), flag, &dist, &tm, &op)
	} else {
		r = C.lv_run_diag(m.d.c, m.c, pa, pb, C.int(len(a)), C.int(len(b)), sym, C.int(block), flag, &dist, &tm, &op)
	}
	if r != 0 {
		return 0, timing(&tm), m.jobError(ctx, name, op, r)
	}
	return int(dist), timing(&tm), nil
}

// sharedLimit is the dynamic shared memory a block may use without
// opting in (48 KiB on every device since sm_30).
const sharedLimit = 48 << 10

// Fast computes the distance with cuda-fast: one persistent launch,
// bit-parallel in the lanes of warps (see kernels/fast.cu and FastModel).
// Device memory O(m+n) plus the match table, σ·m/8 bytes.
func Fast[S Symbol](ctx context.Context, a, b []S, o FastOptions) (int, Timing, error) {
	o, err := o.resolve()
	if err != nil {
		return 0, Timing{}, err
	}
	m, d, done, err := start(ctx, "cuda-fast", len(a), len(b))
	if done || err != nil {
		return d, Timing{}, err
	}
	p, err := planFast(a, b, 32, wordBits)
	if err != nil {
		return 0, Timing{}, err
	}
	peq := packWords(p.peq)
	warps := o.Block / 32
	in := C.lv_fast_args{
		peq_bytes: C.size_t(len(peq) * 4),
		n:         C.int(p.n), m: C.int(p.m), sigma: C.int(p.sigma), bands: C.int(p.bands),
		chunk: C.int(o.Chunk), block: C.int(o.Block), sms: C.int(m.info.SMs),
	}
	if shared := warps * (p.sigma*32*4 + o.Chunk); shared <= sharedLimit {
		in.shared, in.smem = 1, C.size_t(shared)
	} else {
		in.smem = C.size_t(warps * o.Chunk)
	}
	var score C.longlong
	var tm C.lv_timing
	var op *C.char
	r := C.lv_run_fast(m.d.c, m.c, (*C.uint)(unsafe.Pointer(&p.codes[0])), unsafe.Pointer(&peq[0]), &in, &score, &tm, &op)
	if r != 0 {
		return 0, timing(&tm), m.jobError(ctx, "cuda-fast", op, r)
	}
	return p.n + int(score), timing(&tm), nil
}

// packWords narrows a plan's table to the kernel's 32-bit words.
func packWords(w []uint64) []uint32 {
	out := make([]uint32, len(w))
	for i, x := range w {
		out[i] = uint32(x)
	}
	return out
}

// Batch computes the distances of many pairs, as[i] against bs[i], in one
// launch with one warp per pair (cuda-fast's band loop, the bands of a pair
// one after the other); pairs with an empty side are answered on the host.
// For many short strings, where one launch per pair would cost more than
// its work.
func Batch[S Symbol](ctx context.Context, as, bs [][]S) ([]int, Timing, error) {
	if len(as) != len(bs) {
		return nil, Timing{}, fmt.Errorf("cudaext: batch: %d first strings but %d second strings", len(as), len(bs))
	}
	out := make([]int, len(as))
	var idx []int
	for i := range as {
		if err := checkLengths("batch", len(as[i]), len(bs[i])); err != nil {
			return nil, Timing{}, fmt.Errorf("%w (pair %d)", err, i)
		}
		switch {
		case len(as[i]) == 0:
			out[i] = len(bs[i])
		case len(bs[i]) == 0:
			out[i] = len(as[i])
		default:
			idx = append(idx, i)
		}
	}
	m, err := kernelModule()
	if err != nil {
		return nil, Timing{}, err
	}
	if len(idx) == 0 {
		return out, Timing{}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, Timing{}, fmt.Errorf("cudaext: batch: %w", err)
	}
	np := len(idx)
	bOff, peqOff := make([]int64, np), make([]int64, np)
	bLen, sigma, aLen := make([]int32, np), make([]int32, np), make([]int32, np)
	var codes []uint32
	var peq []uint32
	maxN := 0
	for k, i := range idx {
		a, b := as[i], bs[i]
		// One warp walks the columns once per band: the fewer band·column
		// steps, the better.
		rows := 32 * wordBits
		if (len(b)+rows-1)/rows*(len(a)+31) < (len(a)+rows-1)/rows*(len(b)+31) {
			a, b = b, a
		}
		p, err := plan(a, b, 32, wordBits)
		if err != nil {
			return nil, Timing{}, fmt.Errorf("%w (pair %d)", err, i)
		}
		bOff[k], bLen[k] = int64(len(codes)), int32(p.n)
		peqOff[k], sigma[k], aLen[k] = int64(len(peq)), int32(p.sigma), int32(p.m)
		codes = append(codes, p.codes...)
		peq = append(peq, packWords(p.peq)...)
		maxN = max(maxN, p.n)
	}
	in := C.lv_batch_args{
		codes_len: C.size_t(len(codes)), peq_bytes: C.size_t(len(peq) * 4),
		pairs: C.int(np), max_n: C.int(maxN), chunk: C.int(DefaultChunk), block: C.int(DefaultFastBlock), sms: C.int(m.info.SMs),
	}
	res := make([]int32, np)
	var tm C.lv_timing
	var op *C.char
	r := C.lv_run_batch(m.d.c, m.c, (*C.uint)(unsafe.Pointer(&codes[0])), (*C.longlong)(unsafe.Pointer(&bOff[0])),
		(*C.int)(unsafe.Pointer(&bLen[0])), unsafe.Pointer(&peq[0]), (*C.longlong)(unsafe.Pointer(&peqOff[0])),
		(*C.int)(unsafe.Pointer(&sigma[0])), (*C.int)(unsafe.Pointer(&aLen[0])), &in, (*C.int)(unsafe.Pointer(&res[0])), &tm, &op)
	if r != 0 {
		return nil, timing(&tm), m.jobError(ctx, "batch", op, r)
	}
	for k, i := range idx {
		out[i] = int(res[k])
	}
	return out, timing(&tm), nil
}

// windows runs the window-count kernel over positions [0, count) of
// chunk (see CountWindows).
func windows(chunk []byte, count int64, pattern []byte, k int) (int64, Timing, error) {
	m, err := kernelModule()
	if err != nil {
		return 0, Timing{}, err
	}
	peq, words := windowTable(pattern)
	var matches C.ulonglong
	var tm C.lv_timing
	var op *C.char
	r := C.lv_run_windows(m.d.c, m.c, unsafe.Pointer(&chunk[0]), C.longlong(len(chunk)), C.longlong(count),
		unsafe.Pointer(&peq[0]), C.int(words), C.int(len(pattern)), C.int(k), &matches, &tm, &op)
	if r != 0 {
		return 0, timing(&tm), m.jobError(context.Background(), "windows", op, r)
	}
	return int64(matches), timing(&tm), nil
}
