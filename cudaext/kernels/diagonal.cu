// cuda-diagonal: report 000's kernel. The DP matrix D (rows: a, columns: b)
// is computed antidiagonal by antidiagonal, one launch per antidiagonal
// d = i + j, one thread per cell of it. Three arrays indexed by the row i
// hold the antidiagonals d-2 (p2), d-1 (p1) and d (cur); the host rotates
// them between launches. Cells of antidiagonal d have rows lo..lo+cells-1.

template <typename S>
__device__ __forceinline__ void lv_diag_cell(const S *a, const S *b, int d, int lo, int cells,
		const int *p2, const int *p1, int *cur) {
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= cells) {
		return;
	}
	int i = lo + t, j = d - i;
	int v;
	if (i == 0) {
		v = j;                                      // first row: D[0][j] = j
	} else if (j == 0) {
		v = i;                                      // first column: D[i][0] = i
	} else {
		int sub = p2[i - 1] + (a[i - 1] != b[j - 1]); // D[i-1][j-1] + cost
		int del = p1[i - 1] + 1;                    // D[i-1][j] + 1
		int ins = p1[i] + 1;                        // D[i][j-1] + 1
		v = min(sub, min(del, ins));
	}
	cur[i] = v;
}

extern "C" __global__ void lv_diag_u8(const u8 *a, const u8 *b, int d, int lo, int cells,
		const int *p2, const int *p1, int *cur) {
	lv_diag_cell(a, b, d, lo, cells, p2, p1, cur);
}

extern "C" __global__ void lv_diag_u32(const u32 *a, const u32 *b, int d, int lo, int cells,
		const int *p2, const int *p1, int *cur) {
	lv_diag_cell(a, b, d, lo, cells, p2, p1, cur);
}
