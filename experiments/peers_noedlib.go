//go:build !edlib || !cgo

package experiments

import "fmt"

// edlibBuilt reports whether the edlib peer is compiled in.
const edlibBuilt = false

// edlibDistance stands in for edlib in builds without it.
func edlibDistance(a, b []byte) (int, error) {
	return 0, fmt.Errorf("%w: edlib: built without -tags edlib (needs libedlib-dev)", ErrSkipped)
}
