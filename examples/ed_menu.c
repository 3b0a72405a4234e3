/*
 * ed_menu: the Levenshtein distance behind a menu on standard input, the
 * way a course's first exercise asks for it:
 *
 *     1) enter the two strings   2) compute the distance   3) quit
 *
 * Each string is read as one line, its line end cut off: a string cannot
 * hold a line end (nor, read with fgets, a NUL byte). levlab gives it the
 * menu's answers on stdin, and keeps to cases it can take with --text:
 *
 *     make examples
 *     levlab verify --text --stdin '1\n{a:text}\n{b:text}\n2\n3\n' -- examples/bin/ed_menu
 *     levlab run --spec examples/ed_menu.toml
 *
 * Without --text, verify shows the failures share a trait (a line end,
 * white space) and names the flag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* line reads one line of stdin, its line end cut off, into a new buffer;
 * NULL at the end of input. */
static char *line(void) {
	size_t cap = 256, n = 0;
	char *s = malloc(cap);
	int c;
	while (s && (c = getchar()) != EOF && c != '\n') {
		if (n + 1 == cap)
			s = realloc(s, cap *= 2);
		if (s)
			s[n++] = (char)c;
	}
	if (!s || (c == EOF && n == 0)) {
		free(s);
		return NULL;
	}
	s[n] = 0;
	return s;
}

static size_t distance(const char *a, const char *b) {
	size_t n = strlen(a), m = strlen(b);
	size_t *row = malloc((m + 1) * sizeof *row);
	if (!row) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];
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
	size_t d = row[m];
	free(row);
	return d;
}

int main(void) {
	char *a = NULL, *b = NULL, *choice;
	for (;;) {
		printf("1) enter the two strings  2) compute the distance  3) quit\n> ");
		if (!(choice = line()))
			return 0;
		int c = atoi(choice);
		free(choice);
		switch (c) {
		case 1:
			free(a);
			free(b);
			printf("first string: ");
			a = line();
			printf("second string: ");
			b = line();
			if (!a || !b) {
				printf("two strings, please\n");
				return 1;
			}
			break;
		case 2:
			if (!a) {
				printf("enter the strings first (1)\n");
				break;
			}
			printf("Edit distance: %zu\n", distance(a, b));
			break;
		case 3:
			printf("bye\n");
			return 0;
		default:
			printf("1, 2 or 3, please\n");
		}
	}
}
