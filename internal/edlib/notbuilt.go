//go:build !edlib || !cgo

// Package edlib calls edlib, the C++ library most edit-distance tools are
// measured against, for the experiments' peer; this build lacks it (it
// needs -tags edlib and cgo), so Distance returns ErrNotBuilt.
package edlib

import "errors"

// Built reports whether edlib is compiled in.
const Built = false

// ErrNotBuilt is Distance's error in a build without edlib.
var ErrNotBuilt = errors.New("edlib: built without -tags edlib (needs libedlib-dev)")

// Distance stands in for edlib: it returns ErrNotBuilt.
func Distance(a, b []byte) (int, error) { return 0, ErrNotBuilt }

// SearchHW stands in for edlib: it returns ErrNotBuilt.
func SearchHW(pattern, text []byte, k int) (best, ends int, err error) { return 0, 0, ErrNotBuilt }
