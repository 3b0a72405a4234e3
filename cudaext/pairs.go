package cudaext

import (
	"context"
	"errors"
	"fmt"
)

// Many pairs in one job (Pairs, and PairsModel its schedule on the CPU):
// every string of both sets goes to the device once, coded in one alphabet
// shared by all of them, with its own match table; each launch computes a
// tile of queries against every target, its pairs named by index and
// generated on the device, and the host reads one tile's distances while
// the device computes the next. See kernels/pairs.cu.

// ErrTablesTooLarge is wrapped by Pairs and PairsModel where the sets'
// match tables (one per string: σ codes of the shared alphabet × its rows,
// a bit each) would pass 1 GiB; nothing has been computed or called yet.
var ErrTablesTooLarge = errors.New("cudaext: the match tables of the sets are too large")

// TilePairs is about how many pairs one launch of Pairs computes: a tile is
// TilePairs / len(b) queries (at least one) against every target.
const TilePairs = 1 << 20

// pairsPlan is what the host prepares for a many-pairs job: every string
// as codes of the shared alphabet and as a match table of its own.
type pairsPlan struct {
	codes   []uint32 // every string's codes, one after the other
	codeOff []int64  // where string s's codes start
	lens    []int32  // string s's length
	peq     []uint64 // every string's match table, one after the other
	peqOff  []int64  // where string s's table starts
	sigma   int      // codes of the shared alphabet
	na, nb  int      // queries (strings 0..na-1), targets (bBase..bBase+nb-1)
	bBase   int
	tri     bool // only the pairs i < j of one set
	maxLen  int  // the longest string
	lanes   int
	bits    int // rows per lane
}

// codePad is the zero codes before the first string's codes and after the
// last's: the kernel's lanes read up to 33 codes outside a string (see
// lv_solo in kernels/pairs.cu).
const codePad = 64

// planPairs prepares the sets for warps of the given lanes and rows per
// lane. b == nil means b is a (one set, its strings once); tri takes only
// its pairs i < j.
func planPairs[S Symbol](a, b [][]S, tri bool, lanes, wordBits int) (*pairsPlan, error) {
	if tri && b != nil {
		return nil, fmt.Errorf("cudaext: pairs: tri takes one set (b == nil)")
	}
	strs := a
	p := &pairsPlan{na: len(a), nb: len(a), tri: tri, lanes: lanes, bits: wordBits}
	if b != nil {
		strs = append(append(make([][]S, 0, len(a)+len(b)), a...), b...)
		p.nb, p.bBase = len(b), len(a)
	}
	code, sigma := compactSets(strs)
	sigma = max(sigma, 1) // a table of one code where every string is empty
	p.sigma = sigma
	rowsPerBand := lanes * wordBits
	var codes, words int64
	for s, x := range strs {
		if err := checkLengths("pairs", len(x), 0); err != nil {
			return nil, fmt.Errorf("%w (string %d)", err, s)
		}
		bands := (len(x) + rowsPerBand - 1) / rowsPerBand
		codes += int64(len(x))
		words += int64(sigma) * int64(bands*lanes)
		p.maxLen = max(p.maxLen, len(x))
	}
	if need := words * int64((wordBits+7)/8); need > maxPeqBytes {
		return nil, fmt.Errorf("%w: %d strings over %d distinct symbols need %d bytes of match tables; at most %d (split the sets, or compute them on the CPU)",
			ErrTablesTooLarge, len(strs), sigma, need, maxPeqBytes)
	}
	p.codes, p.peq = make([]uint32, codePad, codes+2*codePad), make([]uint64, words)
	p.codeOff, p.peqOff, p.lens = make([]int64, len(strs)), make([]int64, len(strs)), make([]int32, len(strs))
	var at int64
	for s, x := range strs {
		stride := (len(x) + rowsPerBand - 1) / rowsPerBand * lanes
		p.codeOff[s], p.peqOff[s], p.lens[s] = int64(len(p.codes)), at, int32(len(x))
		table := p.peq[at : at+int64(sigma*stride)]
		for i, y := range x {
			c := code(y)
			table[c*stride+i/wordBits] |= 1 << (i % wordBits)
			p.codes = append(p.codes, uint32(c))
		}
		at += int64(sigma * stride)
	}
	p.codes = append(p.codes, make([]uint32, codePad)...)
	return p, nil
}

// compactSets numbers the distinct symbols of every string from 0 in order
// of first appearance and returns the coder (-1 for a symbol in none of
// them) and how many there are.
func compactSets[S Symbol](strs [][]S) (code func(S) int, n int) {
	small := true
	for _, s := range strs {
		for _, x := range s {
			if uint64(x) > 255 {
				small = false
				break
			}
		}
	}
	if small {
		var table [256]int
		for i := range table {
			table[i] = -1
		}
		for _, s := range strs {
			for _, x := range s {
				if table[x] < 0 {
					table[x] = n
					n++
				}
			}
		}
		return func(x S) int {
			if uint64(x) > 255 {
				return -1
			}
			return table[x]
		}, n
	}
	seen := make(map[S]int)
	for _, s := range strs {
		for _, x := range s {
			if _, ok := seen[x]; !ok {
				seen[x] = len(seen)
			}
		}
	}
	return func(x S) int {
		if c, ok := seen[x]; ok {
			return c
		}
		return -1
	}, len(seen)
}

// tileRows is how many queries one tile holds: about TilePairs pairs.
func tileRows(na, nb int) int {
	return max(1, min(na, TilePairs/max(nb, 1)))
}

// runTiles is the host's loop of a many-pairs job, on the GPU and in the
// model alike: next(out, first, rows) waits for the tile in flight (if
// out is not nil) and copies its distances to out, then starts the tile of
// rows queries from first (if rows > 0); fn gets each tile in order while
// the next one runs. ctx is checked between tiles.
func runTiles(ctx context.Context, na, nb, rows int, next func(out []int32, first, rows int) error, fn func(first int, d []int32) error) error {
	if na == 0 || nb == 0 {
		return nil
	}
	buf := make([]int32, rows*nb)
	if err := next(nil, 0, min(rows, na)); err != nil {
		return err
	}
	for first := 0; first < na; first += rows {
		n := min(rows, na-first)
		after := 0 // the next tile's queries, 0 at the end or once ctx is done
		if ctx.Err() == nil {
			after = min(rows, na-first-n)
		}
		out := buf[:n*nb]
		if err := next(out, first+n, after); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("cudaext: pairs: %w", context.Cause(ctx))
		}
		if err := fn(first, out); err != nil {
			return err
		}
	}
	return nil
}

// pairsArgs checks the arguments shared by Pairs and PairsModel.
func pairsArgs[S Symbol](a, b [][]S, tri bool, fn func(first int, d []int32) error) error {
	switch {
	case fn == nil:
		return fmt.Errorf("cudaext: pairs: the callback is nil")
	case tri && b != nil:
		return fmt.Errorf("cudaext: pairs: tri takes one set: b must be nil")
	}
	return nil
}

// PairsModel runs Pairs' schedule on the CPU, as kernels/pairs.cu and the
// host's tile loop run it, with the geometry s (its Warps are the
// persistent warps of a launch; Seed is not used: a pair's bands run in one
// warp, which no other waits for) and tiles of rows queries (0: as Pairs
// chooses). It checks what the GPU cannot: that every pair of a tile is
// written by exactly one warp and no other entry at all. It exists to
// prove the schedule in tests; it is slow.
func PairsModel[S Symbol](ctx context.Context, a, b [][]S, tri bool, s FastSchedule, rows int, fn func(first int, d []int32) error) error {
	if err := s.check(); err != nil {
		return err
	}
	if err := pairsArgs(a, b, tri, fn); err != nil {
		return err
	}
	p, err := planPairs(a, b, tri, s.Lanes, s.WordBits)
	if err != nil {
		return err
	}
	if rows <= 0 {
		rows = tileRows(p.na, p.nb)
	}
	pending, pendFirst, pendRows := false, 0, 0
	next := func(out []int32, first, rows int) error {
		if out != nil && pending {
			if err := p.modelTile(out, pendFirst, pendRows, s); err != nil {
				return err
			}
		}
		pending, pendFirst, pendRows = rows > 0, first, rows
		return nil
	}
	return runTiles(ctx, p.na, p.nb, rows, next, fn)
}

// unwritten marks the entries of a model's tile no warp wrote.
const unwritten = -1 << 31

// modelTile is one launch of lv_pairs over rows queries from first, its
// warps taking pairs q = w, w+W, … as the kernel's grid-stride loop does.
func (p *pairsPlan) modelTile(out []int32, first, rows int, s FastSchedule) error {
	for q := range out {
		out[q] = unwritten
	}
	pairs := rows * p.nb
	for w := range s.Warps {
		for q := w; q < pairs; q += s.Warps {
			i, j := first+q/p.nb, q%p.nb
			if p.tri && j <= i {
				continue
			}
			d, err := p.modelPair(i, p.bBase+j, s)
			if err != nil {
				return fmt.Errorf("cudaext: pairs: query %d, target %d: %w", i, j, err)
			}
			if out[q] != unwritten {
				return fmt.Errorf("%w: pair %d (query %d, target %d) written twice", errScheduleBroken, q, i, j)
			}
			out[q] = int32(d)
		}
	}
	for q, d := range out {
		i, j := first+q/p.nb, q%p.nb
		if want := !p.tri || j > i; want != (d != unwritten) {
			return fmt.Errorf("%w: pair %d (query %d, target %d): written %v, want %v", errScheduleBroken, q, i, j, d != unwritten, want)
		}
	}
	return nil
}

// modelPair is one warp's pair in lv_pairs: the rows the string with
// fewer band·column steps, its bands in order through one boundary row.
func (p *pairsPlan) modelPair(r, c int, s FastSchedule) (int, error) {
	band := s.Lanes * s.WordBits
	bandsOf := func(n int) int { return (n + band - 1) / band }
	m, n := int(p.lens[r]), int(p.lens[c])
	if m == 0 || n == 0 {
		return m + n, nil
	}
	if bandsOf(n)*(m+s.Lanes-1) < bandsOf(m)*(n+s.Lanes-1) {
		r, c, m, n = c, r, n, m
	}
	stride := bandsOf(m) * s.Lanes
	fp := fastPlan{m: m, n: n, sigma: p.sigma, bands: bandsOf(m), stride: stride,
		codes: p.codes[p.codeOff[c] : p.codeOff[c]+int64(n)],
		peq:   p.peq[p.peqOff[r] : p.peqOff[r]+int64(p.sigma*stride)]}
	one := s
	one.Warps = 1 // the pair's bands, in order, in this warp
	return newFastSim(fp, one).run()
}
