// Shared definitions of levlab's CUDA kernels. The Go package cudaext
// compiles this file and the .cu files beside it as one program with NVRTC
// (no headers, no toolkit): this file comes first.
//
// LV_WORD_BITS (32 or 64, set by the compiler options) is the number of DP
// rows one lane of cuda-fast holds in a machine word.

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#ifndef LV_WORD_BITS
#define LV_WORD_BITS 32
#endif

#if LV_WORD_BITS == 64
typedef u64 lv_word;
#define LV_POPC(x) __popcll(x)
#else
typedef u32 lv_word;
#define LV_POPC(x) __popc(x)
#endif

// Dynamic shared memory of every kernel, 8-byte aligned.
extern __shared__ u64 lv_smem[];

#define LV_LANES 32
#define LV_FULL 0xffffffffu

// Loads and stores that order memory between warps of different blocks:
// a release store publishes every earlier write of the storing thread, an
// acquire load makes them visible to every later read of the loading one
// (PTX memory model, sm_70 and later).
__device__ __forceinline__ u32 lv_load_acquire(const u32 *p) {
	u32 v;
	asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
}

__device__ __forceinline__ void lv_store_release(u32 *p, u32 v) {
	asm volatile("st.release.gpu.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

// lv_myers_step advances one strip of rows by one column (Myers 1999, block
// form of Hyyrö 2003). pv/mv hold the vertical deltas D[i][j-1]-D[i-1][j-1]
// of the strip's rows, bit r for row r: pv the +1s, mv the -1s; they become
// those of column j. eq has the rows whose symbol equals the column's; hin
// is the horizontal delta D[top-1][j]-D[top-1][j-1] entering above the
// strip (-1, 0 or +1). Returns the delta leaving below its last row.
template <typename W>
__device__ __forceinline__ int lv_myers_step(W &pv, W &mv, W eq, int hin) {
	const int top = 8 * sizeof(W) - 1;
	W neg = (W)(hin < 0), pos = (W)(hin > 0);
	W xv = eq | mv;
	eq |= neg;                                  // a -1 entering acts as a match in row 0
	W xh = (((eq & pv) + pv) ^ pv) | eq;
	W ph = mv | ~(xh | pv);                     // horizontal +1s of column j
	W mh = pv & xh;                             // horizontal -1s of column j
	int hout = (int)(ph >> top) - (int)(mh >> top);
	ph = (ph << 1) | pos;                       // shift in the delta from above
	mh = (mh << 1) | neg;
	pv = mh | ~(xv | ph);
	mv = ph & xv;
	return hout;
}
