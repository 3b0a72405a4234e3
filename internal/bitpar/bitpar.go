// Package bitpar holds the bit-parallel step that lev's Myers kernels and
// match's scans share: Myers (1999) in Hyyrö's formulation, one column of a
// strip of up to 64 rows of the DP matrix per call, the rows' vertical
// deltas kept as two bit vectors.
package bitpar

// WordBits is the number of rows one step advances: the bits of a word.
const WordBits = 64

// Step advances one strip by one column. eq has bit r set where row r
// matches the column's symbol; hp/hm (0 or 1) encode the incoming horizontal
// delta +1/−1 at the strip's top. It returns the new vertical deltas and the
// outgoing horizontal delta at the strip's bottom (op/om, 0 or 1).
//
// Kept under the inliner's budget on purpose: every kernel loop inlines it.
func Step(pv, mv, eq, hp, hm uint64) (npv, nmv, op, om uint64) {
	xv := eq | mv
	eq |= hm // a −1 entering at the top acts like a match in row 0
	xh := (((eq & pv) + pv) ^ pv) | eq
	ph := mv | ^(xh | pv) // horizontal +1 bits
	mh := pv & xh         // horizontal −1 bits
	op, om = ph>>63, mh>>63
	ph = ph<<1 | hp
	mh = mh<<1 | hm
	return mh | ^(xv | ph), ph & xv, op, om
}
