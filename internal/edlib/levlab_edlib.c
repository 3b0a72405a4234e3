//go:build edlib && cgo

#include <edlib.h>

#include "levlab_edlib.h"

// levlab_edlib_distance is the whole job in one cgo call: align a against b
// globally (Needleman–Wunsch) for the distance alone, free the result, and
// return the distance, or -1 when edlib reports an error.
int levlab_edlib_distance(const char *a, int la, const char *b, int lb) {
	EdlibAlignConfig cfg = edlibDefaultAlignConfig();
	cfg.k = -1; // no bound: the exact distance
	cfg.mode = EDLIB_MODE_NW;
	cfg.task = EDLIB_TASK_DISTANCE;
	EdlibAlignResult r = edlibAlign(a, la, b, lb, cfg);
	int d = r.status == EDLIB_STATUS_OK ? r.editDistance : -1;
	edlibFreeAlignResult(r);
	return d;
}

// levlab_edlib_search_hw finds pattern p in text t as edlib's infix mode
// (EDLIB_MODE_HW) does with the bound k: the least distance of p to a
// substring of t, or -1 if it is over k, and in *ends the number of end
// positions where that least distance is reached. It returns -2 when edlib
// reports an error.
int levlab_edlib_search_hw(const char *p, int lp, const char *t, int lt, int k, int *ends) {
	EdlibAlignConfig cfg = edlibDefaultAlignConfig();
	cfg.k = k;
	cfg.mode = EDLIB_MODE_HW;
	cfg.task = EDLIB_TASK_DISTANCE;
	EdlibAlignResult r = edlibAlign(p, lp, t, lt, cfg);
	int d = r.status == EDLIB_STATUS_OK ? r.editDistance : -2;
	*ends = r.status == EDLIB_STATUS_OK ? r.numLocations : 0;
	edlibFreeAlignResult(r);
	return d;
}
