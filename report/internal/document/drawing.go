package document

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/levlab/levlab/internal/alignview"
)

// Drawing is an alignment drawn for people: its blocks of columns, under
// a caption that names the pair and gives its distance and CIGAR.
type Drawing struct {
	Caption string
	// Screen: an example the page shows and paper (HTML printed) leaves
	// out; Markdown and TeX keep it.
	Screen bool
	blocks []alignview.Block
}

// Lines returns the drawing as text, a block's three lines after another's
// with a blank line between; with ascii, a symbol that is not ASCII is
// drawn as a ? for each column it takes, so that the columns stay in step.
func (d *Drawing) Lines(ascii bool) []string {
	var out []string
	for i, b := range d.blocks {
		if i > 0 {
			out = append(out, "")
		}
		if ascii {
			b.Cols = slices.Clone(b.Cols)
			for k := range b.Cols {
				b.Cols[k].A, b.Cols[k].B = asciiCell(b.Cols[k].A), asciiCell(b.Cols[k].B)
			}
		}
		top, mid, bot := b.Lines()
		out = append(out, "A  "+top, "   "+mid, "B  "+bot)
	}
	return out
}

func asciiCell(c alignview.Cell) alignview.Cell {
	for _, r := range c.Text {
		if r >= utf8.RuneSelf {
			c.Text = strings.Repeat("?", c.Width)
			break
		}
	}
	return c
}

// DrawAlignment draws the alignment of a and b (compared rune by rune)
// that cigar, an extended CIGAR, says, in blocks of width columns; a CIGAR
// that is no alignment of a and b is an error naming why.
func DrawAlignment(what, a, b, cigar string, width int) (*Drawing, error) {
	edits, err := alignview.ParseCIGAR(cigar)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	blocks, err := alignview.Blocks(alignview.Runes(a), alignview.Runes(b), edits, width)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", what, err)
	}
	cost := 0
	for _, e := range edits {
		if e.Op != alignview.Match {
			cost += e.Len
		}
	}
	if what != "" {
		r, size := utf8.DecodeRuneInString(what)
		what = string(unicode.ToUpper(r)) + what[size:] + ", "
	}
	return &Drawing{Caption: fmt.Sprintf("%sA → B: distance %d, CIGAR %s", what, cost, cigar), blocks: blocks}, nil
}
