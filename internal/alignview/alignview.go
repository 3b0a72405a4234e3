// Package alignview lays an alignment (lev.Alignment) out for people: the
// two sequences one above the other in blocks of a given width, a mark
// between them under each column (| a match, . a substitution, a space a
// gap), every symbol padded to the terminal width of the wider of its
// column. The command line's align --format pretty and the report's
// drawings share it.
package alignview

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/levlab/levlab/lev"
	"github.com/rivo/uniseg"
)

// A Cell is how one symbol is drawn: what prints and how many terminal
// columns it takes.
type Cell struct {
	Text  string
	Width int
}

var (
	// Gap stands in the sequence that lacks a symbol in a column.
	Gap = Cell{"-", 1}
	// NoPrint stands for a symbol that does not print: a control
	// character, a byte past ASCII, a mark of no width of its own.
	NoPrint = Cell{"·", 1}
)

// Bytes returns the cells of s compared byte by byte: printable ASCII as
// itself, any other byte as NoPrint.
func Bytes(s []byte) []Cell {
	out := make([]Cell, len(s))
	for i, c := range s {
		out[i] = NoPrint
		if c >= 0x20 && c < 0x7f {
			out[i] = Cell{string(rune(c)), 1}
		}
	}
	return out
}

// Runes returns the cells of s compared rune by rune, as
// lev.AlignString counts them: a printable rune as itself, two columns
// wide where a terminal draws it so (East Asian wide), any other as
// NoPrint.
func Runes(s string) []Cell {
	out := make([]Cell, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		c := NoPrint
		if unicode.IsPrint(r) {
			if w := uniseg.StringWidth(string(r)); w > 0 {
				c = Cell{string(r), w}
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
	Op   lev.Op
}

// Mark is what stands between the two symbols: | for a match, . for a
// substitution, a space for a gap.
func (c Column) Mark() string {
	switch c.Op {
	case lev.OpMatch:
		return "|"
	case lev.OpSubst:
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
// width columns (the last one fewer). The edits must walk a and b, as
// lev.Align's do.
func Blocks(a, b []Cell, edits []lev.Edit, width int) []Block {
	var out []Block
	var cur Block
	i, j := 0, 0
	add := func(c Column) {
		if len(cur.Cols) == 0 {
			cur.FirstA, cur.FirstB = i, j
		}
		cur.Cols = append(cur.Cols, c)
		switch c.Op {
		case lev.OpMatch, lev.OpSubst:
			i, j = i+1, j+1
		case lev.OpIns:
			i++
		case lev.OpDel:
			j++
		}
		if len(cur.Cols) == width {
			out = append(out, cur.close(i, j))
			cur = Block{}
		}
	}
	for _, e := range edits {
		for range e.Len {
			switch e.Op {
			case lev.OpMatch, lev.OpSubst:
				add(Column{a[i], b[j], e.Op})
			case lev.OpIns:
				add(Column{a[i], Gap, e.Op})
			case lev.OpDel:
				add(Column{Gap, b[j], e.Op})
			}
		}
	}
	if len(cur.Cols) > 0 {
		out = append(out, cur.close(i, j))
	}
	return out
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
