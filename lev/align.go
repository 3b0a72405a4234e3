package lev

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/internal/bitpar"
)

// Alignment: not only how far apart two sequences are, but which edits
// take one to the other, in memory linear in their lengths. Hirschberg's
// divide and conquer (CACM 18(6), 1975) over the bit-parallel kernel: the
// last row of the DP of the first half of a against b, and of the second
// half reversed against b reversed, each a column at a time with only the
// bottom value kept (blockLastRow); the column where their sum is least
// splits b, and each half is aligned alone, down to pieces small enough
// for a DP with a traceback. Every level costs O(⌈m/64⌉·n) word steps, the
// levels together about twice one distance; memory O(m+n).

// An Op is one kind of edit of an alignment, as in an extended CIGAR with
// a as the query and b as the reference (SAM).
type Op byte

const (
	OpMatch Op = '=' // a symbol of a equal to one of b
	OpSubst Op = 'X' // a symbol of a replaced by another of b
	OpIns   Op = 'I' // a symbol of a only
	OpDel   Op = 'D' // a symbol of b only
)

// An Edit is a run of one Op: Len symbols.
type Edit struct {
	Op  Op
	Len int
}

// An Alignment is an optimal edit script from a to b: its edits walk both
// sequences to their ends, OpMatch only on equal symbols, OpSubst only on
// unequal ones, and every edit but OpMatch costs one a symbol, so that
// Cost() is the distance.
type Alignment struct {
	Distance int
	Edits    []Edit // runs of one Op, consecutive runs of different Ops
}

// CIGAR returns the alignment as an extended CIGAR string, e.g. "1X3=1X1=1I"
// for kitten → sitting ("" for two empty sequences).
func (al Alignment) CIGAR() string {
	var b strings.Builder
	for _, e := range al.Edits {
		b.WriteString(strconv.Itoa(e.Len))
		b.WriteByte(byte(e.Op))
	}
	return b.String()
}

// Cost returns the edits that cost one: every one but OpMatch.
func (al Alignment) Cost() int {
	c := 0
	for _, e := range al.Edits {
		if e.Op != OpMatch {
			c += e.Len
		}
	}
	return c
}

// Align returns an optimal alignment of a and b, compared byte by byte,
// and their distance. Options: WithContext (checked between the pieces)
// and WithStats; the algorithm is the bit-parallel Hirschberg above,
// whatever WithAlgorithm says (only Auto is taken, to leave the choice to
// later algorithms), on one worker.
func Align(a, b []byte, opts ...Option) (Alignment, error) {
	c, err := alignConfig(opts)
	if err != nil {
		return Alignment{}, err
	}
	return alignSeqs(c, a, b, 256)
}

// AlignString is Align counted in runes, as DistanceString counts them.
func AlignString(a, b string, opts ...Option) (Alignment, error) {
	c, err := alignConfig(opts)
	if err != nil {
		return Alignment{}, err
	}
	ca, cb, small := encodeRunes(a, b)
	if small {
		return alignSeqs(c, narrow(ca), narrow(cb), 256)
	}
	return alignSeqs(c, ca, cb, alphabetSize(ca, cb))
}

func alignConfig(opts []Option) (*config, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if c.alg != Auto {
		return nil, fmt.Errorf("lev: %w: Align runs its own algorithm (bit-parallel Hirschberg): algorithm %s is not taken (leave it auto)", ErrInvalidOption, c.alg)
	}
	if c.capped {
		return nil, fmt.Errorf("lev: %w: Align takes no WithMax yet: max = %d", ErrInvalidOption, c.maxD)
	}
	if c.stats != nil {
		*c.stats = Stats{Algorithm: Auto, Workers: 1}
	}
	return c, nil
}

func alignSeqs[S symbol](c *config, a, b []S, sigma int) (Alignment, error) {
	al := &aligner[S]{c: c, sigma: sigma}
	if err := al.align(a, b); err != nil {
		return Alignment{}, fmt.Errorf("lev: Align: %w", err)
	}
	out := Alignment{Edits: al.edits}
	out.Distance = out.Cost()
	return out, nil
}

// alignSmall is the size (cells) up to which a piece is aligned by a DP
// with a traceback: small enough for its matrix to stay in cache.
const alignSmall = 1 << 12

type aligner[S symbol] struct {
	c     *config
	sigma int
	edits []Edit
	st    blockState
	fwd   []int
	bwd   []int
	ra    []S // reversed halves
	rb    []S
}

// add appends n edits op, merging runs.
func (al *aligner[S]) add(op Op, n int) {
	if n == 0 {
		return
	}
	if k := len(al.edits); k > 0 && al.edits[k-1].Op == op {
		al.edits[k-1].Len += n
		return
	}
	al.edits = append(al.edits, Edit{op, n})
}

func (al *aligner[S]) align(a, b []S) error {
	// The common prefix and suffix are matches.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	al.add(OpMatch, p)
	if err := al.core(a[p:len(a)-s], b[p:len(b)-s]); err != nil {
		return err
	}
	al.add(OpMatch, s)
	return nil
}

func (al *aligner[S]) core(a, b []S) error {
	switch {
	case len(a) == 0:
		al.add(OpDel, len(b))
		return nil
	case len(b) == 0:
		al.add(OpIns, len(a))
		return nil
	case len(a) == 1 || int64(len(a))*int64(len(b)) <= alignSmall:
		al.traceback(a, b)
		return nil
	}
	if err := canceled(al.c.ctx); err != nil {
		return err
	}
	mid := len(a) / 2
	n := len(b)
	al.fwd = grow(al.fwd, n+1)
	blockLastRow(newBlockPattern(a[:mid], al.sigma), b, al.fwd, &al.st)
	al.ra = reverseInto(al.ra, a[mid:])
	al.rb = reverseInto(al.rb, b)
	al.bwd = grow(al.bwd, n+1)
	blockLastRow(newBlockPattern(al.ra, al.sigma), al.rb, al.bwd, &al.st)
	best, split := -1, 0
	for j := 0; j <= n; j++ {
		if v := al.fwd[j] + al.bwd[n-j]; best < 0 || v < best {
			best, split = v, j
		}
	}
	if err := al.align(a[:mid], b[:split]); err != nil {
		return err
	}
	return al.align(a[mid:], b[split:])
}

func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func reverseInto[S symbol](dst, src []S) []S {
	dst = append(dst[:0], src...)
	slices.Reverse(dst)
	return dst
}

// blockLastRow writes to row[j], j = 0 … len(t), the DP's value at the
// pattern's last row and column j: every cell computed, a column at a
// time, only the bottom value kept.
func blockLastRow[S symbol](bp *blockPattern, t []S, row []int, st *blockState) {
	m, W := bp.m, bp.words
	st.reset(W)
	pv, mv := st.pv, st.mv
	for w := range pv {
		pv[w], mv[w] = ^uint64(0), 0
	}
	score := m
	row[0] = m
	for j, sym := range t {
		c := int(sym)
		eqs := bp.peq[c*W : c*W+W]
		hp, hm := uint64(1), uint64(0)
		for w := 0; w < W-1; w++ {
			pv[w], mv[w], hp, hm = bitpar.Step(pv[w], mv[w], eqs[w], hp, hm)
		}
		var ph, mh uint64
		pv[W-1], mv[W-1], ph, mh = stepLast(pv[W-1], mv[W-1], eqs[W-1], hp, hm)
		score += int(ph>>bp.lastBit&1) - int(mh>>bp.lastBit&1)
		row[j+1] = score
	}
}

// traceback aligns a small piece by the whole DP and a walk back from its
// end, preferring a diagonal step, then a symbol of a, then one of b.
func (al *aligner[S]) traceback(a, b []S) {
	m, n := len(a), len(b)
	w := n + 1
	d := make([]int32, (m+1)*w)
	for j := 0; j <= n; j++ {
		d[j] = int32(j)
	}
	for i := 1; i <= m; i++ {
		d[i*w] = int32(i)
		for j := 1; j <= n; j++ {
			v := d[(i-1)*w+j-1]
			if a[i-1] != b[j-1] {
				v = 1 + min(v, d[(i-1)*w+j], d[i*w+j-1])
			}
			d[i*w+j] = v
		}
	}
	var rev []Op
	i, j := m, n
	for i > 0 || j > 0 {
		switch {
		case i > 0 && j > 0 && a[i-1] == b[j-1] && d[i*w+j] == d[(i-1)*w+j-1]:
			rev, i, j = append(rev, OpMatch), i-1, j-1
		case i > 0 && j > 0 && d[i*w+j] == d[(i-1)*w+j-1]+1:
			rev, i, j = append(rev, OpSubst), i-1, j-1
		case i > 0 && d[i*w+j] == d[(i-1)*w+j]+1:
			rev, i = append(rev, OpIns), i-1
		default:
			rev, j = append(rev, OpDel), j-1
		}
	}
	for k := len(rev) - 1; k >= 0; k-- {
		al.add(rev[k], 1)
	}
}
