//go:build edlib && cgo

// levlab's calls into edlib (edlib.go).
#ifndef LEVLAB_EDLIB_H
#define LEVLAB_EDLIB_H

int levlab_edlib_distance(const char *a, int la, const char *b, int lb);
int levlab_edlib_search_hw(const char *p, int lp, const char *t, int lt, int k, int *ends);

#endif
