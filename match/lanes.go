package match

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"
)

// Many patterns in lanes. Where Count has many patterns of at most 64
// symbols, apm-fast scans them side by side instead of one after another:
// a lane group is one 64-byte vector register of patterns, sixteen 32-bit
// lanes for patterns of up to 32 symbols or eight 64-bit lanes for those of
// up to 64, each lane running Myers' search (scan1's step, in the lane's
// width) for its own pattern, and the text is read once for a bundle of
// groups stepped together. Each
// lane holds its pattern in its top rows, the rows below it wildcards (as
// in scan1), so that every lane's bottom row is the lane's top bit and one
// shift serves all the patterns whatever their lengths; each lane keeps its
// own below = score − (k+1), negative exactly at a match. Matches are rare
// when k is small against m, so the kernels only report the steps where a
// lane's below is negative: occurrence mode counts them, window mode
// verifies the window ending there (windowFast's argument, per lane).
//
// With AVX-512 (lanes_amd64.s) a step of a group is 17 vector instructions
// for its 16 or 8 patterns, four groups stepped together; with AVX2
// (lanes_avx2_amd64.s) a group is two YMM registers, two groups stepped
// together. laneStep runs the same operations lane by lane in Go: the twin
// the vector kernels are checked against, slower than the patterns' own
// scans, so that Count takes lanes only where a vector kernel runs.

const (
	laneBytes = 64 // a group's lanes: one ZMM register
	// laneGroupsMax is how many groups a bundle holds: the kernels step
	// them together, their dependency chains side by side.
	laneGroupsMax = 4
	// laneMaxLen is the longest pattern a lane holds.
	laneMaxLen = 64
)

// lanesMin is the least work, in filtered patterns, for which Count takes
// the lane path: a pattern whose pieces the q-gram filter can look up
// counts 1, one it cannot (pieces under qgramMinKey symbols) counts
// laneUnfiltered. On the AMD EPYC, one worker over random DNA, a group's
// step costs about what 16 filtered patterns' scans do (m = 22 to 50, k =
// 1 to 4: 2.1 to 4.4 GB/s a pattern, 3.6 GB/s summed over a group of 16)
// and what 1.5 unfiltered ones' do (0.32 GB/s, m = 12, k = 2); groups
// stepped together cost less each (10 GB/s summed over 4 groups).
var lanesMin = 16

// laneUnfiltered is the weight in lanesMin of a pattern the q-gram filter
// cannot filter.
const laneUnfiltered = 8

// lanesGo makes Count take lanes where only laneAdvanceGo runs them,
// which is slower than the patterns' own scans (the tests set it, to run
// it through Count).
var lanesGo = false

// laneWord is a lane's word: 32 or 64 bits.
type laneWord interface{ ~uint32 | ~uint64 }

// laneBundle is up to laneGroupsMax groups of patterns, one pattern per
// lane of width W, and what the kernels read: the groups' match tables
// and their state before the text. Lane l of group g is the bundle's lane
// 16g+l.
type laneBundle[W laneWord] struct {
	// tab is laneGroupsMax tables of 256 rows of laneBytes, row c of
	// table g holding in lane l the match bits of the lane's pattern for
	// symbol c: its first symbol at the lane's bit W−m, its last at the
	// top, the bits below set (wildcards). Unused lanes are all
	// wildcards.
	tab []W
	// init is laneGroupsMax states, each pv, mv and below (laneBytes
	// each) before the first symbol: the pattern's rows at +1, below =
	// m − k − 1; unused lanes 0, 0 and a below that never turns negative.
	init   []W
	groups int                     // groups in use, 1 to laneGroupsMax
	pats   [16 * laneGroupsMax]int // the lanes' patterns (indices into Count's list), −1 for none
	ms     [16 * laneGroupsMax]int // their lengths
	mmin   int
	mmax   int
	mem    []uint64 // the memory of tab and init
	// advance is the kernel: laneAdvanceGo or a vector kernel.
	advance func(tab, st []W, groups int, t []byte) (n int, hits uint64)
}

// laneKernelOf is a lane kernel: laneAdvanceGo or a vector kernel that
// does the same, and the most groups of a bundle it steps.
type laneKernelOf[W laneWord] struct {
	name    string // "go", "avx2", "avx512"
	groups  int
	advance func(tab, st []W, groups int, t []byte) (n int, hits uint64)
}

// laneKernel returns the kernel Count runs for lanes of W: the fastest
// vector kernel there is, else laneAdvanceGo.
func laneKernel[W laneWord]() laneKernelOf[W] {
	if ks := laneVectors[W](); len(ks) > 0 {
		return ks[0]
	}
	return laneKernelOf[W]{name: "go", groups: laneGroupsMax, advance: laneAdvanceGo[W]}
}

// laneBundleWords is the memory of a bundle's tables and states, in
// 64-bit words.
const laneBundleWords = laneGroupsMax * (256 + 3) * laneBytes / 8

// newLaneBundle returns the bundle of the patterns pats[i] for i in
// groups[g], group g's in its lanes in order: at most laneBytes·8/W
// patterns a group, each of at most W symbols and longer than k. Its
// tables and states are made in mem, laneBundleWords long, where mem is
// not nil.
func newLaneBundle[W laneWord](pats [][]byte, groups [][]int, k int, mem []uint64) *laneBundle[W] {
	w := int(unsafe.Sizeof(W(0))) * 8
	L := laneBytes * 8 / w
	if mem == nil {
		mem = make([]uint64, laneBundleWords)
	}
	all := unsafe.Slice((*W)(unsafe.Pointer(unsafe.SliceData(mem))), laneBundleWords*64/w)
	b := &laneBundle[W]{
		tab: all[:laneGroupsMax*256*L], init: all[laneGroupsMax*256*L:],
		groups: len(groups), mmin: w, advance: laneKernel[W]().advance, mem: mem,
	}
	clear(b.init)
	for i := range b.tab {
		b.tab[i] = ^W(0)
	}
	for i := range b.pats {
		b.pats[i] = -1
	}
	for g := range laneGroupsMax {
		tab, st := b.tab[g*256*L:(g+1)*256*L], b.init[g*3*L:(g+1)*3*L]
		for l := range L {
			st[2*L+l] = W(1) << (w - 2) // unused: far above 0
		}
		if g >= len(groups) {
			continue
		}
		for l, i := range groups[g] {
			p := pats[i]
			m := len(p)
			b.pats[16*g+l], b.ms[16*g+l] = i, m
			b.mmin, b.mmax = min(b.mmin, m), max(b.mmax, m)
			pad := w - m
			for c := range 256 {
				tab[c*L+l] = W(1)<<pad - 1
			}
			for r, c := range p {
				tab[int(c)*L+l] |= W(1) << (pad + r)
			}
			st[l], st[L+l], st[2*L+l] = ^W(0)<<pad, 0, W(m-k-1)
		}
	}
	return b
}

// laneStep runs one symbol's step on every lane of a group's state st
// (pv, mv, below) with the match words eq, and returns the lanes whose
// below is negative after it. It is scan1's step in the lane's width.
func laneStep[W laneWord](eq, st []W) uint64 {
	L := len(eq)
	pv, mv, below := st[:L], st[L:2*L], st[2*L:3*L]
	top := uint(unsafe.Sizeof(W(0)))*8 - 1
	var hit uint64
	for l, e := range eq {
		p, m := pv[l], mv[l]
		xv := e | m
		v := ((e & p) + p) ^ p
		mh := p & (v | e)
		ph := m | ^(v | e | p)
		below[l] += ph>>top - mh>>top
		ph <<= 1
		mh <<= 1
		pv[l] = mh | ^(xv | ph)
		mv[l] = ph & xv
		hit |= uint64(below[l]>>top) << l
	}
	return hit
}

// laneAdvanceGo advances the states st of the first groups of a bundle
// whose tables are tab over the symbols of t, up to the first after whose
// step some lane's below is negative, and returns the symbols it took and
// the hits of that last step: bit 16g+l for lane l of group g. With no hit
// it takes all of t and hits is 0. The vector kernels do the same, bit for
// bit.
func laneAdvanceGo[W laneWord](tab, st []W, groups int, t []byte) (n int, hits uint64) {
	L := len(st) / (3 * laneGroupsMax)
	for n < len(t) {
		c := int(t[n])
		for g := range groups {
			row := tab[(g*256+c)*L:][:L]
			hits |= laneStep(row, st[g*3*L:(g+1)*3*L]) << (16 * g)
		}
		n++
		if hits != 0 {
			break
		}
	}
	return n, hits
}

// scan runs the bundle over text[s:e] from its initial state and calls hit
// with each position j in [from, e) and lane l where the lane's score is at
// most k, in order of j. It tells pl of the symbols as it goes and returns
// false, part way, where pl says stop.
func (b *laneBundle[W]) scan(text []byte, s, from, e int, pl *poller, hit func(j, l int)) bool {
	var buf [3 * laneGroupsMax * laneBytes / 4]W
	st := buf[:len(b.init)]
	copy(st, b.init)
	for i := s; i < e; {
		if pl.done(0) {
			return false
		}
		end := min(e, i+pollWork)
		for i < end {
			n, hits := b.advance(b.tab, st, b.groups, text[i:end])
			i += n
			for hits != 0 {
				l := bits.TrailingZeros64(hits)
				hits &= hits - 1
				if i-1 >= from {
					hit(i-1, l)
				}
			}
		}
		if pl.done(end - s) {
			return false
		}
		s = end
	}
	return true
}

// laneScanner is a lane bundle of either width.
type laneScanner interface {
	scan(text []byte, s, from, e int, pl *poller, hit func(j, l int)) bool
	lanes() (pats, ms []int)
	span() (mmin, mmax int)
	memory() []uint64
}

func (b *laneBundle[W]) lanes() (pats, ms []int) { return b.pats[:], b.ms[:] }
func (b *laneBundle[W]) span() (mmin, mmax int)  { return b.mmin, b.mmax }
func (b *laneBundle[W]) memory() []uint64        { return b.mem }

// laneBundles returns, its tables made in the memory of mem (taken from
// it) while it lasts, the bundles of the patterns that lanes take — every
// pattern of at most laneMaxLen symbols longer than k, where they are
// lanesMin's work or more — and the indices of the others, in order; no
// bundles where lanes would not pay. Patterns are taken shortest first, up
// to 32 symbols in 32-bit lanes, sixteen a group, the longer ones in
// 64-bit lanes, eight a group; each width's groups are dealt to as few
// bundles as hold them (as many groups a bundle as the kernel steps),
// evenly.
func laneBundles(pats [][]byte, k int, mem *[][]uint64) (bundles []laneScanner, rest []int) {
	var in []int
	work := 0
	for i, p := range pats {
		if len(p) > k && len(p) <= laneMaxLen {
			in = append(in, i)
			work++
			if len(p)/(k+1) < qgramMinKey {
				work += laneUnfiltered - 1
			}
		} else {
			rest = append(rest, i)
		}
	}
	if work < lanesMin || len(laneVectors[uint32]()) == 0 && !lanesGo {
		return nil, nil
	}
	slices.SortStableFunc(in, func(a, b int) int { return len(pats[a]) - len(pats[b]) })
	narrow := 0
	for narrow < len(in) && len(pats[in[narrow]]) <= 32 {
		narrow++
	}
	for _, part := range []struct {
		in         []int
		lanes, per int
	}{{in[:narrow], 16, laneKernel[uint32]().groups}, {in[narrow:], 8, laneKernel[uint64]().groups}} {
		groups := slices.Collect(slices.Chunk(part.in, part.lanes))
		nb := (len(groups) + part.per - 1) / part.per
		for i := range nb {
			these := groups[i*len(groups)/nb : (i+1)*len(groups)/nb]
			var m []uint64
			if n := len(*mem); n > 0 {
				m, *mem = (*mem)[n-1], (*mem)[:n-1]
			}
			if part.lanes == 16 {
				bundles = append(bundles, newLaneBundle[uint32](pats, these, k, m))
			} else {
				bundles = append(bundles, newLaneBundle[uint64](pats, these, k, m))
			}
		}
	}
	return bundles, rest
}

// runLanes counts the patterns of groups in lanes, and those at rest on
// their own (runEach). Its items are chunks of the positions, a group's
// chunks after the last group's, so that the workers share a group's
// table while they scan it.
func (mt *matcher) runLanes(patterns [][]byte, bundles []laneScanner, rest []int) ([]int64, error) {
	counts := make([]int64, len(patterns))
	if len(rest) > 0 {
		sub := make([][]byte, len(rest))
		for i, r := range rest {
			sub[i] = patterns[r]
		}
		got, err := mt.runEach(sub)
		if err != nil {
			return nil, err
		}
		for i, r := range rest {
			counts[r] = got[i]
		}
	}
	defer func() {
		for _, b := range bundles {
			mt.laneMem = append(mt.laneMem, b.memory())
		}
	}()
	// Window mode verifies candidate windows with each pattern's match
	// table, made in the memory of the patterns of earlier batches.
	var verifiers []*pattern
	longest := 0
	for _, b := range bundles {
		pats, ms := b.lanes()
		for l, i := range pats {
			if i < 0 {
				continue
			}
			longest = max(longest, ms[l])
			if mt.c.mode == Window {
				if verifiers == nil {
					verifiers = make([]*pattern, len(patterns))
				}
				verifiers[i] = mt.spare(i)
				verifiers[i].resetPeq(patterns[i])
			}
		}
	}
	n := mt.to - mt.from
	ch := max(laneChunkMin, warmupRatio*(longest+mt.k), min(chunkMax*4, (n+mt.c.workers*chunksPerW-1)/(mt.c.workers*chunksPerW)))
	chunks := (n + ch - 1) / ch

	stopWatch := context.AfterFunc(mt.c.ctx, func() { mt.abort.Store(true) })
	defer stopWatch()
	err := mt.parallel(len(bundles)*chunks, counts, func() func(it int, pl *poller, local []int64) {
		return func(it int, pl *poller, local []int64) {
			a := mt.from + it%chunks*ch
			mt.laneItem(bundles[it/chunks], a, min(a+ch, mt.to), pl, local, verifiers)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	if err := canceled(mt.c.ctx); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	return counts, nil
}

// laneChunkMin is the fewest positions in a lane item.
const laneChunkMin = 1 << 14

// spare returns mt's i-th pattern, made where there is none yet: memory
// for a pattern's tables that earlier batches may have used.
func (mt *matcher) spare(i int) *pattern {
	for len(mt.pats) <= i {
		if len(mt.pats) < cap(mt.pats) {
			mt.pats = mt.pats[:len(mt.pats)+1]
		} else {
			mt.pats = append(mt.pats, nil)
		}
		if mt.pats[len(mt.pats)-1] == nil {
			mt.pats[len(mt.pats)-1] = new(pattern)
		}
	}
	return mt.pats[i]
}

// laneItem adds to counts the matches of g's patterns at the positions
// [a, b): the ends where occurrences end, or the starts of the windows
// that match; see the comment at the top of apmfast.go for why a scan
// from m+k symbols before finds every end, and every window's end.
func (mt *matcher) laneItem(g laneScanner, a, b int, pl *poller, counts []int64, verifiers []*pattern) {
	text, k := mt.text, mt.k
	pats, ms := g.lanes()
	mmin, mmax := g.span()
	if mt.c.mode == Occurrence {
		g.scan(text, max(0, a-(mmax+k)), a, b, pl, func(_, l int) { counts[pats[l]]++ })
		return
	}
	n := len(text)
	// The full windows of lane l start at j in [a, min(b, n−m+1)) and end
	// at j+m−1.
	if e0, e1 := a+mmin-1, min(b+mmax-1, n); e0 < e1 {
		g.scan(text, max(0, e0-(mmax+k)), e0, e1, pl, func(e, l int) {
			m := ms[l]
			if j := e - m + 1; j >= a && j < b && j <= n-m && windowVerify(verifiers[pats[l]], m, text[j:e+1], k, pl) {
				counts[pats[l]]++
			}
		})
	}
	for l, m := range ms { // the short windows at the text's end
		if pats[l] < 0 {
			continue
		}
		for j := max(a, n-m+1); j < b; j++ {
			if pl.done(1) {
				return
			}
			if size := n - j; size <= k || windowVerify(verifiers[pats[l]], size, text[j:n], k, pl) {
				counts[pats[l]]++
			}
		}
	}
}
