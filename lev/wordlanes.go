package lev

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
)

// The word-major lanes kernel of many pairs: one pattern against eight
// texts at once, a lane a text, as blockLanes, but a word of the pattern
// at a time over every column rather than a column at a time over every
// word. A word's pass keeps its eight lanes' state in registers from the
// first column to the last, and hands the next word only its horizontal
// deltas, a bit a lane a column; a text's symbols are small codes, read
// eight lanes at a time from a column-major copy made once per run, and a
// word's eight match words by code sit in one register, so that a lane's
// match word is one permute, not a gather. It takes alphabets of at most
// wordCodes−1 symbols (DNA), where every code's match word fits the
// register.

// wordCodes is the codes a word's table holds: code 0 matches nothing (a
// symbol the run does not use, or a column past a text's end), codes
// 1 … wordCodes−1 the run's symbols.
const wordCodes = 8

// wordLaneCount is the texts a word pass takes at once.
const wordLaneCount = 8

// wordAlphabet maps the symbols of the strings of a many-pairs run to
// codes 1 … wordCodes−1, or says they are too many.
type wordAlphabet struct {
	code [256]uint8
	n    int // symbols coded
}

// newWordAlphabet codes the byte symbols of sets in order of first sight;
// false where they are more than wordCodes−1.
func newWordAlphabet(sets ...[][]uint8) (*wordAlphabet, bool) {
	wa := &wordAlphabet{}
	for _, set := range sets {
		for _, s := range set {
			for _, c := range s {
				if wa.code[c] != 0 {
					continue
				}
				if wa.n == wordCodes-1 {
					return nil, false
				}
				wa.n++
				wa.code[c] = uint8(wa.n)
			}
		}
	}
	return wa, true
}

// wordGroup is up to eight texts, column-major: codes[j*8+l] is the code
// of text l's symbol j, 0 past its end; js their indices among the run's
// texts, lens their lengths, n the longest.
type wordGroup struct {
	js    [wordLaneCount]int
	texts int // texts in the group, at most eight
	n     int
	lens  [wordLaneCount]int
	codes []uint8
}

// wordGroups copies ts into groups of eight, each text coded: window by
// window of window texts (the last may be shorter), each window's texts
// in order of length, so that a group's lanes end near one another and
// few of its columns are a shorter text's padding. A window's groups
// follow the last window's: window w's first group is w·window/8.
func wordGroups(wa *wordAlphabet, ts [][]uint8, window int) []wordGroup {
	gs := make([]wordGroup, 0, (len(ts)+wordLaneCount-1)/wordLaneCount+len(ts)/window)
	order := make([]int, 0, window)
	for w0 := 0; w0 < len(ts); w0 += window {
		order = order[:0]
		for j := w0; j < min(w0+window, len(ts)); j++ {
			order = append(order, j)
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(len(ts[x]), len(ts[y])) })
		for first := 0; first < len(order); first += wordLaneCount {
			g := wordGroup{texts: min(wordLaneCount, len(order)-first)}
			for l := range g.texts {
				g.js[l] = order[first+l]
				g.lens[l] = len(ts[g.js[l]])
				g.n = max(g.n, g.lens[l])
			}
			g.codes = make([]uint8, g.n*wordLaneCount)
			for l := range g.texts {
				for j, c := range ts[g.js[l]] {
					g.codes[j*wordLaneCount+l] = wa.code[c]
				}
			}
			gs = append(gs, g)
		}
	}
	return gs
}

// wordPattern is a pattern's match words by word and code: table[w*8+c]
// has bit r set where the pattern's symbol 64w+r has code c.
type wordPattern struct {
	m, words int
	lastBit  uint
	table    []uint64
}

func newWordPattern(wa *wordAlphabet, p []uint8) *wordPattern {
	wp := &wordPattern{m: len(p), words: (len(p) + wordBits - 1) / wordBits}
	if len(p) > 0 {
		wp.lastBit = uint((len(p) - 1) % wordBits)
	}
	wp.table = make([]uint64, wp.words*wordCodes)
	for i, c := range p {
		wp.table[i/wordBits*wordCodes+int(wa.code[c])] |= 1 << (i % wordBits)
	}
	return wp
}

// wordState is one worker's horizontal deltas, a byte a column each,
// and a query's distances by target (dist), put in order after.
type wordState struct {
	hp, hm []uint8
	dist   []int
}

// wordLanes writes to out[l] the distance of the pattern and text l of g,
// for each of g's texts: every cell of each matrix (no band, no cap).
func wordLanes(wp *wordPattern, g *wordGroup, st *wordState, out *[wordLaneCount]int) {
	if wp.m == 0 {
		for l := range g.texts {
			out[l] = g.lens[l]
		}
		return
	}
	n := g.n
	if cap(st.hp) < n+8 {
		st.hp, st.hm = make([]uint8, n+8), make([]uint8, n+8)
	}
	// Eight bytes past n, zero, so that the sums below read whole words.
	hp, hm := st.hp[:n+8], st.hm[:n+8]
	for j := range n {
		hp[j], hm[j] = 0xff, 0 // row 0: D[0][j] = j, a +1 a column
	}
	clear(hp[n:])
	clear(hm[n:])
	// Words three at a time (wordTriple), the rest two at a time
	// (wordPair), a word alone only where the pattern has one: three
	// words' steps in flight hide more of a step's latency than two or
	// one. The last word's out at the pattern's last row.
	table := func(w int) *[wordCodes]uint64 { return (*[wordCodes]uint64)(wp.table[w*wordCodes:]) }
	rowOf := func(w int) uint {
		if w == wp.words-1 {
			return wp.lastBit
		}
		return wordBits - 1
	}
	triples := wp.words / 3
	if wp.words%3 == 1 && triples > 0 {
		triples-- // 3k+1 words: k−1 triples and two pairs
	}
	w := 0
	for ; w < 3*triples; w += 3 {
		wordTriple(table(w), table(w+1), table(w+2), g.codes, hp[:n], hm[:n], rowOf(w+2))
	}
	for ; w+1 < wp.words; w += 2 {
		wordPair(table(w), table(w+1), g.codes, hp[:n], hm[:n], rowOf(w+1))
	}
	if w < wp.words {
		wordPass(table(w), g.codes, hp[:n], hm[:n], rowOf(w))
	}
	// D[m][len] = m + the row's deltas over the text's own columns: lane
	// l's bits of eight columns at a time.
	for l := range g.texts {
		out[l] = wp.m + laneSum(hp, l, g.lens[l]) - laneSum(hm, l, g.lens[l])
	}
}

// laneSum counts bit l of b[0 … n−1], eight bytes at a time; b holds at
// least n rounded up to eight.
func laneSum(b []uint8, l, n int) int {
	mask := uint64(0x0101010101010101) << l
	s, j := 0, 0
	for ; j+8 <= n; j += 8 {
		s += bits.OnesCount64(binary.LittleEndian.Uint64(b[j:]) & mask)
	}
	if j < n {
		tail := binary.LittleEndian.Uint64(b[j:]) & mask
		s += bits.OnesCount64(tail & (1<<(8*(n-j)) - 1))
	}
	return s
}

// wordPass runs one word of a pattern over the columns of eight lanes:
// table the word's match word of each code, codes the lanes' symbols
// column-major (codes[j*8+l]), hp and hm the horizontal deltas entering
// the word's top at each column (bit l of hp[j] lane l's +1, of hm[j] its
// −1), replaced by those leaving its row bit (63, or the pattern's last
// row in its last word). The word starts every lane at vertical deltas +1.
func wordPass(table *[wordCodes]uint64, codes, hp, hm []uint8, bit uint) {
	if len(hp) == 0 {
		return
	}
	if useWordPassAVX512 {
		wordPassAVX512(table, &codes[0], &hp[0], &hm[0], len(hp), uint64(1)<<bit)
		return
	}
	wordPassGo(table, codes, hp, hm, bit)
}

// wordPair is wordPass for word a (out at row 63), then for word b below
// it (out at row bitB), in one pass where the vector kernel runs.
func wordPair(a, b *[wordCodes]uint64, codes, hp, hm []uint8, bitB uint) {
	if len(hp) == 0 {
		return
	}
	if useWordPassAVX512 {
		wordPass2AVX512(a, b, &codes[0], &hp[0], &hm[0], len(hp), 1<<(wordBits-1), uint64(1)<<bitB)
		return
	}
	wordPassGo(a, codes, hp, hm, wordBits-1)
	wordPassGo(b, codes, hp, hm, bitB)
}

// wordTriple is wordPass for word a, then for word b below it (both out
// at row 63), then for word c below b (out at row bitC), in one pass where
// the vector kernel runs.
func wordTriple(a, b, c *[wordCodes]uint64, codes, hp, hm []uint8, bitC uint) {
	if len(hp) == 0 {
		return
	}
	const top = 1 << (wordBits - 1)
	switch {
	case useWordPassVBMI2:
		wordPass3VBMI2(a, b, c, &codes[0], &hp[0], &hm[0], len(hp), top, top, uint64(1)<<bitC)
	case useWordPassAVX512:
		wordPass3AVX512(a, b, c, &codes[0], &hp[0], &hm[0], len(hp), top, top, uint64(1)<<bitC)
	default:
		wordPassGo(a, codes, hp, hm, wordBits-1)
		wordPassGo(b, codes, hp, hm, wordBits-1)
		wordPassGo(c, codes, hp, hm, bitC)
	}
}

// wordPassGo is wordPassAVX512 in Go: the same steps as bitpar.Step, the
// lanes one after another.
func wordPassGo(table *[wordCodes]uint64, codes, hp, hm []uint8, bit uint) {
	var pv, mv [wordLaneCount]uint64
	for l := range pv {
		pv[l] = ^uint64(0)
	}
	for j := range hp {
		inP, inM := hp[j], hm[j]
		var outP, outM uint8
		for l := range wordLaneCount {
			eq := table[codes[j*wordLaneCount+l]&(wordCodes-1)]
			hpi, hmi := uint64(inP>>l&1), uint64(inM>>l&1)
			xv := eq | mv[l]
			eq |= hmi
			xh := (((eq & pv[l]) + pv[l]) ^ pv[l]) | eq
			ph := mv[l] | ^(xh | pv[l])
			mh := pv[l] & xh
			outP |= uint8(ph>>bit&1) << l
			outM |= uint8(mh>>bit&1) << l
			ph = ph<<1 | hpi
			mh = mh<<1 | hmi
			pv[l] = mh | ^(xv | ph)
			mv[l] = ph & xv
		}
		hp[j], hm[j] = outP, outM
	}
}

// wordRun is what a many-pairs run's word-major lanes share: the
// alphabet of its strings and its targets in groups of eight, sorted by
// length window by window (wordGroups).
type wordRun struct {
	alphabet *wordAlphabet
	window   int // a multiple of eight
	groups   []wordGroup
}

// allWindow is the window of All's targets (without WithTop): query i
// takes the targets from i+1 on, so that its first window's targets
// before i+1 are computed for nothing, on average half a window a query.
// A longer window sorts more of the set by length.
const allWindow = 64

// firstGroup returns the first group holding a target from from on.
func (wr *wordRun) firstGroup(from int) int {
	return from / wr.window * (wr.window / wordLaneCount)
}

// newWordRun returns the word-major lanes of a many-pairs run of queries a
// against targets b, or nil where they do not run: symbols other than
// bytes, an algorithm other than Auto, a cap (each pair then runs in its
// band, and stops early, a pair at a time), a CPU without the vector pass
// (its Go twin is no faster than blockLanes'), or more than wordCodes−1
// symbols. Nothing is copied where they do not run. Every query takes
// every target but with tri (All without WithTop): then the targets are
// sorted by length allWindow at a time, else all together.
func newWordRun[S symbol](a, b [][]S, c *config, tri bool) *wordRun {
	if c.alg != Auto || !useWordPassAVX512 || (c.capK() >= 0 && !c.noBand) {
		return nil
	}
	ab, ok1 := any(a).([][]uint8)
	bb, ok2 := any(b).([][]uint8)
	if !ok1 || !ok2 {
		return nil
	}
	wa, ok := newWordAlphabet(ab, bb)
	if !ok {
		return nil
	}
	return groupRun(wa, bb, tri)
}

// groupRun is the wordRun of targets b under alphabet wa: b sorted by
// length allWindow targets at a time with tri, else all together.
func groupRun(wa *wordAlphabet, b [][]uint8, tri bool) *wordRun {
	window := (len(b) + wordLaneCount - 1) / wordLaneCount * wordLaneCount
	if tri {
		window = allWindow
	}
	window = max(window, wordLaneCount)
	return &wordRun{alphabet: wa, window: window, groups: wordGroups(wa, b, window)}
}

// byteAlphabet codes every byte as itself: groups of texts for
// lanesRunAVX512, which reads a pattern's match words by byte.
var byteAlphabet = func() *wordAlphabet {
	wa := &wordAlphabet{n: 256}
	for c := range wa.code {
		wa.code[c] = uint8(c)
	}
	return wa
}()

// newLaneRun returns the targets of a many-pairs run in groups of eight
// for lanesGroup, as newWordRun sorts and copies them, where blockLanes
// would run: bytes, Auto, no cap (or WithoutBand), AVX-512; nil where the
// word-major lanes run instead (words non-nil) or the groups do not.
func newLaneRun[S symbol](b [][]S, c *config, tri bool, words *wordRun) *wordRun {
	bb, ok := any(b).([][]uint8)
	if !ok || words != nil || c.alg != Auto || !useAVX512 || (c.capK() >= 0 && !c.noBand) {
		return nil
	}
	return groupRun(byteAlphabet, bb, tri)
}
