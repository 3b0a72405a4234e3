package match

import "encoding/binary"

// The q-gram filter of apm-fast, partition into exact search (the
// pigeonhole argument of S. Wu and U. Manber, "Fast text searching allowing
// errors", CACM 35(10), 1992, and of R. Baeza-Yates and C. Perleberg, "Fast
// and practical approximate string matching", CPM 1992): cut p into k+1
// pieces of L = ⌊m/(k+1)⌋ symbols (the rest of p in none). An alignment of
// p with a substring
// text[i..e] of cost ≤ k charges each edit to one piece (an insertion
// between two pieces to the next), so some piece has no edit and occurs
// verbatim in the text, its symbol o aligned with text position q. What
// follows it, p[o+L:], aligns with text[q+L..e] at cost ≤ k, so that
// e−q−L+1 ∈ [m−o−L−k, m−o−L+k].
//
// The filter keys on the first lk = min(L, 8) symbols of each piece (a
// piece that occurs verbatim has its prefix occur verbatim too) with the
// key ending at h = q+lk−1: a match ending at e has a key ending at some h
// with e−h ∈ [m−o−lk−k, m−o−lk+k] for o ∈ {0, L, …, kL}, that is in
// [m−kL−lk−k, m−lk+k] whatever the piece. Keys go into a bitmap by hash; a
// collision only costs a verification. The text is read 8 bytes per
// position (a little-endian load masked to lk bytes), with no dependency
// between positions; positions whose bitmap bit is set give the candidate
// ends, which come in increasing order, merged into runs that a Myers scan
// then verifies (see occurrenceFast, windowFast).

const (
	qgramBits   = 16      // a bitmap of 2^16 bits, 8 KiB: in L1
	qgramMinKey = 5       // shorter keys hit too often to pay for the filter
	qgramGiveUp = 1 << 12 // ends scanned before the filter may give up
	// maxExactKeys: up to this many keys (k < 8), AVX-512 compares eight
	// starts' words with each key, no hash and no bitmap (nextKeyAVX512).
	maxExactKeys = 8
)

type qgramFilter struct {
	lk     int // key length in bytes, in [qgramMinKey, 8]
	mask   uint64
	lo, hi int // a key starting at q hits the ends [q+lo, q+hi]
	bits   [1 << qgramBits / 64]uint64
	// keys are the pieces' keys for nextKeyAVX512, nkeys of them (0: more
	// than maxExactKeys, the bitmap alone); the rest repeat the first.
	keys  [maxExactKeys]uint64
	nkeys int
}

func qgramHash(key uint64) uint64 { return key * 0x9e3779b97f4a7c15 >> (64 - qgramBits) }

// newQgramFilter returns the filter of p for k edits, or nil where the
// pieces are too short to filter anything.
func newQgramFilter(p []byte, k int) *qgramFilter {
	f := new(qgramFilter)
	if !f.reset(p, k) {
		return nil
	}
	return f
}

// reset makes f the filter of p for k edits and reports true, or reports
// false where the pieces are too short to filter anything.
func (f *qgramFilter) reset(p []byte, k int) bool {
	m := len(p)
	L := m / (k + 1)
	if L < qgramMinKey {
		return false
	}
	lk := min(L, 8)
	*f = qgramFilter{lk: lk, mask: ^uint64(0) >> (64 - 8*lk)}
	for t := 0; t <= k; t++ {
		key := keyAt(p, t*L, lk)
		h := qgramHash(key)
		f.bits[h/64] |= 1 << (h % 64)
		if k < maxExactKeys {
			f.keys[t] = key
		}
	}
	if k < maxExactKeys {
		f.nkeys = k + 1
		for t := k + 1; t < maxExactKeys; t++ {
			f.keys[t] = f.keys[0]
		}
	}
	// e − h ∈ [m−kL−lk−k, m−lk+k] and h = q+lk−1.
	f.lo = m - k*L - k - 1
	f.hi = m + k - 1
	return true
}

// keyAt returns s[i:i+lk] as a little-endian integer.
func keyAt(s []byte, i, lk int) uint64 {
	var key uint64
	for j := lk - 1; j >= 0; j-- {
		key = key<<8 | uint64(s[i+j])
	}
	return key
}

// runs calls fn(rs, re) for runs [rs, re) of ends within [a, b), in
// increasing order and disjoint, such that every end in [a, b) at which an
// occurrence of cost ≤ k may end lies in a run. Runs closer than gap are
// merged: a verifying scan restarts with a warm-up of about gap symbols.
func (f *qgramFilter) runs(text []byte, a, b, gap int, fn func(rs, re int)) {
	n := len(text)
	// A key at q matters when [q+lo, q+hi] meets [a, b).
	q0 := max(0, a-f.hi)
	q1 := min(n-f.lk, b-1-f.lo) // last key start, inclusive
	rs, re := -1, -1
	scanned := 0 // ends the runs so far cover, with their warm-ups
	// hit adds the ends of a key at q. It reports false when the runs
	// would make the scan cover more than half of the ends filtered so far
	// (dense hits: a small alphabet, a repetitive text): the filter is not
	// paying for itself here, and the rest of [a, b) goes to the scan in
	// one run.
	hit := func(q int) bool {
		s, e := max(a, q+f.lo), min(b, q+f.hi+1)
		if s >= e {
			return true
		}
		if rs >= 0 && s <= re+gap {
			re = max(re, e)
		} else {
			if rs >= 0 {
				fn(rs, re)
				scanned += re - rs + gap
			}
			rs, re = s, e
		}
		if 2*(scanned+re-rs+gap) > re-a+qgramGiveUp {
			re = b
			return false
		}
		return true
	}
	q := q0
	if end := min(q1, n-8); q <= end {
		for {
			if q = f.next(text[:end+8], q); q > end {
				break
			}
			if !hit(q) {
				fn(rs, re)
				return
			}
			q++
		}
	}
	for ; q <= q1; q++ { // the last keys, fewer than 8 bytes from the end
		h := qgramHash(keyAt(text, q, f.lk))
		if f.bits[h/64]&(1<<(h%64)) != 0 && !hit(q) {
			break
		}
	}
	if rs >= 0 {
		fn(rs, re)
	}
}

// next returns the first key start from q in t whose key may be a piece's,
// or len(t)−7 if none: nextKeyAVX512 where it runs (exact keys), nextKey
// after it and elsewhere (the bitmap, a hash collision a false hit).
func (f *qgramFilter) next(t []byte, q int) int {
	if useAVX512Filter && f.nkeys > 0 {
		next, found := nextKeyAVX512(t, &f.keys, f.nkeys, f.mask, q)
		if found {
			return next
		}
		q = next
	}
	return nextKey(&f.bits, t, f.mask, q)
}

// nextKey returns the first key start from q on whose bitmap bit is set, or
// len(t)−7 if none: the hot loop, kept apart so that its few values stay in
// registers (hence not inlined). Every start q has the 8 bytes t[q:q+8].
//
//go:noinline
func nextKey(bits *[1 << qgramBits / 64]uint64, t []byte, mask uint64, q int) int {
	const mul = 0x9e3779b97f4a7c15
	const wordShift, bitShift = 64 - qgramBits + 6, 64 - qgramBits
	// Four positions per iteration: one bounds check for the four loads.
	for ; q+11 <= len(t); q += 4 {
		w := t[q : q+11]
		x0 := (binary.LittleEndian.Uint64(w[0:]) & mask) * mul
		x1 := (binary.LittleEndian.Uint64(w[1:]) & mask) * mul
		x2 := (binary.LittleEndian.Uint64(w[2:]) & mask) * mul
		x3 := (binary.LittleEndian.Uint64(w[3:]) & mask) * mul
		if bits[x0>>wordShift]&(1<<(x0>>bitShift%64)) != 0 {
			return q
		}
		if bits[x1>>wordShift]&(1<<(x1>>bitShift%64)) != 0 {
			return q + 1
		}
		if bits[x2>>wordShift]&(1<<(x2>>bitShift%64)) != 0 {
			return q + 2
		}
		if bits[x3>>wordShift]&(1<<(x3>>bitShift%64)) != 0 {
			return q + 3
		}
	}
	for ; q+8 <= len(t); q++ {
		x := (binary.LittleEndian.Uint64(t[q:q+8]) & mask) * mul
		if bits[x>>wordShift]&(1<<(x>>bitShift%64)) != 0 {
			break
		}
	}
	return q
}
