// Loading the CUDA driver and NVRTC with dlopen/dlsym, and the driver's own
// calls: initialisation, device information, error names and a round trip
// of device memory.

#include <dlfcn.h>
#include <string.h>

#include "lv_driver.h"

// Device attributes (CUdevice_attribute) read by lv_device_info.
enum {
	LV_ATTR_SM_COUNT = 16,
	LV_ATTR_CC_MAJOR = 75,
	LV_ATTR_CC_MINOR = 76,
};

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
void lv_close(void *table) {
	dlclose(*(void **)table);
	free(table);
}

char *lv_open_driver(const char *path, lv_driver *d) {
	return lv_open(path, d, lv_driver_syms, sizeof lv_driver_syms / sizeof lv_driver_syms[0]);
}

char *lv_open_nvrtc(const char *path, lv_nvrtc *r) {
	return lv_open(path, r, lv_nvrtc_syms, sizeof lv_nvrtc_syms / sizeof lv_nvrtc_syms[0]);
}

const char *lv_error_name(const lv_driver *d, CUresult code) {
	const char *name = NULL;
	if (d->cuGetErrorName(code, &name) != 0) {
		return NULL;
	}
	return name;
}

// lv_init initialises the driver and counts the devices.
CUresult lv_init(const lv_driver *d, int *version, int *count, const char **op) {
	LV_TRY("cuInit", d->cuInit(0));
	LV_TRY("cuDriverGetVersion", d->cuDriverGetVersion(version));
	LV_TRY("cuDeviceGetCount", d->cuDeviceGetCount(count));
	return 0;
}

// lv_device_info describes device ordinal; it needs no context.
CUresult lv_device_info(const lv_driver *d, int ordinal, lv_device *out, const char **op) {
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
CUresult lv_round_trip(const lv_driver *d, int ordinal, const void *src, void *dst, size_t n, const char **op) {
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

nvrtcResult lv_nvrtc_version(const lv_nvrtc *r, int *major, int *minor) {
	return r->nvrtcVersion(major, minor);
}

const char *lv_nvrtc_error_string(const lv_nvrtc *r, nvrtcResult code) {
	return r->nvrtcGetErrorString(code);
}

// lv_call_int calls the int (void) function name of the library behind
// handle, for tests with a stand-in driver; -1 where there is none.
int lv_call_int(void *handle, const char *name) {
	void *f = dlsym(handle, name);
	if (f == NULL) {
		return -1;
	}
	int (*fn)(void);
	memcpy(&fn, &f, sizeof f);
	return fn();
}
