/*
 * ed_cuda: the Levenshtein distance of two files' bytes on a GPU, one
 * kernel launch an antidiagonal — the first way the course reports moved
 * it to CUDA. Cell (i, j) depends on (i-1, j), (i, j-1) and (i-1, j-1):
 * the cells of antidiagonal d = i + j are independent, a thread each.
 * Three device arrays indexed by the row i hold antidiagonals d-2, d-1
 * and d, as examples/ed_omp.c's do.
 *
 *     nvcc -O2 -o examples/bin/ed_cuda examples/ed_cuda.cu   (make examples, where nvcc is)
 *     levlab verify --max-len 4100 -- examples/bin/ed_cuda {a} {b}
 *     levlab run --spec examples/ed_cuda.toml
 *
 * Prints the distance ("distance: D"), then the kernels' time from CUDA
 * events in milliseconds ("kernel time: T ms"): examples/ed_cuda.toml
 * reads it with time_unit = "ms".
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                        \
	do {                                                                                   \
		cudaError_t e_ = (call);                                                           \
		if (e_ != cudaSuccess) {                                                           \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
			exit(1);                                                                       \
		}                                                                                  \
	} while (0)

static unsigned char *slurp(const char *path, long *len) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	long cap = 1 << 16, n = 0;
	unsigned char *buf = (unsigned char *)malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += (long)got;
		if (n == cap)
			buf = (unsigned char *)realloc(buf, cap *= 2);
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* antidiagonal computes the cells of antidiagonal d in rows lo..hi into cur;
 * p holds antidiagonal d-1 and pp d-2, all indexed by the row. */
__global__ void antidiagonal(const unsigned char *a, const unsigned char *b, long d, long lo, long hi,
                             const long *pp, const long *p, long *cur) {
	long i = lo + (long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i > hi)
		return;
	long j = d - i;
	if (i == 0) {
		cur[i] = j;
	} else if (j == 0) {
		cur[i] = i;
	} else {
		long best = pp[i - 1] + (a[i - 1] != b[j - 1]);
		best = min(best, p[i - 1] + 1); /* (i-1, j) */
		best = min(best, p[i] + 1);     /* (i, j-1) */
		cur[i] = best;
	}
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE_A FILE_B\n", argv[0]);
		return 2;
	}
	long n, m; /* rows: a's bytes; columns: b's */
	unsigned char *a = slurp(argv[1], &n), *b = slurp(argv[2], &m);
	unsigned char *da, *db;
	long *pp, *p, *cur;
	CHECK(cudaMalloc(&da, n + 1));
	CHECK(cudaMalloc(&db, m + 1));
	CHECK(cudaMalloc(&pp, (n + 1) * sizeof(long)));
	CHECK(cudaMalloc(&p, (n + 1) * sizeof(long)));
	CHECK(cudaMalloc(&cur, (n + 1) * sizeof(long)));
	CHECK(cudaMemcpy(da, a, n, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, m, cudaMemcpyHostToDevice));

	cudaEvent_t start, stop;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start));
	const int threads = 256;
	for (long d = 0; d <= n + m; d++) {
		long lo = d > m ? d - m : 0, hi = d < n ? d : n;
		long blocks = (hi - lo + 1 + threads - 1) / threads;
		antidiagonal<<<(unsigned)blocks, threads>>>(da, db, d, lo, hi, pp, p, cur);
		long *t = pp;
		pp = p;
		p = cur;
		cur = t;
	}
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(stop));
	CHECK(cudaEventSynchronize(stop));
	float ms = 0;
	CHECK(cudaEventElapsedTime(&ms, start, stop));

	/* Antidiagonal n+m, now in p, holds one cell: row n. */
	long d;
	CHECK(cudaMemcpy(&d, p + n, sizeof d, cudaMemcpyDeviceToHost));
	printf("distance: %ld\n", d);
	printf("kernel time: %.3f ms\n", ms);
	cudaFree(da);
	cudaFree(db);
	cudaFree(pp);
	cudaFree(p);
	cudaFree(cur);
	free(a);
	free(b);
	return 0;
}
