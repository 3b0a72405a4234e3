/*
 * ed_fixed: the Levenshtein distance of the two strings in input.txt, a
 * file of that fixed name in the working folder, one string a line, as
 * many an exercise reads its input:
 *
 *     printf 'kitten\nsitting\n' > input.txt && ed_fixed     prints "distance: 3"
 *
 * The strings are read as lines, so they hold no line end (--text).
 * levlab writes the file under that name with --input-name (input_name
 * in a spec), and runs each case in a folder of its own, beside it:
 *
 *     make examples
 *     levlab verify --text --input '{a:text}\n{b:text}\n' --input-name input.txt -- examples/bin/ed_fixed
 *     levlab run --spec examples/ed_fixed.toml
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* line reads one line of f without its line end into a buffer it grows;
 * NULL at the end of the file. */
static char *line(FILE *f, size_t *len) {
	size_t cap = 256, n = 0;
	char *s = malloc(cap);
	int c;
	while (s && (c = fgetc(f)) != EOF && c != '\n') {
		if (n + 1 == cap)
			s = realloc(s, cap *= 2);
		if (s)
			s[n++] = (char)c;
	}
	if (!s || (c == EOF && n == 0 && ferror(f)))
		return NULL;
	s[n] = '\0';
	*len = n;
	return s;
}

int main(void) {
	FILE *f = fopen("input.txt", "r");
	if (!f) {
		perror("input.txt");
		return 1;
	}
	size_t n, m;
	char *a = line(f, &n), *b = line(f, &m);
	fclose(f);
	long *row = b ? malloc((m + 1) * sizeof *row) : NULL;
	if (!a || !b || !row) {
		fprintf(stderr, "input.txt: want two lines, the strings\n");
		return 1;
	}
	for (size_t j = 0; j <= m; j++)
		row[j] = (long)j;
	for (size_t i = 1; i <= n; i++) {
		long diag = row[0];
		row[0] = (long)i;
		for (size_t j = 1; j <= m; j++) {
			long up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	printf("distance: %ld\n", row[m]);
	free(a);
	free(b);
	free(row);
	return 0;
}
