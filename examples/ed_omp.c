/*
 * ed_omp: the Levenshtein distance of two files' bytes, over antidiagonals
 * with OpenMP, the way the course reports parallelised it. An example of
 * "your own program" for levlab:
 *
 *     make examples
 *     levlab verify -- examples/bin/ed_omp {a} {b}
 *
 * Cell (i, j) of the (m+1) x (n+1) matrix depends on (i-1, j), (i, j-1) and
 * (i-1, j-1), so the cells of one antidiagonal d = i + j are independent:
 * they are computed side by side, and the antidiagonals one after another.
 * Three arrays indexed by i hold antidiagonals d-2, d-1 and d. A short
 * antidiagonal runs on one thread; a long one in chunks of CHUNK cells,
 * one chunk a loop iteration.
 *
 * Built with -DOFF_BY_ONE, the chunk count rounds down: the cells past the
 * last whole chunk of a long antidiagonal are never computed. Inputs of
 * under SERIAL symbols never meet the bug; levlab verify finds it.
 *
 * Prints the kernel's time ("kernel 0.012345 s on 2 threads"), then the
 * distance, on stdout: the distance is the last integer, as levlab reads
 * it, and examples/ed_omp.toml reads the time with its time_regexp.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 64, SERIAL = 256 };

static unsigned char *slurp(const char *path, long *len) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	long cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += (long)got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	*len = n;
	return buf;
}

static long min3(long x, long y, long z) {
	long m = x < y ? x : y;
	return m < z ? m : z;
}

/* cell computes antidiagonal d's cell in row i into cur. */
static void cell(const unsigned char *a, const unsigned char *b, long d, long i,
                 const long *pp, const long *p, long *cur) {
	long j = d - i;
	if (i == 0) {
		cur[i] = j;
	} else if (j == 0) {
		cur[i] = i;
	} else {
		cur[i] = min3(p[i - 1] + 1, p[i] + 1, pp[i - 1] + (a[i - 1] != b[j - 1]));
	}
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE_A FILE_B\n", argv[0]);
		return 2;
	}
	long m, n;
	unsigned char *a = slurp(argv[1], &m), *b = slurp(argv[2], &n);
	long *pp = calloc(m + 1, sizeof(long)), *p = calloc(m + 1, sizeof(long)),
	     *cur = calloc(m + 1, sizeof(long));
	if (!pp || !p || !cur) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	double start = omp_get_wtime();
	for (long d = 0; d <= m + n; d++) {
		long lo = d > n ? d - n : 0, hi = d < m ? d : m, len = hi - lo + 1;
		if (len < SERIAL) {
			for (long i = lo; i <= hi; i++)
				cell(a, b, d, i, pp, p, cur);
		} else {
#ifdef OFF_BY_ONE
			long chunks = len / CHUNK;
#else
			long chunks = (len + CHUNK - 1) / CHUNK;
#endif
#pragma omp parallel for schedule(static)
			for (long c = 0; c < chunks; c++) {
				long end = lo + (c + 1) * CHUNK - 1;
				for (long i = lo + c * CHUNK; i <= (end < hi ? end : hi); i++)
					cell(a, b, d, i, pp, p, cur);
			}
		}
		long *t = pp;
		pp = p;
		p = cur;
		cur = t;
	}
	/* Antidiagonal m+n, now in p, holds one cell: row m. */
	printf("kernel %.6f s on %d threads\n", omp_get_wtime() - start, omp_get_max_threads());
	printf("%ld\n", p[m]);
	free(a);
	free(b);
	free(pp);
	free(p);
	free(cur);
	return 0;
}
