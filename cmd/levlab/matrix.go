package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/lev"
	"golang.org/x/term"
)

func matrixUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab matrix [--max K] [--top N] [--workers N] [--algo NAME] [--runes] FILE_A [FILE_B]

Prints the distances of many strings, one line per pair:

  I<TAB>J<TAB>D

I and J count from 1: the line (or FASTA record) of FILE_A and of FILE_B.
With FILE_B, every string of FILE_A against every string of FILE_B (I, then
J); without it, every pair I < J of FILE_A. A file holds one string per
line (a \r before the \n is dropped; a last line without \n counts; an
empty line is the empty string), or, when it starts with '>', FASTA: one
string per record, its sequence lines joined, the header lines left out.
Strings are compared as bytes, or as UTF-8 text with --runes (then a file
that is not valid UTF-8 is an error naming it and its first bad byte).

--max K prints only the pairs within K edits, each pair stopping as soon
as it is past K; --top N prints, for each string of FILE_A, its N nearest
(by distance, then J; without FILE_B, among the other strings of FILE_A),
within --max K if given. Lines are written whole. On a terminal a progress
line goes to stderr; Ctrl-C (or SIGTERM) stops after the line in hand, with
what was printed kept whole, and exits 1.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nAlgorithms (--algo): those of levlab distance but cuda-diagonal and cuda-matrix;\nauto runs strings of up to 8192 symbols a pair a vector lane, and longer ones\nas levlab distance does.\n")
	fmt.Fprint(w, `
Exit status:
  0  every pair asked for was printed
  1  a file cannot be read or is over --max-input, a line is not UTF-8 with
     --runes, the strings need more memory than this process may use (said
     before any is cut), no usable GPU (cuda-fast), interrupted (Ctrl-C,
     SIGTERM), stdout cannot be written (the lines written stay whole)
  2  bad usage: an unknown flag or algorithm, not one or two files, --max
     below 0, --top below 1, workers outside 0..4096
`)
}

func runMatrix(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("matrix", stdout, matrixUsage)
	maxD := fs.Int("max", -1, "print only the pairs within `K` edits, K >= 0; unset: every pair")
	top := fs.Int("top", 0, "print each string's `N` nearest, N >= 1; unset: every pair")
	workers := fs.Int("workers", 0, "`N` goroutines over the pairs, 0..4096; 0: GOMAXPROCS")
	algoName := fs.String("algo", "auto", "algorithm `NAME` of each pair")
	runes := fs.Bool("runes", false, "compare the strings as UTF-8 text, rune by rune")
	maxInput := maxInputFlag(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usageErrorf("want FILE_A and at most FILE_B, got %d arguments: %s", len(pos), quoteAll(pos))
	}
	alg, err := lev.ParseAlgorithm(*algoName)
	if err != nil {
		return err
	}
	set := fs.given()
	opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(*workers)}
	if set["max"] {
		opts = append(opts, lev.WithMax(*maxD))
	}
	if set["top"] {
		opts = append(opts, lev.WithTop(*top))
	}
	limit, err := inputLimit(fs, maxInput)
	if err != nil {
		return err
	}
	// lev checks the options on an empty call, before a file is read.
	if err := lev.Cross(nil, nil, func(lev.Pair) error { return nil }, opts...); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	opts = append(opts, lev.WithContext(ctx))

	var sets [][][]byte
	var need, lines int64
	for i, path := range pos {
		data, err := readInput(ctx, path, limit, "--max-input")
		if err != nil {
			return err
		}
		// Known before the strings are cut: what they will take.
		n := int64(bytes.Count(data, []byte{'\n'}) + 1)
		need, lines = need+matrixMemory(n, int64(len(data)), *runes), lines+n
		if err := fitsMemory(fmt.Sprintf("%s (up to %d strings)", strings.Join(pos[:i+1], " with "), lines), need); err != nil {
			return err
		}
		strs := splitStrings(data)
		if *runes {
			if err := stringsUTF8(path, data); err != nil {
				return err
			}
		}
		sets = append(sets, strs)
	}
	a, b := sets[0], sets[0]
	if len(sets) == 2 {
		b = sets[1]
	}
	total := int64(len(a)) * int64(len(b))
	if len(sets) == 1 {
		total = int64(len(a)) * int64(len(a)-1) / 2
	}
	out := &lineWriter{w: stdout}
	prog := newPairProgress(stderr, len(a), total)
	defer prog.stop()
	emit := func(p lev.Pair) error {
		prog.done.Store(int64(p.I))
		return out.line(p)
	}
	switch {
	case *runes && len(sets) == 1:
		err = lev.AllStrings(asStrings(a), emit, opts...)
	case *runes:
		err = lev.CrossStrings(asStrings(a), asStrings(b), emit, opts...)
	case len(sets) == 1:
		err = lev.All(a, emit, opts...)
	default:
		err = lev.Cross(a, b, emit, opts...)
	}
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: the lines printed are whole; the rest was not computed", errInterrupted)
	}
	return err
}

// matrixMemory is about what matrix takes, beside a file's bytes, for a
// file of size bytes and at most n strings: a slice header, a row of
// results and its bookkeeping a string (bytes), and with runes a copy of
// the text, its rune codes and their narrowing. (Measured: 8 million
// empty lines took 813 MB, 1.4 GB with --runes.)
func matrixMemory(n, size int64, runes bool) int64 {
	if runes {
		return n*192 + size*7
	}
	return n * 112
}

// utf8BOM is the byte-order mark some editors put before UTF-8 text.
var utf8BOM = []byte("\xef\xbb\xbf")

// splitStrings cuts a file into its strings: one a line, or one a FASTA
// record when it starts with '>'.
func splitStrings(data []byte) [][]byte {
	// A byte-order mark marks the encoding: it is no part of the first
	// string, and must not hide a FASTA file's '>'.
	data = bytes.TrimPrefix(data, utf8BOM)
	lines := make([][]byte, 0, bytes.Count(data, []byte{'\n'})+1)
	for len(data) > 0 {
		line, rest, found := bytes.Cut(data, []byte{'\n'})
		if found {
			line = bytes.TrimSuffix(line, []byte{'\r'})
		}
		lines = append(lines, line)
		data = rest
	}
	if len(lines) == 0 || len(lines[0]) == 0 || lines[0][0] != '>' {
		return lines
	}
	var recs [][]byte
	for _, l := range lines {
		switch {
		case len(l) > 0 && l[0] == '>':
			recs = append(recs, []byte{})
		default:
			recs[len(recs)-1] = append(recs[len(recs)-1], l...)
		}
	}
	return recs
}

// stringsUTF8 returns an error naming path, the byte offset and the string
// of the first byte of a string that is not UTF-8 (FASTA header lines,
// which are no string, are not read).
func stringsUTF8(path string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	start := len(data) - len(bytes.TrimPrefix(data, utf8BOM))
	fasta := bytes.HasPrefix(data[start:], []byte{'>'})
	str := 0
	for off := start; off < len(data); {
		line, _, _ := bytes.Cut(data[off:], []byte{'\n'})
		header := fasta && bytes.HasPrefix(line, []byte{'>'})
		if header || !fasta {
			str++
		}
		if at := firstBadByte(line); at >= 0 && !header {
			return notUTF8(path, data, off+at, "string "+strconv.Itoa(str))
		}
		off += len(line) + 1
	}
	return nil
}

func asStrings(set [][]byte) []string {
	out := make([]string, len(set))
	for i, s := range set {
		out[i] = string(s)
	}
	return out
}

// lineWriter writes whole lines: it gathers them and writes in blocks that
// end at a line's end, so that an interrupted write never leaves half a
// line behind. A write that stops part-way (a full disk, a file-size
// limit) into a regular file is cut back to the last whole line it wrote;
// into a pipe, a write stops short only when the reader has gone.
type lineWriter struct {
	w   io.Writer
	buf []byte
}

func (l *lineWriter) line(p lev.Pair) error {
	l.buf = strconv.AppendInt(l.buf, int64(p.I)+1, 10)
	l.buf = append(l.buf, '\t')
	l.buf = strconv.AppendInt(l.buf, int64(p.J)+1, 10)
	l.buf = append(l.buf, '\t')
	l.buf = strconv.AppendInt(l.buf, int64(p.Distance), 10)
	l.buf = append(l.buf, '\n')
	if len(l.buf) >= 64<<10 {
		return l.flush()
	}
	return nil
}

func (l *lineWriter) flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	n, err := l.w.Write(l.buf)
	if err != nil && n > 0 && n < len(l.buf) {
		if torn := n - (bytes.LastIndexByte(l.buf[:n], '\n') + 1); torn > 0 {
			if cerr := cutBack(l.w, int64(torn)); cerr != nil {
				err = fmt.Errorf("%w; and the last line, written in part, could not be removed: %v", err, cerr)
			}
		}
	}
	l.buf = l.buf[:0]
	return err
}

// cutBack removes the last n bytes written to w, where w is (or wraps) a
// regular file: those of a line written in part.
func cutBack(w io.Writer, n int64) error {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return err
	}
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	return f.Truncate(end - n)
}

// pairProgress draws, on a terminal and for a million pairs or more, the
// string of FILE_A being printed every half second.
type pairProgress struct {
	done  atomic.Int64
	quit  chan struct{}
	ended chan struct{}
}

func newPairProgress(stderr io.Writer, strings int, pairs int64) *pairProgress {
	p := &pairProgress{quit: make(chan struct{}), ended: make(chan struct{})}
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || pairs < 1_000_000 {
		close(p.ended)
		return p
	}
	go func() {
		defer close(p.ended)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		start := time.Now()
		for {
			select {
			case <-p.quit:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(f, "\rmatrix: string %d of %d, %s", p.done.Load()+1, strings, time.Since(start).Round(time.Second))
			}
		}
	}()
	return p
}

func (p *pairProgress) stop() {
	select {
	case <-p.ended:
	default:
		close(p.quit)
		<-p.ended
	}
}
