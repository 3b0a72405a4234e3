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
*/
import "C"

import (
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
