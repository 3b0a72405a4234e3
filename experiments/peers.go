package experiments

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	agnivade "github.com/agnivade/levenshtein"
	kaweihe "github.com/ka-weihe/fast-levenshtein"
	"github.com/levlab/levlab/internal/edlib"
)

// A peer is an edit-distance implementation from outside levlab that the
// experiments time beside lev's algorithms, under its own name in
// Point.Algorithm:
//
//   - "agnivade": github.com/agnivade/levenshtein v1.2.2,
//     ComputeDistance(a, b string) int. One-row DP over runes after
//     trimming the common prefix and suffix. O(mn) time, O(n) memory.
//   - "ka-weihe": github.com/ka-weihe/fast-levenshtein
//     v0.0.0-20201227151214-4c99ee36a1ba, Distance(a, b string) int.
//     Bit-parallel Myers over runes. It keeps a global 65536-entry table, so
//     it is not safe for concurrent use: Measure holds a lock around it.
//   - "edlib": the C/C++ library edlib (Šošić and Šikić 2017) through cgo,
//     built only with -tags edlib against Debian's libedlib-dev (1.2.7):
//     edlibAlign in global (Needleman–Wunsch) mode, distance only. Banded
//     bit-parallel Myers with doubling of the band. See peers_edlib.go.
//
// The Go peers count runes; on ASCII inputs, which every case of Inputs
// makes, that is the byte distance, and Measure refuses other inputs.
type peer struct {
	distance func(a, b []byte) (int, error)
	// mu, where not nil, is held around each call (outside the timing):
	// the peer is not safe for concurrent use.
	mu *sync.Mutex
}

var peers = map[string]peer{
	"agnivade": {distance: func(a, b []byte) (int, error) {
		return agnivade.ComputeDistance(bytesString(a), bytesString(b)), nil
	}},
	"ka-weihe": {distance: func(a, b []byte) (int, error) {
		return kaweihe.Distance(bytesString(a), bytesString(b)), nil
	}, mu: new(sync.Mutex)},
	"edlib": {distance: edlibDistance},
}

// Peers returns the names of the peers Measure knows, sorted. A peer not
// built in ("edlib" without -tags edlib) is listed; Measure then returns an
// error wrapping ErrSkipped.
func Peers() []string {
	names := make([]string, 0, len(peers))
	for n := range peers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// bytesString views b as a string without copying, so that a peer's timing
// holds no conversion. The peers only read their arguments, and Measure does
// not change a or b while one runs.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// edlibBuilt reports whether the edlib peer is compiled in (-tags edlib).
const edlibBuilt = edlib.Built

// edlibDistance is the edlib peer: edlib.Distance, its error in a build
// without edlib wrapping ErrSkipped.
func edlibDistance(a, b []byte) (int, error) {
	d, err := edlib.Distance(a, b)
	if !edlibBuilt {
		return 0, fmt.Errorf("%w: %w", ErrSkipped, err)
	}
	return d, err
}
