/*
 * ed_args: the Levenshtein distance of its two arguments, the strings
 * themselves — the shape of many a student's program:
 *
 *     ed_args kitten sitting        prints "distance: 3"
 *
 * levlab gives it the strings with {a:text} and {b:text} (then no case
 * holds a NUL byte, which no argument can carry):
 *
 *     make examples
 *     levlab verify -- examples/bin/ed_args {a:text} {b:text}
 *     levlab run --spec examples/ed_args.toml
 *
 * Two rows of the matrix, O(n·m) time and O(m) memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s STRING_A STRING_B\n", argv[0]);
		return 2;
	}
	const unsigned char *a = (const unsigned char *)argv[1], *b = (const unsigned char *)argv[2];
	size_t n = strlen(argv[1]), m = strlen(argv[2]);
	size_t *row = malloc((m + 1) * sizeof *row);
	if (!row) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0]; /* row i-1, column j-1 */
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	printf("distance: %zu\n", row[m]);
	free(row);
	return 0;
}
