// cuda-matrix: report 002's kernel. The whole matrix H, (m+1) x (n+1)
// ints in row-major order (width w = n+1), lives on the device. After
// lv_mat_init has set the first row and column, one launch per
// antidiagonal computes its cells, one thread each: walking an antidiagonal
// down one row and left one column moves the row-major index by w-1, so
// thread t has index = start + t*(w-1), and its row and column come back as
// index / w and index % w (the report's equations 3 and 4).

extern "C" __global__ void lv_mat_init(int *h, int m, int n) {
	long long w = (long long)n + 1;
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t <= n) {
		h[t] = t;                                   // H[0][t]
	}
	if (t <= m) {
		h[t * w] = t;                               // H[t][0]
	}
}

template <typename S>
__device__ __forceinline__ void lv_mat_cell(const S *a, const S *b, int *h, int n,
		long long start, int cells) {
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= cells) {
		return;
	}
	long long w = (long long)n + 1;
	long long index = start + (long long)t * (w - 1);
	long long row = index / w, col = index % w;
	int cost = a[row - 1] != b[col - 1];
	int v = min(h[index - w - 1] + cost, min(h[index - w], h[index - 1]) + 1);
	h[index] = v;
}

extern "C" __global__ void lv_mat_u8(const u8 *a, const u8 *b, int *h, int n, long long start, int cells) {
	lv_mat_cell(a, b, h, n, start, cells);
}

extern "C" __global__ void lv_mat_u32(const u32 *a, const u32 *b, int *h, int n, long long start, int cells) {
	lv_mat_cell(a, b, h, n, start, cells);
}
