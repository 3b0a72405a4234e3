/*
 * ed_file: the Levenshtein distance of the two strings of one input file,
 * in the shape such exercises set it:
 *
 *     n m
 *     s            (n bytes)
 *     r            (m bytes)
 *
 * The strings are read by their lengths, not by lines, so they may hold
 * any byte. levlab writes the file for each case from a template and
 * names it {input}:
 *
 *     make examples
 *     levlab verify --input '{n} {m}\n{a:text}\n{b:text}\n' -- examples/bin/ed_file {input}
 *     levlab run --spec examples/ed_file.toml
 *
 * Prints the distance alone on its line, then a line of timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s INPUT   (n m, then the two strings on lines of their own)\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	long n, m;
	if (fscanf(f, "%ld %ld", &n, &m) != 2 || n < 0 || m < 0 || fgetc(f) != '\n') {
		fprintf(stderr, "%s: want \"n m\" on the first line\n", argv[1]);
		return 1;
	}
	unsigned char *a = malloc(n + 1), *b = malloc(m + 1);
	long *row = malloc((m + 1) * sizeof *row);
	if (!a || !b || !row) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	if (fread(a, 1, n, f) != (size_t)n || fgetc(f) != '\n' || fread(b, 1, m, f) != (size_t)m) {
		fprintf(stderr, "%s: want %ld bytes, a line end, then %ld bytes\n", argv[1], n, m);
		return 1;
	}
	fclose(f);
	clock_t start = clock();
	for (long j = 0; j <= m; j++)
		row[j] = j;
	for (long i = 1; i <= n; i++) {
		long diag = row[0];
		row[0] = i;
		for (long j = 1; j <= m; j++) {
			long up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	printf("%ld\n", row[m]);
	printf("%ld x %ld cells in %.6f s\n", n, m, (double)(clock() - start) / CLOCKS_PER_SEC);
	free(a);
	free(b);
	free(row);
	return 0;
}
