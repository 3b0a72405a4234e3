// Package alignview lays an alignment out for people: the two sequences
// one above the other in blocks of a given width, a mark between them
// under each column (| a match, . a substitution, a space a gap), every
// symbol padded to the terminal width of the wider of its column. The
// command line's align --format pretty and the report's drawings share
// it. It reads an alignment as data — runs of edits, or the extended
// CIGAR lev.Alignment prints — and depends on no algorithm.
package alignview

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// The edits of an extended CIGAR, with a as the query: the bytes of
// lev.OpMatch, lev.OpSubst, lev.OpIns and lev.OpDel.
const (
	Match = '=' // a symbol of a equal to one of b
	Subst = 'X' // a symbol of a replaced by another of b
	Ins   = 'I' // a symbol of a only
	Del   = 'D' // a symbol of b only
)

// An Edit is a run of one edit: Len symbols.
type Edit struct {
	Op  byte
	Len int
}

// ParseCIGAR reads an extended CIGAR ("1X3=1X1=1D") into its runs: each
// a positive length and one of =, X, I and D. "" is no edits.
func ParseCIGAR(cigar string) ([]Edit, error) {
	var out []Edit
	for rest := cigar; rest != ""; {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		n, err := strconv.Atoi(rest[:i])
		if err != nil || n < 1 || i == len(rest) || !strings.ContainsRune("=XID", rune(rest[i])) {
			return nil, fmt.Errorf("alignview: CIGAR %q: at %q, want a positive length and one of =, X, I, D", cigar, rest)
		}
		out = append(out, Edit{rest[i], n})
		rest = rest[i+1:]
	}
	return out, nil
}

// A Cell is one symbol and how it is drawn: what prints and how many
// terminal columns it takes. Sym, the byte or rune itself, is what is
// compared: two symbols that do not print are drawn alike, not equal.
type Cell struct {
	Sym   rune
	Text  string
	Width int
}

// Gap stands in the sequence that lacks a symbol in a column.
var Gap = Cell{Sym: -1, Text: "-", Width: 1}

// noPrint is how a symbol that does not print is drawn: a control
// character, a byte past ASCII, a mark of no width of its own.
const noPrint = "·"

// Bytes returns the cells of s compared byte by byte: printable ASCII
// drawn as itself, any other byte as ·.
func Bytes(s []byte) []Cell {
	out := make([]Cell, len(s))
	for i, c := range s {
		out[i] = Cell{rune(c), noPrint, 1}
		if c >= 0x20 && c < 0x7f {
			out[i].Text = string(rune(c))
		}
	}
	return out
}

// Runes returns the cells of s compared rune by rune, as
// lev.AlignString counts them: a printable rune as itself, two columns
// wide where a terminal draws it so (East Asian wide), any other as ·.
func Runes(s string) []Cell {
	out := make([]Cell, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		c := Cell{r, noPrint, 1}
		if unicode.IsPrint(r) {
			if w := uniseg.StringWidth(string(r)); w > 0 {
				c.Text, c.Width = string(r), w
			}
		}
		out = append(out, c)
	}
	return out
}

// A Column is one column of an alignment: a symbol of each sequence (Gap
// for the one an insertion or a deletion lacks) and the edit.
type Column struct {
	A, B Cell
	Op   byte
}

// Mark is what stands between the two symbols: | for a match, . for a
// substitution, a space for a gap.
func (c Column) Mark() string {
	switch c.Op {
	case Match:
		return "|"
	case Subst:
		return "."
	}
	return " "
}

// A Block is a run of columns. FirstA and LastA are the positions (from
// 1) of the first and last symbol of a in it; a block of gaps alone in a
// has FirstA = LastA = the position of the last symbol before it. The
// same for b.
type Block struct {
	FirstA, LastA, FirstB, LastB int
	Cols                         []Column
}

// Blocks lays out the edits of an alignment of a and b in blocks of
// width columns (the last one fewer). Edits that do not walk a and b to
// their ends, = on unequal symbols or X on equal ones, are an error
// naming where.
func Blocks(a, b []Cell, edits []Edit, width int) ([]Block, error) {
	if width < 1 {
		return nil, fmt.Errorf("alignview: width %d, want at least 1", width)
	}
	var out []Block
	var cur Block
	i, j := 0, 0
	for k, e := range edits {
		for range e.Len {
			var c Column
			switch {
			case (e.Op == Match || e.Op == Subst) && i < len(a) && j < len(b):
				if same := a[i].Sym == b[j].Sym; same != (e.Op == Match) {
					return nil, fmt.Errorf("alignview: run %d (%c) on symbols %d of a and %d of b, which are %s", k+1, e.Op, i+1, j+1, map[bool]string{true: "equal", false: "unequal"}[same])
				}
				c = Column{a[i], b[j], e.Op}
			case e.Op == Ins && i < len(a):
				c = Column{a[i], Gap, e.Op}
			case e.Op == Del && j < len(b):
				c = Column{Gap, b[j], e.Op}
			default:
				return nil, fmt.Errorf("alignview: run %d (%d%c) walks past the end of a (%d symbols) or b (%d)", k+1, e.Len, e.Op, len(a), len(b))
			}
			if len(cur.Cols) == 0 {
				cur.FirstA, cur.FirstB = i, j
			}
			cur.Cols = append(cur.Cols, c)
			if e.Op != Del {
				i++
			}
			if e.Op != Ins {
				j++
			}
			if len(cur.Cols) == width {
				out = append(out, cur.close(i, j))
				cur = Block{}
			}
		}
	}
	if i != len(a) || j != len(b) {
		return nil, fmt.Errorf("alignview: the edits stop at symbol %d of %d of a and %d of %d of b", i, len(a), j, len(b))
	}
	if len(cur.Cols) > 0 {
		out = append(out, cur.close(i, j))
	}
	return out, nil
}

// close sets the block's positions, i and j symbols of a and b written
// by its end (First holds those written before it until then).
func (bl Block) close(i, j int) Block {
	first := func(before, after int) int {
		if after > before {
			return before + 1
		}
		return before
	}
	bl.FirstA, bl.LastA = first(bl.FirstA, i), i
	bl.FirstB, bl.LastB = first(bl.FirstB, j), j
	return bl
}

// Lines returns the block as three lines of text: a's symbols, the marks
// and b's symbols, each column as wide as its wider symbol. The marks'
// line has no trailing spaces.
func (bl Block) Lines() (top, mid, bot string) {
	var t, m, b strings.Builder
	for _, c := range bl.Cols {
		w := max(c.A.Width, c.B.Width)
		t.WriteString(c.A.Text + strings.Repeat(" ", w-c.A.Width))
		m.WriteString(c.Mark() + strings.Repeat(" ", w-1))
		b.WriteString(c.B.Text + strings.Repeat(" ", w-c.B.Width))
	}
	return t.String(), strings.TrimRight(m.String(), " "), b.String()
}
