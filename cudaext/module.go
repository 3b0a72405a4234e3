package cudaext

/*
#include "lv_driver.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

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
