package cudaext

/*
// The C is in lv_driver.h and the lv_*.c files beside this one; these
// flags hold for all of it.
#cgo CFLAGS: -Wall -Wextra
#cgo LDFLAGS: -ldl

#include "lv_driver.h"
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
