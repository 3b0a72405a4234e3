package cudaext

/*
// The C is in lv_driver.h and the lv_*.c files beside this one; these
// flags hold for all of it.
#cgo CFLAGS: -Wall -Wextra -Werror
#cgo LDFLAGS: -ldl

#include "lv_driver.h"
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
