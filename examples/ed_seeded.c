/*
 * ed_seeded: a program that makes its own strings, as timing exercises
 * do — N and M random DNA symbols from a seed — and prints their distance
 * and its time in milliseconds:
 *
 *     ed_seeded 1000 1000 42     prints "distance: 519", then "time: 1.647 ms" or so
 *
 * levlab can check only strings it knows, so the program takes them from
 * files too (-f A B): the one change it needs, its generator kept for its
 * own runs. Its time is read with time_unit = "ms":
 *
 *     make examples
 *     levlab verify -- examples/bin/ed_seeded -f {a} {b}
 *     levlab run --spec examples/ed_seeded.toml
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* generate returns n symbols of ACGT drawn with xorshift64 from *state. */
static unsigned char *generate(long n, uint64_t *state) {
	unsigned char *s = malloc(n + 1);
	if (!s) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (long i = 0; i < n; i++) {
		*state ^= *state << 13;
		*state ^= *state >> 7;
		*state ^= *state << 17;
		s[i] = "ACGT"[*state >> 62];
	}
	return s;
}

static double now_ms(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
	long n, m;
	unsigned char *a, *b;
	if (argc == 4 && strcmp(argv[1], "-f") == 0) {
		a = slurp(argv[2], &n);
		b = slurp(argv[3], &m);
	} else if (argc == 4) {
		n = atol(argv[1]);
		m = atol(argv[2]);
		uint64_t state = strtoull(argv[3], NULL, 10) * 0x9e3779b97f4a7c15ull | 1;
		a = generate(n, &state);
		b = generate(m, &state);
	} else {
		fprintf(stderr, "usage: %s N M SEED, or %s -f FILE_A FILE_B\n", argv[0], argv[0]);
		return 2;
	}
	long *row = malloc((m + 1) * sizeof *row);
	if (!row) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	double start = now_ms();
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
	double ms = now_ms() - start;
	printf("distance: %ld\n", row[m]);
	printf("time: %.3f ms\n", ms);
	free(a);
	free(b);
	free(row);
	return 0;
}
