//go:build edlib && cgo

// Package edlib calls edlib (Šošić and Šikić, 2017), the C++ library most
// edit-distance tools are measured against, for the experiments' peer. It
// is built with -tags edlib and cgo (Debian: libedlib-dev); without them
// Distance returns ErrNotBuilt. Its C is levlab_edlib.c; this and cudaext
// are the module's only packages that use cgo.
package edlib

// #cgo LDFLAGS: -ledlib
// #include "levlab_edlib.h"
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Built reports whether edlib is compiled in.
const Built = true

// Distance returns the Levenshtein distance of a and b computed by
// edlib's edlibAlign (query a, target b; edlibDefaultAlignConfig with
// k = -1, EDLIB_MODE_NW, EDLIB_TASK_DISTANCE). edlib takes lengths as C int
// and handles empty sequences itself. The inputs hold no Go pointers, so
// passing them to C is allowed; C keeps nothing after the call.
func Distance(a, b []byte) (int, error) {
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

// SearchHW searches text for pattern with edlib's infix mode
// (EDLIB_MODE_HW, EDLIB_TASK_DISTANCE, bound k ≥ 0): best is the least
// distance of pattern to a substring of text, or −1 where it is over k, and
// ends the number of positions where a substring at that least distance
// ends. edlib reports only the best distance's ends, not every end within
// k; it is the peer of match.Count's occurrence mode for time, a pattern a
// call.
func SearchHW(pattern, text []byte, k int) (best, ends int, err error) {
	if len(pattern) > math.MaxInt32 || len(text) > math.MaxInt32 || k < 0 || k > math.MaxInt32 {
		return 0, 0, fmt.Errorf("edlib: lengths %d and %d, k = %d: edlib takes lengths and k of at most %d, k at least 0",
			len(pattern), len(text), k, math.MaxInt32)
	}
	var n C.int
	d := C.levlab_edlib_search_hw(
		(*C.char)(unsafe.Pointer(unsafe.SliceData(pattern))), C.int(len(pattern)),
		(*C.char)(unsafe.Pointer(unsafe.SliceData(text))), C.int(len(text)), C.int(k), &n)
	if d == -2 {
		return 0, 0, errors.New("edlib: edlibAlign returned EDLIB_STATUS_ERROR")
	}
	return int(d), int(n), nil
}
