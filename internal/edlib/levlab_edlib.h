//go:build edlib && cgo

// levlab's one call into edlib (edlib.go).
#ifndef LEVLAB_EDLIB_H
#define LEVLAB_EDLIB_H

int levlab_edlib_distance(const char *a, int la, const char *b, int lb);

#endif
