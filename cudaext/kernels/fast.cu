// cuda-fast: levlab's kernel. Bit-parallel Myers/Hyyrö in the lanes of a
// warp, run as one persistent launch.
//
// Geometry. The rows (symbols of a, the longer string) are cut into strips
// of LV_WORD_BITS rows, one per lane; a warp's 32 lanes hold a band of 32
// consecutive strips. The match table is laid out peq[c*stride + s] (code
// c, strip s, stride = 32 * bands): a warp reads one coalesced line per
// column. Code 0 is "absent from a" and has no bits set.
//
// Schedule (warp-systolic). Lane l handles column j = t - l at step t, for
// t = 0 .. n+30. Its horizontal carry for column j is lane l-1's output
// for the same column, made at step t-1 and passed by __shfl_up_sync. Lane
// 0's carry comes from the band above through a boundary array (one signed
// byte per column), staged chunk by chunk in shared memory once the band
// above has published, with a release store of its progress counter, that
// it has written the chunk; the first band's carry is +1 (the top row
// D[0][j] = j). Lane 31 writes its outputs to the band's own boundary array
// and publishes its progress every chunk columns.
//
// Persistence. Warp w of W handles bands w, w+W, w+2W, ... in order; the
// host launches no more warps than can be resident at once, so every warp
// that is waited for is running.
//
// One boundary row serves every band: band b+1 stages column j (written by
// band b) before it writes its own value of column j there, and band b+2
// stages that value before band b+3 may stage, let alone write, column j
// (it waits for b+2's progress). So a value is always read before it is
// overwritten, and the device holds n boundary bytes, not one row per band.
//
// Score. D[m][n] = D[0][n] + the sum of the vertical deltas of column n =
// n + popcount(pv) - popcount(mv) over the real rows; each band adds its
// share to *result (the host adds n).

struct lv_band_args {
	const u32 *codes;              // b as codes
	int n;                         // columns
	const lv_word *peq;            // the band's first strip: entry (c, lane) at peq[c*stride + lane]
	long long stride;
	int sigma;
	const signed char *hin;        // boundary of the band above; NULL: top row, +1 everywhere
	signed char *hout;             // own boundary; NULL: last band, not written
	const u32 *wait;               // progress of the band above; NULL: already complete
	u32 *post;                     // own progress; NULL: not published
	int chunk;                     // columns per hand-off
};

// lv_lookup returns the match word of code c for the calling lane's strip.
template <bool SHARED>
__device__ __forceinline__ lv_word lv_lookup(const lv_band_args &g, const lv_word *peq_sh, u32 c, int lane) {
	if (SHARED) {
		return peq_sh[c * LV_LANES + lane];
	}
	return __ldg(&g.peq[(long long)c * g.stride + lane]);
}

// lv_band runs one band over all n columns in the calling warp and leaves
// each lane's final vertical deltas in pv, mv.
//
// The step is written without branches on the column (lanes outside the
// matrix compute and discard), and the loads run ahead of it: at step t
// (column j = t - lane) eq already holds column j's match word and c1
// column j+1's code, while the step loads column j+2's code and looks c1
// up, so neither load's latency lies on the carry's path. Indices are
// clamped into the string; what a lane outside it loads is never used.
template <bool SHARED>
__device__ void lv_band(const lv_band_args &g, lv_word *peq_sh, signed char *stage, lv_word &pv, lv_word &mv) {
	const int lane = threadIdx.x & (LV_LANES - 1);
	const u32 *codes = g.codes;
	const int n = g.n, chunk = g.chunk, last = n - 1;
	const signed char *hin_g = g.hin;
	signed char *hout_g = lane == LV_LANES - 1 ? g.hout : NULL; // lane 31 alone writes the boundary
	u32 *post = g.post;
	__syncwarp();                  // the previous band of this warp is done with stage and peq_sh
	if (SHARED) {
		for (int i = lane; i < g.sigma * LV_LANES; i += LV_LANES) {
			peq_sh[i] = g.peq[(long long)(i / LV_LANES) * g.stride + (i % LV_LANES)];
		}
		__syncwarp();
	}
	pv = ~(lv_word)0;              // column 0: D[i][0] = i, every vertical delta +1
	mv = 0;
	int carry = 0;                 // lanes >= 1: the hin of this lane's next column
	const int steps = n + LV_LANES - 1;
	int j = -lane;
	u32 c1 = __ldg(&codes[min(max(j + 1, 0), last)]);
	lv_word eq = lv_lookup<SHARED>(g, peq_sh, __ldg(&codes[min(max(j, 0), last)]), lane);
	int stage_at = 0;              // next step that stages a chunk (a multiple of chunk)
	int si = 0;                    // lane 0: index of this step's carry in stage
	int post_in = chunk;           // lane 31: columns left before the next publication
	for (int t = 0; t < steps; t++, j++) {
		if (hin_g != NULL && t == stage_at && t < n) {
			__syncwarp();          // lane 0 has read the last chunk's carries before they are overwritten
			stage_at += chunk;
			si = 0;
			const int end = min(t + chunk, n);
			if (g.wait != NULL) {
				while ((int)lv_load_acquire(g.wait) < end) {
				}
			}
			const volatile signed char *src = hin_g;
			for (int i = t + lane; i < end; i += LV_LANES) {
				stage[i - t] = src[i];
			}
			__syncwarp();
		}
		const u32 c2 = __ldg(&codes[min(max(j + 2, 0), last)]);
		const lv_word next = lv_lookup<SHARED>(g, peq_sh, c1, lane);
		const bool in = (unsigned)j < (unsigned)n;
		const int hin = lane != 0 ? carry : (hin_g == NULL ? 1 : (int)stage[min(si, chunk - 1)]);
		lv_word npv = pv, nmv = mv;
		int hout = lv_myers_step(npv, nmv, eq, hin);
		if (in) {
			pv = npv;
			mv = nmv;
		} else {
			hout = 0;
		}
		if (hout_g != NULL && in) {
			hout_g[j] = (signed char)hout;
			if (post != NULL && (--post_in == 0 || j + 1 == n)) {
				lv_store_release(post, (u32)(j + 1));
				post_in = chunk;
			}
		}
		eq = next;
		c1 = c2;
		si++;
		carry = __shfl_up_sync(LV_FULL, hout, 1);
	}
}

// lv_share returns this lane's share of the score: +1 per real row whose
// final vertical delta is +1, -1 per -1, summed over the warp.
__device__ __forceinline__ int lv_share(lv_word pv, lv_word mv, long long band, int m) {
	const int lane = threadIdx.x & (LV_LANES - 1);
	long long row0 = (band * LV_LANES + lane) * LV_WORD_BITS;
	lv_word valid = 0;
	if (row0 + LV_WORD_BITS <= m) {
		valid = ~(lv_word)0;
	} else if (row0 < m) {
		valid = ((lv_word)1 << (m - row0)) - 1;
	}
	int s = LV_POPC(pv & valid) - LV_POPC(mv & valid);
	for (int off = LV_LANES / 2; off > 0; off /= 2) {
		s += __shfl_xor_sync(LV_FULL, s, off);
	}
	return s;
}

template <bool SHARED>
__device__ void lv_fast(const u32 *codes, int n, int m, const lv_word *peq, int sigma, int bands,
		signed char *boundary, u32 *progress, int chunk, unsigned long long *result) {
	const int lane = threadIdx.x & (LV_LANES - 1);
	const int per_block = blockDim.x / LV_LANES, in_block = threadIdx.x / LV_LANES;
	const int warp = blockIdx.x * per_block + in_block, warps = gridDim.x * per_block;
	const int words = SHARED ? sigma * LV_LANES : 0;
	lv_word *shared = (lv_word *)lv_smem;
	lv_word *peq_sh = shared + (long long)in_block * words;
	signed char *stage = (signed char *)(shared + (long long)per_block * words) + (long long)in_block * chunk;
	lv_band_args g;
	g.codes = codes;
	g.n = n;
	g.stride = (long long)bands * LV_LANES;
	g.sigma = sigma;
	g.chunk = chunk;
	for (int band = warp; band < bands; band += warps) {
		g.peq = peq + (long long)band * LV_LANES;
		g.hin = band == 0 ? NULL : boundary;
		g.hout = band == bands - 1 ? NULL : boundary;
		g.wait = band == 0 ? NULL : progress + band - 1;
		g.post = band == bands - 1 ? NULL : progress + band;
		lv_word pv, mv;
		lv_band<SHARED>(g, peq_sh, stage, pv, mv);
		int s = lv_share(pv, mv, band, m);
		if (lane == 0) {
			atomicAdd(result, (unsigned long long)(long long)s);
		}
	}
}

extern "C" __global__ void lv_fast_shared(const u32 *codes, int n, int m, const lv_word *peq, int sigma, int bands,
		signed char *boundary, u32 *progress, int chunk, unsigned long long *result) {
	lv_fast<true>(codes, n, m, peq, sigma, bands, boundary, progress, chunk, result);
}

extern "C" __global__ void lv_fast_global(const u32 *codes, int n, int m, const lv_word *peq, int sigma, int bands,
		signed char *boundary, u32 *progress, int chunk, unsigned long long *result) {
	lv_fast<false>(codes, n, m, peq, sigma, bands, boundary, progress, chunk, result);
}

// lv_pair_bands runs the bands of one pair (m rows, the match table at
// peq) in the calling warp, one after the other through the warp's own
// boundary row mine, and returns the sum of their score shares: D[m][n] - n.
__device__ int lv_pair_bands(lv_band_args &g, const lv_word *peq, int bands, int m, signed char *mine, signed char *stage) {
	int total = 0;
	for (int band = 0; band < bands; band++) {
		g.peq = peq + (long long)band * LV_LANES;
		g.hin = band == 0 ? NULL : mine;
		g.hout = band == bands - 1 ? NULL : mine;
		lv_word pv, mv;
		lv_band<false>(g, NULL, stage, pv, mv);
		total += lv_share(pv, mv, band, m);
	}
	return total;
}

// lv_batch computes many distances, one warp per pair: pair p has a (the
// rows, a_len[p] of them) given by its match table at peq + peq_off[p]
// (sigma[p] codes, laid out as above for its own bands), and b as
// b_len[p] codes at codes + b_off[p]. A warp runs the bands of its pair one
// after the other through its own scratch boundary row, as lv_fast's
// bands share theirs. out[p] = D[a_len][b_len]; pairs with an empty side are done by
// the host.
extern "C" __global__ void lv_batch(const u32 *codes, const long long *b_off, const int *b_len,
		const lv_word *peq, const long long *peq_off, const int *sigma, const int *a_len, int pairs,
		signed char *scratch, long long scratch_stride, int chunk, int *out) {
	const int lane = threadIdx.x & (LV_LANES - 1);
	const int per_block = blockDim.x / LV_LANES, in_block = threadIdx.x / LV_LANES;
	const int warp = blockIdx.x * per_block + in_block, warps = gridDim.x * per_block;
	signed char *stage = (signed char *)lv_smem + (long long)in_block * chunk;
	signed char *mine = scratch + (long long)warp * scratch_stride;
	for (int p = warp; p < pairs; p += warps) {
		const int m = a_len[p];
		const int bands = (m + LV_LANES * LV_WORD_BITS - 1) / (LV_LANES * LV_WORD_BITS);
		lv_band_args g;
		g.codes = codes + b_off[p];
		g.n = b_len[p];
		g.stride = (long long)bands * LV_LANES;
		g.sigma = sigma[p];
		g.chunk = chunk;
		g.wait = NULL;
		g.post = NULL;
		const int total = lv_pair_bands(g, peq + peq_off[p], bands, m, mine, stage);
		if (lane == 0) {
			out[p] = g.n + total;
		}
	}
}
