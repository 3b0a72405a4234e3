//go:build edlib && cgo

package experiments

/*
#cgo LDFLAGS: -ledlib
#include <edlib.h>

// levlab_edlib_distance is the whole job in one cgo call: align a against b
// globally (Needleman–Wunsch) for the distance alone, free the result, and
// return the distance, or -1 when edlib reports an error.
static int levlab_edlib_distance(const char *a, int la, const char *b, int lb) {
	EdlibAlignConfig cfg = edlibDefaultAlignConfig();
	cfg.k = -1; // no bound: the exact distance
	cfg.mode = EDLIB_MODE_NW;
	cfg.task = EDLIB_TASK_DISTANCE;
	EdlibAlignResult r = edlibAlign(a, la, b, lb, cfg);
	int d = r.status == EDLIB_STATUS_OK ? r.editDistance : -1;
	edlibFreeAlignResult(r);
	return d;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// edlibBuilt reports whether the edlib peer is compiled in.
const edlibBuilt = true

// edlibDistance returns the Levenshtein distance of a and b computed by
// edlib's edlibAlign (query a, target b; edlibDefaultAlignConfig with
// k = -1, EDLIB_MODE_NW, EDLIB_TASK_DISTANCE). edlib takes lengths as C int
// and handles empty sequences itself. The inputs hold no Go pointers, so
// passing them to C is allowed; C keeps nothing after the call.
func edlibDistance(a, b []byte) (int, error) {
	if len(a) > math.MaxInt32 || len(b) > math.MaxInt32 {
		return 0, fmt.Errorf("edlib: lengths %d and %d: edlib takes at most %d symbols", len(a), len(b), math.MaxInt32)
	}
	d := C.levlab_edlib_distance(
		(*C.char)(unsafe.Pointer(unsafe.SliceData(a))), C.int(len(a)),
		(*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.int(len(b)))
	if d < 0 {
		return 0, errors.New("edlib: edlibAlign returned EDLIB_STATUS_ERROR")
	}
	return int(d), nil
}
