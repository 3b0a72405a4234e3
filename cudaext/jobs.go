package cudaext

/*
#include "lv_driver.h"
*/
import "C"

import (
	"context"
	"fmt"
	"sync"
	"unsafe"
)

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

// Pairs computes on the GPU, in one job, the distance of every query a[i]
// against every target b[j]; b == nil means b is a (one set, on the device
// once), and then tri takes only its pairs i < j. The strings go to the
// device once, coded in one alphabet, each with its own match table; each
// launch computes a tile of about TilePairs pairs, a warp per pair
// (cuda-fast's band loop), and the host reads one tile while the device
// computes the next.
//
// fn is called from the caller's goroutine with each tile in query order:
// first, its first query, and d, its distances query by query,
// d[(i-first)*len(b)+j]; with tri the entries j <= i hold no distance. d
// is reused once fn returns. An error from fn stops the job and is
// returned; ctx is checked between tiles. Device memory: the strings,
// their tables (σ·len/8 bytes each, at most 1 GiB in all, else an error
// wrapping ErrTablesTooLarge before anything runs) and one tile.
func Pairs[S Symbol](ctx context.Context, a, b [][]S, tri bool, fn func(first int, d []int32) error) (Timing, error) {
	if err := pairsArgs(a, b, tri, fn); err != nil {
		return Timing{}, err
	}
	p, err := planPairs(a, b, tri, 32, wordBits)
	if err != nil {
		return Timing{}, err
	}
	m, err := kernelModule()
	if err != nil {
		return Timing{}, err
	}
	if p.na == 0 || p.nb == 0 {
		return Timing{}, nil
	}
	if err := ctx.Err(); err != nil {
		return Timing{}, fmt.Errorf("cudaext: pairs: %w", err)
	}
	rows := tileRows(p.na, p.nb)
	in := C.lv_pairs_args{
		codes_len: C.size_t(len(p.codes)), peq_words: C.size_t(len(p.peq)),
		strings: C.int(len(p.lens)), b_base: C.int(p.bBase), nb: C.int(p.nb), tile_rows: C.int(rows),
		chunk: C.int(DefaultChunk), block: C.int(DefaultFastBlock), sms: C.int(m.info.SMs),
	}
	if tri {
		in.tri = 1
	}
	if p.maxLen > 32*wordBits {
		in.max_len = C.int(p.maxLen) // some pair has several bands: a scratch row per warp
	}
	peq := append(packWords(p.peq), 0)
	var job *C.lv_pairs_job
	var op *C.char
	r := C.lv_pairs_open(m.d.c, m.c, (*C.uint)(unsafe.Pointer(&p.codes[0])), (*C.longlong)(unsafe.Pointer(&p.codeOff[0])),
		(*C.int)(unsafe.Pointer(&p.lens[0])), unsafe.Pointer(&peq[0]), (*C.longlong)(unsafe.Pointer(&p.peqOff[0])), &in, &job, &op)
	if r != 0 {
		return Timing{}, m.jobError(ctx, "pairs", op, r)
	}
	next := func(out []int32, first, rows int) error {
		var dst *C.int
		if len(out) > 0 {
			dst = (*C.int)(unsafe.Pointer(&out[0]))
		}
		if r := C.lv_pairs_next(job, dst, C.longlong(len(out)), C.int(first), C.int(rows), &op); r != 0 {
			return m.jobError(ctx, "pairs", op, r)
		}
		return nil
	}
	var tm C.lv_timing
	closed := false
	defer func() {
		if !closed { // fn panicked: free the job, and let the panic go on
			C.lv_pairs_close(job, 0, &tm, &op)
		}
	}()
	err = runTiles(ctx, p.na, p.nb, rows, next, fn)
	closed = true
	if r := C.lv_pairs_close(job, 0, &tm, &op); r != 0 && err == nil {
		err = m.jobError(ctx, "pairs", op, r)
	}
	return timing(&tm), err
}
