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
