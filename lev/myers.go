package lev

import (
	"sync"

	"github.com/levlab/levlab/internal/bitpar"
)

// Bit-parallel Levenshtein distance after G. Myers, "A fast bit-vector
// algorithm for approximate string matching based on dynamic programming"
// (J. ACM 46(3), 1999), in the block formulation of H. Hyyrö, "A bit-vector
// algorithm for computing Levenshtein and Damerau edit distances" (Nordic J.
// Computing 10, 2003), with Ukkonen's band (E. Ukkonen, "Algorithms for
// approximate string matching", Inf. Control 64, 1985).
//
// Layout. The rows of the DP matrix are the symbols of p (the pattern, m of
// them), the columns those of t (the text, n). Rows are cut into strips of
// 64, one machine word each: bit r of a strip's words stands for row
// 64·s+r+1. A strip's state is the column of vertical deltas
// D[i][j]−D[i−1][j] ∈ {−1, 0, +1} held in two words, pv (the +1 bits) and
// mv (the −1 bits). Advancing a strip by one column needs the horizontal
// delta entering at its top, hin ∈ {−1, 0, +1}, and yields the delta leaving
// at its bottom, hout, which is the next strip's hin for that column.
//
// Groups. The strips of a group, four, or eight to 32 under the AVX-512
// kernels, are advanced together, staggered by one column each (strip k handles
// column j−k while strip 0 handles j), so that their dependency chains
// overlap in the CPU's pipelines, or fill the lanes of one vector register.
// A group's bottom horizontal deltas are written to a boundary array, one
// byte per column, which the next group reads as its hin.
//
// Band. Any cell (i, j) on a path of cost at most U satisfies
// |i−j| + |(m−i)−(n−j)| ≤ U. Given an upper bound U ≥ d, group g computes
// only the columns [J_g, E_g] where some of its rows meet that condition.
// Outside the band values are replaced by costs of real (not necessarily
// optimal) paths — a strip entering the band starts with all vertical deltas
// +1, a row leaving it continues with horizontal deltas +1 — so every value
// computed is an upper bound and every cell of an optimal path is exact; the
// distance comes out exact. A narrow first pass with a guessed bound U₀
// returns a value V₀: if V₀ ≤ U₀ it is the distance, else V₀ is an upper
// bound for the exact pass, which within the band also leaves out, group by
// group, the columns no path of cost V₀ can reach given the values of the
// group above (myerstrim.go).
//
// Score. The distance is D[m][n] = D[top−1][n] + Σ vertical deltas of the
// last group's real rows at column n, where D[top−1][·] along the last
// group's top edge is tracked by summing the hin it consumed. Each group's
// top-left value D[top−1][J_g−1] comes from the group above: its bottom value
// at J_g−1, found by summing the deltas it wrote.

const (
	wordBits  = bitpar.WordBits
	maxStrips = 32 // strips in a group under the widest AVX-512 kernel
	// bandRows is the least half-width of a first pass's band (myersDistance).
	bandRows = 4 * wordBits
	// trimBandRows is the half-width of the first pass before a trimmed
	// pass (myersDistance).
	trimBandRows = 8 * wordBits
)

// Horizontal deltas in a boundary byte: bit 0 set for +1, bit 1 set for −1.
const (
	hPlus  = 1
	hMinus = 2
)

// hdelta is the value of a boundary byte as an integer delta.
func hdelta(x uint8) int { return int(x&hPlus) - int(x>>1) }

// sumDeltas returns the sum of the horizontal deltas in s.
func sumDeltas(s []uint8) int {
	plus, minus := 0, 0
	for _, x := range s {
		plus += int(x & hPlus)
		minus += int(x >> 1)
	}
	return plus - minus
}

// myersKernel names a loop that advances a group over a run of columns.
type myersKernel uint8

const (
	kernelAuto   myersKernel = iota // the fastest this CPU has
	kernelGo                        // portable Go, four strips
	kernelAVX2                      // four strips in a YMM register, or eight in two
	kernelAVX512                    // eight strips in a ZMM register, or 16 to 32 in two to four
)

var kernelNames = [...]string{kernelAuto: "auto", kernelGo: "go", kernelAVX2: "avx2", kernelAVX512: "avx512"}

func (k myersKernel) String() string { return kernelNames[k] }

// bestKernel is the kernel Auto takes on this CPU: AVX-512 where it has
// the instructions the kernel uses, else AVX2, else portable Go; the
// purego tag leaves only Go.
func bestKernel() myersKernel {
	switch {
	case hasAVX512Myers:
		return kernelAVX512
	case useAVX2:
		return kernelAVX2
	}
	return kernelGo
}

// Kernel names the vector kernel the bit-parallel algorithms (Myers,
// MyersParallel, Auto) run on this CPU: "avx512" (eight 64-row strips in
// each of up to four ZMM registers, as many as the pattern fills),
// "avx2" (four a YMM register) or "go" (the portable loop: other CPUs and
// the purego build tag). Stats.Kernel says which a call ran.
func Kernel() string { return bestKernel().String() }

// kernelWidths lists the group widths (strips) kernel k runs: four
// under go, four or eight (one YMM register or two) under avx2, eight to
// 32 (one ZMM register to four) under avx512.
func kernelWidths(k myersKernel) []int {
	switch k {
	case kernelAVX512:
		return []int{8, 16, 24, 32}
	case kernelAVX2:
		return []int{4, 8}
	}
	return []int{4}
}

// availableKernels lists the kernels this CPU runs, portable Go first.
func availableKernels() []myersKernel {
	ks := []myersKernel{kernelGo}
	if useAVX2 {
		ks = append(ks, kernelAVX2)
	}
	if hasAVX512Myers {
		ks = append(ks, kernelAVX512)
	}
	return ks
}

// kernelFor resolves k (Auto: bestKernel) for a pass over m rows of
// symbols S and returns it with its group width in strips. The vector
// kernels take bytes only, and patterns of more than one strip (advance
// runs a single strip a step at a time); the AVX-512 kernel takes only
// patterns of more than four strips, shorter ones running the AVX2
// kernel's four lanes rather than eight half empty, and runs 16 strips a
// group (two registers) for patterns of more than eight, 32 (four) for
// patterns of more than sixteen; the AVX2 kernel runs eight (two
// registers) for patterns of more than four.
func kernelFor[S symbol](k myersKernel, m int) (myersKernel, int) {
	var s S
	if _, bytes := any(s).(uint8); !bytes || m <= wordBits {
		return kernelGo, 4
	}
	if k == kernelAuto {
		k = bestKernel()
	}
	if k == kernelAVX512 && m <= 4*wordBits {
		k = kernelAVX2
	}
	switch {
	case k == kernelAVX512 && m > 16*wordBits:
		return k, 32
	case k == kernelAVX512 && m > 8*wordBits:
		return k, 16
	case k == kernelAVX512, k == kernelAVX2 && m > 4*wordBits:
		return k, 8
	}
	return k, 4
}

// bandWidth narrows a band pass's group width under kernel k from width
// to the widest of k's widths whose rows do not outnumber the band's
// columns a row, lo+hi+1, eight strips at least: a group computes its rows'
// columns whole, a parallelogram's width plus its rows, so that in a
// narrow band (a first pass, a cap) a taller group computes more cells
// than its kernel's speed gains back. Trimmed passes keep width: their
// groups' columns are the narrower, and the 32 strips' speed the more
// worth it.
func bandWidth(k myersKernel, width int, bd band) int {
	ws := kernelWidths(k)
	if len(ws) == 1 {
		return width
	}
	w := ws[0]
	for _, x := range ws {
		if x <= width && x*wordBits <= bd.lo+bd.hi+1 {
			w = x
		}
	}
	return w
}

// group holds the state of up to width strips between column chunks, and
// their match table: peq[c][k] has bit r set where row 64·k+r of the group
// holds symbol c.
type group struct {
	pv, mv [maxStrips]uint64
	cp, cm [maxStrips]uint64 // the carries between strips within advance (steps)
	kernel myersKernel       // kernelGo, kernelAVX2 or kernelAVX512
	width  int               // strips of a full group: 4 or 8 (kernelAVX2), 8, 16, 24 or 32 (kernelAVX512)
	strips int               // real strips: fewer than width only in the last group
	peq    [][maxStrips]uint64
}

// newGroup returns a group for kernel k (not Auto) and width strips,
// with a match table for symbols below sigma.
func newGroup(k myersKernel, width, sigma int) *group {
	return &group{kernel: k, width: width, peq: make([][maxStrips]uint64, sigma)}
}

// groupPool keeps the groups of ended passes: a match table is 256 bytes
// a symbol, and Align's divide and conquer runs thousands of passes.
var groupPool sync.Pool

// getGroup is newGroup from groupPool where it has one, its match table
// cleared (a pass that failed may have left rows loaded).
func getGroup(k myersKernel, width, sigma int) *group {
	g, _ := groupPool.Get().(*group)
	if g == nil || cap(g.peq) < sigma {
		return newGroup(k, width, sigma)
	}
	g.kernel, g.width, g.peq = k, width, g.peq[:sigma]
	clear(g.peq)
	return g
}

// putGroup gives g back to groupPool.
func putGroup(g *group) { groupPool.Put(g) }

// rows is the number of pattern rows of a full group.
func (g *group) rows() int { return g.width * wordBits }

// load sets the match table for rows (at most g.rows() symbols) and the
// state to all vertical deltas +1 (a column entering the band, or column 0).
func load[S symbol](g *group, rows []S) {
	g.strips = (len(rows) + wordBits - 1) / wordBits
	for k := range maxStrips {
		g.pv[k], g.mv[k] = ^uint64(0), 0
	}
	for r, c := range rows {
		g.peq[c][r/wordBits] |= 1 << (r % wordBits)
	}
}

// unload clears what load set in the match table, in O(len(rows)).
func unload[S symbol](g *group, rows []S) {
	for _, c := range rows {
		g.peq[c] = [maxStrips]uint64{}
	}
}

// advance runs the group over the columns of t, reading the incoming
// horizontal deltas from hin and writing the outgoing ones to hout (each as
// long as t). hin and hout may be the same slice: hin[j] is read before
// hout[j] is written.
//
// A last group of fewer strips than width runs the width's kernel all the
// same, its missing strips rows that match nothing: their deltas, written
// to hout, are not the group's, and nothing reads them, as no group lies
// below the last. Bytes run the group's vector kernel (runFor), other
// symbols steps.
func advance[S symbol](g *group, t []S, hin, hout []uint8) {
	n := len(t)
	hin, hout = hin[:n], hout[:n]
	if tb, ok := any(t).([]uint8); ok {
		if r := runFor(g.kernel, g.width); r != nil {
			r(g, tb, hin, hout)
			return
		}
	}
	steps(g, t, hin, hout)
}

// steps runs advance's staggered schedule in Go, in which at step s strip
// k handles column s−k, so that a group of K strips runs n+K−1 steps, g.cp
// and g.cm carrying strip k's outgoing delta to strip k+1 for the next:
// the ramps at both ends a strip at a time (advanceSteps), and the steps
// between, where every strip is busy, by advanceGo. A group of one strip,
// or columns fewer than its width, runs advanceSteps alone.
func steps[S symbol](g *group, t []S, hin, hout []uint8) {
	clear(g.cp[:])
	clear(g.cm[:])
	n, K := len(t), g.width
	if g.strips == 1 || n < K {
		advanceSteps(g, t, hin, hout, 0, n+g.strips-1, g.strips, &g.cp, &g.cm)
		return
	}
	advanceSteps(g, t, hin, hout, 0, K-1, K, &g.cp, &g.cm)
	advanceGo(g, t, hin, hout, &g.cp, &g.cm)
	advanceSteps(g, t, hin, hout, n, n+K-1, K, &g.cp, &g.cm)
}

// A byteRun runs advance's whole schedule for a group over bytes: every
// vector kernel's one calling contract.
type byteRun func(g *group, t, hin, hout []uint8)

// whole is the byteRun of a vector kernel, which runs the whole schedule,
// the ramps at both ends with its idle lanes masked (AVX-512) or blended
// back (AVX2), so that short chunks cost no scalar steps. A group of one
// real strip runs a strip a step at a time, as in steps.
func whole(k func(pv, mv *[maxStrips]uint64, peq *uint64, t, hin, hout []uint8)) byteRun {
	return func(g *group, t, hin, hout []uint8) {
		switch {
		case len(t) == 0:
		case g.strips == 1:
			clear(g.cp[:])
			clear(g.cm[:])
			advanceSteps(g, t, hin, hout, 0, len(t), 1, &g.cp, &g.cm)
		default:
			k(&g.pv, &g.mv, &g.peq[0][0], t, hin, hout)
		}
	}
}

// The runs of the vector kernels, one a kernel and width (kernelFor).
var (
	runAVX2     = whole(advanceAVX2)
	runAVX2x2   = whole(advanceAVX2x2)
	runAVX512   = whole(advanceAVX512x1)
	runAVX512x2 = whole(advanceAVX512x2)
	runAVX512x3 = whole(advanceAVX512x3)
	runAVX512x4 = whole(advanceAVX512x4)
)

// runFor is the byteRun of kernel k at width strips over bytes; nil for
// kernelGo, which advance runs as it runs other symbols.
func runFor(k myersKernel, width int) byteRun {
	switch {
	case k == kernelAVX512 && width == 32:
		return runAVX512x4
	case k == kernelAVX512 && width == 24:
		return runAVX512x3
	case k == kernelAVX512 && width == 16:
		return runAVX512x2
	case k == kernelAVX512:
		return runAVX512
	case k == kernelAVX2 && width == 8:
		return runAVX2x2
	case k == kernelAVX2:
		return runAVX2
	}
	return nil
}

// advanceGo runs the steps 3 … len(t)−1 of advance's schedule for a group
// of four strips, where every strip is busy, with their words in registers.
func advanceGo[S symbol](g *group, t []S, hin, hout []uint8, cp, cm *[maxStrips]uint64) {
	n := len(t)
	hin, hout = hin[:n], hout[:n]
	peq := g.peq
	pv0, mv0, pv1, mv1 := g.pv[0], g.mv[0], g.pv[1], g.mv[1]
	pv2, mv2, pv3, mv3 := g.pv[2], g.mv[2], g.pv[3], g.mv[3]
	p01, m01, p12, m12, p23, m23 := cp[0], cm[0], cp[1], cm[1], cp[2], cm[2]
	for s := 3; s < n; s++ {
		x := hin[s]
		var pa, ma, pb, mb, pc, mc, po, mo uint64
		pv0, mv0, pa, ma = bitpar.Step(pv0, mv0, peq[t[s]][0], uint64(x&hPlus), uint64(x>>1))
		pv1, mv1, pb, mb = bitpar.Step(pv1, mv1, peq[t[s-1]][1], p01, m01)
		pv2, mv2, pc, mc = bitpar.Step(pv2, mv2, peq[t[s-2]][2], p12, m12)
		pv3, mv3, po, mo = bitpar.Step(pv3, mv3, peq[t[s-3]][3], p23, m23)
		hout[s-3] = uint8(po | mo<<1)
		p01, m01, p12, m12, p23, m23 = pa, ma, pb, mb, pc, mc
	}
	g.pv[0], g.mv[0], g.pv[1], g.mv[1] = pv0, mv0, pv1, mv1
	g.pv[2], g.mv[2], g.pv[3], g.mv[3] = pv2, mv2, pv3, mv3
	cp[0], cm[0], cp[1], cm[1], cp[2], cm[2] = p01, m01, p12, m12, p23, m23
}

// advanceSteps runs steps [s0, s1) of advance's schedule for strips
// 0 … strips−1, one strip at a time: the ramps at both ends, and what no
// kernel takes.
func advanceSteps[S symbol](g *group, t []S, hin, hout []uint8, s0, s1, strips int, cp, cm *[maxStrips]uint64) {
	last := strips - 1
	for s := s0; s < s1; s++ {
		// From the bottom strip up, so that strip k+1 takes strip k's carry
		// of the previous step before strip k replaces it.
		for k := last; k >= 0; k-- {
			j := s - k
			if j < 0 || j >= len(t) {
				continue
			}
			var hp, hm uint64
			if k == 0 {
				hp, hm = uint64(hin[j]&hPlus), uint64(hin[j]>>1)
			} else {
				hp, hm = cp[k-1], cm[k-1]
			}
			var op, om uint64
			g.pv[k], g.mv[k], op, om = bitpar.Step(g.pv[k], g.mv[k], g.peq[t[j]][k], hp, hm)
			if k == last {
				hout[j] = uint8(op | om<<1)
			} else {
				cp[k], cm[k] = op, om
			}
		}
	}
}

// band is the Ukkonen band of a pass: row i (1-based) is computed over the
// columns [i−lo, i+hi], clipped to [1, n].
type band struct{ lo, hi int }

// bandFor returns the band of the cells that a path of cost at most u can
// visit in an m×n matrix: |i−j| + |(m−i)−(n−j)| ≤ u. u ≥ |m−n| is required.
func bandFor(m, n, u int) band {
	delta := m - n
	e := (u - abs(delta)) / 2
	return band{lo: max(delta, 0) + e, hi: max(-delta, 0) + e}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// myers is the sequential bit-parallel algorithm; see the comment at the top
// of this file. O(⌈m/64⌉·n) word operations at most (fewer in the band),
// O(m+n+σ) memory for the shorter string of length m.
func myers[S symbol](a, b []S, c *config) (int, error) {
	return myersDistance(a, b, c, 1)
}

// Chunk widths (columns) between progress hand-offs: a pipeline wants
// chunks short against a group's row, one worker only needs them for
// prompt cancellation.
const (
	myersChunkParallel = 2048
	myersChunkSerial   = 1 << 15
)

// myersChunk is the chunk width of a pass over n columns in band bd on
// workers goroutines, tile (WithTile) where given, but no wider than the n
// columns (so that a column plus a chunk cannot overflow, whatever the
// tile). In a pipeline, a third of the band's width, at least 512 columns
// and at most myersChunkParallel: in a narrow band (a first pass) a group
// otherwise hands over its whole row at once, and the next waits for it.
func myersChunk(bd band, n, workers, tile int) int {
	switch {
	case tile > 0:
		return min(tile, max(n, 1))
	case workers == 1:
		return myersChunkSerial
	}
	return min(myersChunkParallel, max(512, (bd.lo+bd.hi)/3))
}

// myersDistance runs the band passes over workers goroutines.
func myersDistance[S symbol](a, b []S, c *config, workers int) (int, error) {
	a, b = trimCommon(a, b)
	if len(a) > len(b) {
		a, b = b, a // the shorter string gives the rows: fewer words per column
	}
	m, n := len(a), len(b)
	if m == 0 {
		return n, nil
	}
	k, width := kernelFor[S](c.kernel, m)
	link, err := joinRanks(c.ranks, m, n, workers, width)
	if err != nil {
		return 0, err
	}
	pipeline := workers // the workers the chunk is chosen for: every rank's
	if link != nil {
		k, _ = narrowTo(k, width, link.width)
		pipeline *= link.size
	}
	if c.stats != nil {
		c.stats.Kernel = k.String()
	}
	sigma := alphabetSize(a, b)
	newPass := func(bd band) *myersPass[S] {
		return &myersPass[S]{p: a, t: b, m: m, n: n, sigma: sigma, band: bd,
			workers: workers, chunk: myersChunk(bd, n, pipeline, c.tile), ctx: c.ctx, kernel: c.kernel, link: link, bundle: c.bundle}
	}
	// counted counts the cells of a pass that has run (Stats.Computed).
	counted := func(ps *myersPass[S], err error) {
		if err == nil && c.stats != nil {
			c.count(ps.computed())
		}
	}
	pass := func(bd band) (int, error) {
		ps := newPass(bd)
		v, err := ps.run()
		counted(ps, err)
		return v, err
	}
	// trimmed runs a trimmed pass of threshold t (trimPass), on more than
	// one worker in chunks that keep them side by side.
	trimmed := func(t int) (int, bool, error) {
		ps := newPass(band{})
		if workers > 1 && c.tile == 0 {
			ps.chunk = trimChunk(t)
		}
		v, ok, err := trimPass(ps, t)
		counted(ps, err)
		return v, ok, err
	}
	if c.noBand {
		return pass(band{lo: m + n, hi: m + n})
	}
	delta := n - m
	if k := c.capK(); k >= 0 && k < n {
		// Under the cap, |m−n| ≤ k here (capped). Where groups are many
		// and the cap wider than the narrow band of the pass without one,
		// a trimmed pass (myerstrim.go), which computes only the cells a
		// path of cost t can reach and stops where none is left, t = k;
		// or, where the cap is far wider still, first that narrow pass,
		// whose value, where past its band, is a real path's cost and so
		// the threshold where below k. Else the cap's band, which a
		// trimmed pass, a group's rows wide at least, would not narrow.
		// A value within k is exact, one past it is capped by the caller.
		if u0 := delta + 2*trimBandRows; link == nil && m >= 4*bandRows && k > u0 {
			t := k
			if 16*u0 <= k {
				v0, err := pass(bandFor(m, n, u0))
				if err != nil || v0 <= u0 {
					return v0, err
				}
				t = min(t, v0)
			}
			if v, ok, err := trimmed(t); err != nil || ok {
				return v, err
			}
			if t == k {
				return k + 1, nil
			}
			// Not reached: t = v0 ≥ d, so the pass has the distance.
			return pass(bandFor(m, n, t))
		}
		return pass(bandFor(m, n, k))
	}
	if link == nil && m >= 4*bandRows {
		// A first pass in a narrow band about the diagonals from (0,0) and
		// to (m,n), a thousand cells a column: its value is the
		// distance if it is within the band's bound, and otherwise the
		// cost of a real path, the threshold of a trimmed pass
		// (myerstrim.go), which then computes only the cells a path of that
		// cost can reach, judged by the values as it goes.
		if u0 := delta + 2*trimBandRows; u0 < n/2 {
			v0, err := pass(bandFor(m, n, u0))
			if err != nil || v0 <= u0 {
				return v0, err
			}
			if v, ok, err := trimmed(v0); err != nil || ok {
				return v, err
			}
			// Not reached: v0 ≥ d, so the pass has the distance.
			return pass(bandFor(m, n, min(v0, n)))
		}
	}
	// A first pass in a narrow band around the diagonals from (0,0) and to
	// (m,n) costs a few per cent of the matrix. Its value is the distance if
	// it is within the band's bound, and otherwise the bound for the exact
	// pass, which then skips every cell no path of that cost can reach.
	u0 := delta + 2*max(bandRows, n/64)
	if m >= 4*bandRows && u0 < n/2 {
		v0, err := pass(bandFor(m, n, u0))
		if err != nil || v0 <= u0 {
			return v0, err
		}
		return pass(bandFor(m, n, min(v0, n)))
	}
	return pass(bandFor(m, n, n))
}

// trimCommon drops the common prefix and suffix, which leave the distance
// unchanged.
func trimCommon[S symbol](a, b []S) ([]S, []S) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	a, b = a[i:], b[i:]
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	return a, b
}

// alphabetSize returns one more than the largest symbol in a or b: the
// size of a match table indexed by symbol.
func alphabetSize[S symbol](a, b []S) int {
	var top S
	for _, s := range a {
		top = max(top, s)
	}
	for _, s := range b {
		top = max(top, s)
	}
	return int(top) + 1
}
