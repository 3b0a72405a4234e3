package lev

import (
	"math"
	"math/bits"
)

// unreached is a last-column value outside the band: more than any path
// costs (alignSeqs takes fewer symbols than it).
const unreached = math.MaxInt32

// lastCol holds the values of a pass's last column, D(p[:i], t) for
// i = 0 … len(p), packed as the groups leave them: for each strip s of 64
// rows (rows 64s+1 … 64s+64), the value above its first row and its
// vertical deltas, two bits a row where an int32 a row took sixteen times
// the memory (Align's two columns of 1M rows: 250 KB, not 8 MB).
type lastCol struct {
	rows   int     // len(p): values 0 … rows
	reach  int     // the rows past it are unreached (the band's last row)
	first  int32   // the value of row 0, len(t)
	top    []int32 // top[s]: the value of row 64s, or unreached for the strip
	pv, mv []uint64
}

// reset sizes c for rows rows, of which the pass computes the first
// reach, row 0 of value first, every other unreached.
func (c *lastCol) reset(rows, reach int, first int32) {
	strips := (rows + wordBits - 1) / wordBits
	c.rows, c.reach, c.first = rows, reach, first
	c.top = growInt32(c.top, strips)
	if cap(c.pv) < strips {
		c.pv, c.mv = make([]uint64, strips), make([]uint64, strips)
	}
	c.pv, c.mv = c.pv[:strips], c.mv[:strips]
	for s := range c.top {
		c.top[s] = unreached
	}
}

// set records group g's last column for its rows rows from row r0+1 (r0
// a multiple of 64), top the value of row r0.
func (c *lastCol) set(r0, top int, g *group, rows int) {
	s0 := r0 / wordBits
	v := int32(top)
	for k := 0; rows > 0; k++ {
		mask := ^uint64(0)
		if rows < wordBits {
			mask = 1<<rows - 1
		}
		pv, mv := g.pv[k]&mask, g.mv[k]&mask
		c.top[s0+k], c.pv[s0+k], c.mv[s0+k] = v, pv, mv
		v += int32(bits.OnesCount64(pv)) - int32(bits.OnesCount64(mv))
		rows -= wordBits
	}
}

// at returns the value of row i.
func (c *lastCol) at(i int) int32 {
	var v [1]int32
	c.values(i, v[:])
	return v[0]
}

// values sets dst[k] to the value of row i+k for every k of dst (rows up to
// c.rows).
func (c *lastCol) values(i int, dst []int32) {
	for k := 0; k < len(dst); {
		row := i + k
		if row == 0 {
			dst[k] = c.first
			k++
			continue
		}
		s, r := (row-1)/wordBits, (row-1)%wordBits
		n := min(len(dst)-k, wordBits-r)
		if v := c.top[s]; v == unreached || row > c.reach {
			for j := range n {
				dst[k+j] = unreached
			}
		} else {
			pv, mv := c.pv[s]>>r, c.mv[s]>>r
			if r > 0 { // the value of row 64s+r, then the deltas after it
				low := uint64(1)<<r - 1
				v += int32(bits.OnesCount64(c.pv[s]&low)) - int32(bits.OnesCount64(c.mv[s]&low))
			}
			n = min(n, c.reach-row+1) // the rest of the strip past reach: next round
			for j := range n {
				v += int32(pv&1) - int32(mv&1)
				pv, mv = pv>>1, mv>>1
				dst[k+j] = v
			}
		}
		k += n
	}
}
