/*
 * ed_mpi: the Levenshtein distance of two files' bytes over MPI ranks, the
 * way the course reports split it: each rank owns a band of the columns,
 * and the rows flow through the ranks as a pipeline — a rank computes a
 * block of rows of its band once the rank on its left has sent the
 * block's boundary column, then sends its own right boundary on.
 *
 *     mpicc -O2 -o examples/bin/ed_mpi examples/ed_mpi.c   (make examples, where mpicc is)
 *     levlab verify --workers 1,2,3 -- mpirun -np {workers} examples/bin/ed_mpi {a} {b}
 *     levlab run --spec examples/ed_mpi.toml
 *
 * Rank 0 reads the files and broadcasts them. The last rank prints the
 * distance ("distance: D") and the pipeline's time ("MPI time: T s").
 * O(n·m / ranks) time a rank, O(m / ranks) memory beside the strings.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 256 }; /* rows a message carries the boundary of */

static unsigned char *slurp(const char *path, long *len) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	long cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += (long)got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, ranks;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (argc != 3) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np N %s FILE_A FILE_B\n", argv[0]);
		MPI_Finalize();
		return 2;
	}
	long len[2] = {0, 0};
	unsigned char *a = NULL, *b = NULL;
	if (rank == 0) {
		a = slurp(argv[1], &len[0]);
		b = slurp(argv[2], &len[1]);
	}
	MPI_Bcast(len, 2, MPI_LONG, 0, MPI_COMM_WORLD);
	long n = len[0], m = len[1];
	if (rank != 0) {
		a = malloc(n + 1);
		b = malloc(m + 1);
	}
	MPI_Bcast(a, (int)n, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
	MPI_Bcast(b, (int)m, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);

	/* This rank's columns are c0..c1-1 of 1..m; it keeps column c0-1, its
	 * left boundary, at index 0 of its rows. */
	long c0 = 1 + m * rank / ranks, c1 = 1 + m * (rank + 1) / ranks, w = c1 - c0;
	long *prev = malloc((w + 1) * sizeof *prev), *cur = malloc((w + 1) * sizeof *cur);
	long *left = malloc(BLOCK * sizeof *left), *right = malloc(BLOCK * sizeof *right);
	if (!a || !b || !prev || !cur || !left || !right) {
		fprintf(stderr, "rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (long k = 0; k <= w; k++)
		prev[k] = c0 - 1 + k; /* row 0 */

	MPI_Barrier(MPI_COMM_WORLD);
	double start = MPI_Wtime();
	for (long i0 = 1; i0 <= n; i0 += BLOCK) {
		long rows = n - i0 + 1 < BLOCK ? n - i0 + 1 : BLOCK;
		if (rank == 0) {
			for (long r = 0; r < rows; r++)
				left[r] = i0 + r; /* column 0 */
		} else {
			MPI_Recv(left, (int)rows, MPI_LONG, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		for (long r = 0; r < rows; r++) {
			long i = i0 + r;
			cur[0] = left[r];
			for (long k = 1; k <= w; k++) {
				long j = c0 - 1 + k, best = prev[k - 1] + (a[i - 1] != b[j - 1]);
				if (prev[k] + 1 < best)
					best = prev[k] + 1;
				if (cur[k - 1] + 1 < best)
					best = cur[k - 1] + 1;
				cur[k] = best;
			}
			right[r] = cur[w];
			long *t = prev;
			prev = cur;
			cur = t;
		}
		if (rank + 1 < ranks)
			MPI_Send(right, (int)rows, MPI_LONG, rank + 1, 0, MPI_COMM_WORLD);
	}
	double elapsed = MPI_Wtime() - start;
	if (rank == ranks - 1) {
		printf("distance: %ld\n", prev[w]); /* row n, column m */
		printf("MPI time: %.9f s on %d ranks\n", elapsed, ranks);
	}
	free(a);
	free(b);
	free(prev);
	free(cur);
	free(left);
	free(right);
	MPI_Finalize();
	return 0;
}
