// lv_windows: report 003's window count, the GPU share of
// lev.CountMatches. One thread per start position j of text (the
// positions [0, count) of a chunk of len bytes that ends either at the
// text's end or len(p)-1 bytes past the last position): the window has
// size = min(m, len-j), and matches when the Levenshtein distance between
// the pattern's first size symbols and text[j, j+size) is at most k. The
// pattern is the rows, 64 per word (words <= LV_WIN_WORDS), its match table
// peq[c*words + w] copied to shared memory; the window's symbols are the
// columns. The score of row size is tracked from the horizontal deltas at
// its bit; a window stops as soon as it can no longer come within k.

#define LV_WIN_WORDS 16

template <typename W>
__device__ __forceinline__ int lv_myers_step_at(W &pv, W &mv, W eq, int hin, int bit) {
	W neg = (W)(hin < 0), pos = (W)(hin > 0);
	W xv = eq | mv;
	eq |= neg;
	W xh = (((eq & pv) + pv) ^ pv) | eq;
	W ph = mv | ~(xh | pv);
	W mh = pv & xh;
	int h = (int)((ph >> bit) & 1) - (int)((mh >> bit) & 1);
	ph = (ph << 1) | pos;
	mh = (mh << 1) | neg;
	pv = mh | ~(xv | ph);
	mv = ph & xv;
	return h;
}

extern "C" __global__ void lv_windows(const u8 *text, long long len, long long count, const u64 *peq,
		int m, int words, int k, unsigned long long *result) {
	u64 *lv_wpeq = lv_smem;
	for (int i = threadIdx.x; i < 256 * words; i += blockDim.x) {
		lv_wpeq[i] = peq[i];
	}
	__syncthreads();
	const long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	bool match = false;
	if (j < count) {
		const int size = (int)min((long long)m, len - j);
		const int last = (size - 1) / 64, bit = (size - 1) % 64;
		const u8 *w = text + j;
		int score = size;                            // D[size][0]
		if (last == 0) {
			u64 pv = ~0ull, mv = 0;
			for (int c = 0; c < size; c++) {
				score += lv_myers_step_at(pv, mv, lv_wpeq[(int)w[c] * words], 1, bit);
				if (score - (size - 1 - c) > k) {
					break;                          // even all matches from here leave it above k
				}
			}
		} else {
			u64 pv[LV_WIN_WORDS], mv[LV_WIN_WORDS];
			for (int x = 0; x <= last; x++) {
				pv[x] = ~0ull;
				mv[x] = 0;
			}
			for (int c = 0; c < size; c++) {
				const u64 *col = lv_wpeq + (int)w[c] * words;
				int h = 1;                           // the top row: D[0][c+1] - D[0][c] = +1
				for (int x = 0; x < last; x++) {
					h = lv_myers_step_at(pv[x], mv[x], col[x], h, 63);
				}
				score += lv_myers_step_at(pv[last], mv[last], col[last], h, bit);
				if (score - (size - 1 - c) > k) {
					break;
				}
			}
		}
		match = score <= k;
	}
	const u32 votes = __ballot_sync(LV_FULL, match);
	if ((threadIdx.x & (LV_LANES - 1)) == 0 && votes != 0) {
		atomicAdd(result, (unsigned long long)__popc(votes));
	}
}
