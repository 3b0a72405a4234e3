// lv_pairs: many pairs in one job. Every string of both sets is on the
// device once, as codes of one alphabet shared by all of them and as its
// own match table; a launch computes one tile of query rows, its pairs
// named by index and generated here, a warp per pair (cuda-fast's band
// loop, the bands of a pair one after the other through the warp's own
// scratch boundary row, as lv_batch runs them).
//
// Strings are numbered 0 .. na-1 (the queries) and b_base .. b_base+nb-1
// (the targets; b_base is 0 for one set's pairs). String s has len[s]
// codes at codes + code_off[s] (with LV_LANES + 2 codes or more before
// and after it: see lv_solo), and a match table at peq + peq_off[s]:
// entry (c, band, lane) at c*(bands*32) + band*32 + lane, bands =
// ceil(len[s] / (32 * LV_WORD_BITS)), c over the shared alphabet (a code
// absent from s has no bits set).
//
// The tile is query rows first .. first+rows-1 against every target:
// pair q (0 <= q < rows*nb) is query i = first + q / nb against target
// j = q % nb, and its distance goes to out[q]. With tri (one set's pairs,
// i < j), a pair with j <= i is left unwritten. Of a pair's two strings the
// rows are the one with fewer band·column steps (ties: the query), as in
// Batch.
// lv_solo runs a pair of one band (m <= 32 * LV_WORD_BITS rows, the match
// table at peq) in the calling warp: lv_band with no band above or below,
// so with no boundary row to stage or write, lane 0's carry the top row's
// +1 at every column, and the codes read without clamping (the host pads
// the codes with LV_LANES + 2 zeros on each side: a lane outside the
// string reads a code, and discards its step).
__device__ __forceinline__ void lv_solo(const u32 *codes, int n, const lv_word *peq, lv_word &pv, lv_word &mv) {
	const int lane = threadIdx.x & (LV_LANES - 1);
	const lv_word *tab = peq + lane; // entry (c, lane) at tab[c * LV_LANES]
	pv = ~(lv_word)0;
	mv = 0;
	int carry = 1;
	const u32 *code = codes - lane; // column j = t - lane at step t
	u32 c1 = __ldg(code + 1);
	lv_word eq = __ldg(tab + __ldg(code) * LV_LANES);
	for (int t = 0, j = -lane; t < n + LV_LANES - 1; t++, j++) {
		const u32 c2 = __ldg(code + t + 2);
		const lv_word next = __ldg(tab + c1 * LV_LANES);
		lv_word npv = pv, nmv = mv;
		const int hout = lv_myers_step(npv, nmv, eq, carry);
		if ((unsigned)j < (unsigned)n) {
			pv = npv;
			mv = nmv;
		}
		eq = next;
		c1 = c2;
		carry = __shfl_up_sync(LV_FULL, hout, 1);
		if (lane == 0) {
			carry = 1;
		}
	}
}

extern "C" __global__ void lv_pairs(const u32 *codes, const long long *code_off, const int *len,
		const lv_word *peq, const long long *peq_off, int b_base, int nb, int tri,
		int first, int rows, signed char *scratch, long long scratch_stride, int chunk, int *out) {
	const int lane = threadIdx.x & (LV_LANES - 1);
	const int per_block = blockDim.x / LV_LANES, in_block = threadIdx.x / LV_LANES;
	const long long warp = (long long)blockIdx.x * per_block + in_block, warps = (long long)gridDim.x * per_block;
	const int band_rows = LV_LANES * LV_WORD_BITS;
	signed char *stage = (signed char *)lv_smem + (long long)in_block * chunk;
	signed char *mine = scratch + warp * scratch_stride;
	const long long pairs = (long long)rows * nb;
	for (long long q = warp; q < pairs; q += warps) {
		const int i = first + (int)(q / nb), j = (int)(q % nb);
		if (tri && j <= i) {
			continue;
		}
		int r = i, c = b_base + j;
		int m = len[r], n = len[c];
		if (m == 0 || n == 0) {
			if (lane == 0) {
				out[q] = m + n;
			}
			continue;
		}
		if ((long long)((n + band_rows - 1) / band_rows) * (m + LV_LANES - 1) <
				(long long)((m + band_rows - 1) / band_rows) * (n + LV_LANES - 1)) {
			const int t = r;
			r = c;
			c = t;
			m = len[r];
			n = len[c];
		}
		const int bands = (m + band_rows - 1) / band_rows;
		lv_band_args g;
		g.codes = codes + code_off[c];
		g.n = n;
		g.stride = (long long)bands * LV_LANES;
		g.sigma = 0; // the table is read from global memory: lv_band<false>
		g.chunk = chunk;
		g.wait = NULL;
		g.post = NULL;
		int total;
		if (bands == 1) {
			lv_word pv, mv;
			lv_solo(g.codes, n, peq + peq_off[r], pv, mv);
			total = lv_share(pv, mv, 0, m);
		} else {
			total = lv_pair_bands(g, peq + peq_off[r], bands, m, mine, stage);
		}
		if (lane == 0) {
			out[q] = n + total;
		}
	}
}
