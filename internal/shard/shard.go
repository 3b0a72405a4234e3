// Package shard splits the positions of a text into the contiguous parts
// that MPI ranks (or in-process groups of workers standing in for them)
// count for approximate pattern matching (report 003, Section 2.2), and
// says which bytes around its positions each part needs: the shadow bytes.
//
// A part owns the positions [Lo, Hi) of the whole text. It is given the
// bytes text[Start:End] and counts the positions [From, To) of that slice
// (From = Lo-Start, To = Hi-Start), the rest of the slice being context
// only. Parts are as equal as integers allow: part i of p owns
// [i*n/p, (i+1)*n/p). The sum of the parts' counts is the count over the
// whole text exactly, provided the shadow bytes are enough for the mode:
//
//   - window (a match starts at j and reads p[:size] against
//     text[j:j+size], size = min(len(p), n-j)): maxPattern-1 bytes after
//     the part's last position, none before. A part that ends before the
//     text does ends its slice at min(Hi+maxPattern-1, n), so every window
//     it counts has the size it has in the whole text.
//   - occurrence (a match ends at j: some substring ending at j is within k
//     of p; such a substring is at most len(p)+k bytes long): maxPattern+k-1
//     bytes before the part's first position, none after. k is first
//     clamped to maxPattern, as match.Count clamps it to the longest
//     pattern (with k ≥ len(p) every position matches: the counts are
//     those of k = len(p)), so that -k 9223372036854775807 needs no more
//     than 2·maxPattern-1 bytes.
//
// Every size is computed without overflow, whatever the arguments (k or a
// pattern length near math.MaxInt, a text of 0 bytes or of nearly MaxInt,
// such as a sparse file): a shadow saturates at MaxInt and is then cut to
// the text. Time and memory O(1); nothing is copied.
package shard

import (
	"fmt"
	"math"
	"math/bits"
)

// Part is one part of a text: the slice text[Start:End] it is given and the
// positions [From, To) of that slice it counts, which are the positions
// [Lo, Hi) of the whole text.
type Part struct {
	Lo, Hi     int // positions owned, in the whole text
	Start, End int // bytes needed, in the whole text
	From, To   int // positions counted, relative to Start
}

// Bytes is the number of bytes the part is given, End-Start.
func (p Part) Bytes() int { return p.End - p.Start }

// Window returns part i of parts of a text of n bytes for window matching
// (report 003's semantics) of patterns at most maxPattern bytes long.
func Window(n, parts, i, maxPattern int) (Part, error) {
	lo, hi, err := owned(n, parts, i)
	if err != nil {
		return Part{}, err
	}
	if maxPattern < 1 {
		return Part{}, fmt.Errorf("shard: longest pattern %d: want at least 1", maxPattern)
	}
	end := hi + min(maxPattern-1, n-hi) // hi+maxPattern-1 may overflow
	if hi == lo {
		end = hi // nothing to count, nothing to read
	}
	return Part{Lo: lo, Hi: hi, Start: lo, End: end, From: 0, To: hi - lo}, nil
}

// Occurrence returns part i of parts of a text of n bytes for occurrence
// matching (end positions) with at most k edits of patterns at most
// maxPattern bytes long.
func Occurrence(n, parts, i, maxPattern, k int) (Part, error) {
	lo, hi, err := owned(n, parts, i)
	if err != nil {
		return Part{}, err
	}
	if maxPattern < 1 || k < 0 {
		return Part{}, fmt.Errorf("shard: longest pattern %d, k %d: want a pattern of at least 1 byte and k >= 0", maxPattern, k)
	}
	// lev counts with k clamped to the longest pattern; maxPattern+k-1 may
	// still overflow.
	k = min(k, maxPattern)
	shadow := maxPattern - 1 + k
	if k > math.MaxInt-(maxPattern-1) {
		shadow = math.MaxInt
	}
	start := lo - min(shadow, lo)
	if hi == lo {
		start = lo
	}
	return Part{Lo: lo, Hi: hi, Start: start, End: hi, From: lo - start, To: hi - start}, nil
}

// owned returns the positions [lo, hi) part i of parts owns.
func owned(n, parts, i int) (lo, hi int, err error) {
	if n < 0 || parts < 1 || i < 0 || i >= parts {
		return 0, 0, fmt.Errorf("shard: part %d of %d of %d bytes: want n >= 0 and 0 <= part < parts", i, parts, n)
	}
	return split(n, i, parts), split(n, i+1, parts), nil
}

// split is ⌊n·i/parts⌋ for 0 ≤ i ≤ parts, exactly: the product is taken in
// 128 bits, since n may be the length of a file rather than of memory and
// parts any positive int. The quotient is at most n, so it fits.
func split(n, i, parts int) int {
	hi, lo := bits.Mul64(uint64(n), uint64(i))
	q, _ := bits.Div64(hi, lo, uint64(parts)) // hi < parts: n < 2^63, i ≤ parts
	return int(q)
}
