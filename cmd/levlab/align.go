package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/internal/alignview"
	"github.com/levlab/levlab/internal/sysmem"
	"github.com/levlab/levlab/lev"
)

func alignUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab align [flags] A B
  levlab align --files [--runes] [flags] FILE_A FILE_B

Prints an optimal alignment of A and B: which edits take A to B, found in
memory linear in their lengths. The inputs are read as levlab distance
reads them: literal arguments as text, rune by rune; files as raw bytes, or
as UTF-8 text with --runes (then a file that is not valid UTF-8 is an error
naming where). Flags may come before or after the arguments; put -- before
an argument that begins with '-'.

--format cigar (the default) prints one line, DISTANCE<TAB>CIGAR: an
extended CIGAR with A as the query, = a match, X a substitution, I a symbol
of A only, D a symbol of B only ("levlab align kitten sitting" prints
3<TAB>1X3=1X1=1D; two empty inputs an empty CIGAR).

--format pretty prints it for people: a line of counts (matches,
substitutions, the symbols only in A and those only in B), then blocks of 60
columns, each A's line, a line with | under a match and . under a
substitution, and B's line, a gap drawn as - and each line's first and last
positions (from 1) beside it; a byte or rune that does not print (a control
character, a byte past ASCII, a mark of no width) is drawn as ·.

--format json prints one object: unit (bytes or runes), len_a, len_b,
distance, max (with --max), cigar, matches, substitutions, insertions (the
CIGAR's I: symbols only in A), deletions (D: only in B), workers and
seconds (the alignment alone, not reading files).

--max K caps the distance: past K it prints K+1 and the CIGAR * (null in
json, a line saying so in pretty), found in the band of cost K without
aligning.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  the alignment was printed
  1  a file cannot be read, is over --max-input or is not UTF-8 with
     --runes, the alignment may need more memory than this process may use
     (about 48 bytes a symbol at most, said before it starts), interrupted
     (Ctrl-C, SIGTERM), stdout cannot be written
  2  bad usage: an unknown flag or format, not two arguments, --max below 0,
     workers outside 0..4096, --runes without --files
`)
}

// alignFormats are the values of align's --format.
var alignFormats = []string{"cigar", "pretty", "json"}

// alignResult is align's --format json.
type alignResult struct {
	Unit          string  `json:"unit"`
	LenA          int     `json:"len_a"`
	LenB          int     `json:"len_b"`
	Distance      int     `json:"distance"`
	Max           *int    `json:"max,omitempty"` // --max K: distance is K+1 and cigar null when more than K
	CIGAR         *string `json:"cigar"`
	Matches       int     `json:"matches"`
	Substitutions int     `json:"substitutions"`
	Insertions    int     `json:"insertions"`
	Deletions     int     `json:"deletions"`
	Workers       int     `json:"workers"`
	Seconds       float64 `json:"seconds"`
}

func runAlign(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("align", stdout, alignUsage)
	format := fs.String("format", "cigar", "output `FORMAT`: "+strings.Join(alignFormats, ", "))
	maxD := fs.Int("max", 0, "cap the distance at `K` >= 0: past it K+1 is printed and no alignment")
	workers := fs.Int("workers", 0, "`N` goroutines, 0..4096; 0: GOMAXPROCS")
	files := fs.Bool("files", false, "A and B name files, compared as raw bytes")
	runes := fs.Bool("runes", false, "with --files, compare the files as UTF-8 text (literal arguments always are)")
	maxInput := maxInputFlag(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErrorf("want two arguments A B, got %d: %s", len(pos), quoteAll(pos))
	}
	if !knownFormat(*format) {
		return usageErrorf("--format %q: want one of %s", *format, strings.Join(alignFormats, ", "))
	}
	set := fs.given()
	if set["runes"] && !*files {
		return usageErrorf("--runes compares files as UTF-8 text and needs --files; literal arguments are always compared as text")
	}
	ctx, stop := interruptContext()
	defer stop()
	var stats lev.Stats
	opts := []lev.Option{lev.WithWorkers(*workers), lev.WithContext(ctx), lev.WithStats(&stats)}
	res := alignResult{}
	if set["max"] {
		opts = append(opts, lev.WithMax(*maxD))
		res.Max = maxD
	}
	// lev checks the options on an empty call, before a file is read.
	if _, err := lev.Align(nil, nil, opts...); err != nil {
		return err
	}
	inputMax, err := inputLimit(fs, maxInput)
	if err != nil {
		return err
	}

	var a, b []byte
	text := !*files || *runes
	if *files {
		if a, err = readInput(ctx, pos[0], inputMax, "--max-input"); err != nil {
			return err
		}
		if b, err = readInput(ctx, pos[1], inputMax, "--max-input"); err != nil {
			return err
		}
		if *runes {
			if err := validUTF8(pos[0], a); err != nil {
				return err
			}
			if err := validUTF8(pos[1], b); err != nil {
				return err
			}
		}
	} else {
		a, b = []byte(pos[0]), []byte(pos[1])
	}
	if err := fitsMemory(fmt.Sprintf("an alignment of inputs of %s and %s", sysmem.Size(len(a)), sysmem.Size(len(b))), alignMemory(len(a), len(b))); err != nil {
		return fmt.Errorf("%w (levlab distance computes the distance alone in O(n))", err)
	}
	res.Unit, res.LenA, res.LenB = "bytes", len(a), len(b)
	if text {
		res.Unit, res.LenA, res.LenB = "runes", utf8.RuneCount(a), utf8.RuneCount(b)
	}

	start := time.Now()
	var al lev.Alignment
	if text {
		al, err = lev.AlignString(string(a), string(b), opts...)
	} else {
		al, err = lev.Align(a, b, opts...)
	}
	elapsed := time.Since(start)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return fmt.Errorf("%w: %w", errInterrupted, err)
		}
		return err
	}
	res.Distance, res.Workers, res.Seconds = al.Distance, stats.Workers, elapsed.Seconds()
	aligned := al.Edits != nil
	if aligned {
		cigar := al.CIGAR()
		res.CIGAR = &cigar
		for _, e := range al.Edits {
			switch e.Op {
			case lev.OpMatch:
				res.Matches += e.Len
			case lev.OpSubst:
				res.Substitutions += e.Len
			case lev.OpIns:
				res.Insertions += e.Len
			case lev.OpDel:
				res.Deletions += e.Len
			}
		}
	}

	w := bufio.NewWriterSize(stdout, 64<<10)
	switch *format {
	case "cigar":
		fmt.Fprintf(w, "%d\t%s\n", al.Distance, al.CIGAR())
	case "json":
		out, err := json.Marshal(res)
		if err != nil {
			return err
		}
		w.Write(append(out, '\n'))
	case "pretty":
		if !aligned {
			fmt.Fprintf(w, "distance more than %d (--max %d): no alignment\n", *maxD, *maxD)
			break
		}
		// "Insertion" and "deletion" depend on which side is edited into
		// which; the sides themselves do not.
		fmt.Fprintf(w, "distance %d: %s, %s, %d only in A, %d only in B\n", al.Distance,
			plural(res.Matches, "match", "matches"), plural(res.Substitutions, "substitution", "substitutions"),
			res.Insertions, res.Deletions)
		if err := writePretty(w, a, b, text, al.Edits); err != nil {
			return err
		}
	}
	return w.Flush()
}

func knownFormat(f string) bool {
	for _, k := range alignFormats {
		if f == k {
			return true
		}
	}
	return false
}

// alignMemory is about the most an alignment of inputs of la and lb
// bytes takes: the columns of its levels and, for inputs that differ
// everywhere, an edit and a CIGAR run a few symbols. (Measured: 39 bytes a
// symbol for two random 1 MB inputs, 18 for two 2 MB ones 1% apart.)
func alignMemory(la, lb int) int64 { return 48 * (int64(la) + int64(lb)) }

// prettyWidth is how many alignment columns a block of pretty shows.
const prettyWidth = 60

// prettyPiece is how many columns writePretty lays out at a time: whole
// blocks, so that the pieces draw what the whole would, in memory bounded
// by a piece's cells and columns (some 100 bytes a column) rather than by
// the alignment's, which alignMemory does not count.
const prettyPiece = 1024 * prettyWidth

// writePretty writes the edits of a against b as blocks of prettyWidth
// columns: a's line, the marks, b's line, each with its first and last
// positions. a and b are drawn rune by rune where text, else byte by
// byte, a piece of prettyPiece columns at a time.
func writePretty(w *bufio.Writer, a, b []byte, text bool, edits []lev.Edit) error {
	cells, symbols := alignview.Bytes, func(s []byte) int { return len(s) }
	if text {
		cells = func(s []byte) []alignview.Cell { return alignview.Runes(string(s)) }
		symbols = utf8.RuneCount
	}
	digits := len(strconv.Itoa(max(symbols(a), symbols(b), 1)))
	var runs []alignview.Edit
	cols, drawn := 0, 0 // columns of the piece, and before it
	ai, bi := 0, 0      // symbols of a and b drawn before the piece
	ao, bo := 0, 0      // and their bytes
	piece := func() error {
		na, nb := 0, 0
		for _, r := range runs {
			if r.Op != byte(lev.OpDel) {
				na += r.Len
			}
			if r.Op != byte(lev.OpIns) {
				nb += r.Len
			}
		}
		ae, be := skipSymbols(a, ao, na, text), skipSymbols(b, bo, nb, text)
		blocks, err := alignview.Blocks(cells(a[ao:ae]), cells(b[bo:be]), runs, prettyWidth)
		if err != nil {
			return fmt.Errorf("the alignment's columns %d to %d: %w", drawn+1, drawn+cols, err)
		}
		for _, bl := range blocks {
			top, mid, bot := bl.Lines()
			fmt.Fprintf(w, "\nA %*d %s %d\n", digits, ai+bl.FirstA, top, ai+bl.LastA)
			fmt.Fprintf(w, "%s\n", strings.TrimRight(fmt.Sprintf("  %*s %s", digits, "", mid), " "))
			fmt.Fprintf(w, "B %*d %s %d\n", digits, bi+bl.FirstB, bot, bi+bl.LastB)
		}
		ai, bi, ao, bo = ai+na, bi+nb, ae, be
		runs, cols, drawn = runs[:0], 0, drawn+cols
		return nil
	}
	for _, e := range edits {
		for n := e.Len; n > 0; {
			take := min(n, prettyPiece-cols)
			runs = append(runs, alignview.Edit{Op: byte(e.Op), Len: take})
			cols, n = cols+take, n-take
			if cols == prettyPiece {
				if err := piece(); err != nil {
					return err
				}
			}
		}
	}
	if cols > 0 {
		if err := piece(); err != nil {
			return err
		}
	}
	if ao != len(a) || bo != len(b) {
		return fmt.Errorf("the alignment stops at symbol %d of a and %d of b, before their ends", ai, bi)
	}
	return nil
}

// skipSymbols returns the offset in s of the symbol n symbols after the
// one at byte off (or len(s) if s ends first): bytes, or runes where text,
// each invalid byte one, as lev.AlignString and alignview.Runes count
// them.
func skipSymbols(s []byte, off, n int, text bool) int {
	if !text {
		return min(off+n, len(s))
	}
	for ; n > 0 && off < len(s); n-- {
		_, size := utf8.DecodeRune(s[off:])
		off += size
	}
	return off
}
