package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/matrixshard"
	"github.com/levlab/levlab/internal/mpi"
	"github.com/levlab/levlab/lev"
	"golang.org/x/term"
)

func matrixUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab matrix [--max K] [--top N] [--workers N] [--algo NAME] [--runes] [--names] [--json] FILE_A [FILE_B]
  levlab matrix (--shard I/N | --shards N) --out DIR [flags] FILE_A [FILE_B]

Prints the distances of many strings, one line per pair:

  I<TAB>J<TAB>D

I and J count from 1: the line (or FASTA record) of FILE_A and of FILE_B.
--names prints the strings' names instead, NAME_I<TAB>NAME_J<TAB>D: a
line's string itself, a FASTA record's header (after '>'); a tab in a
name is written \t, a backslash \\, a carriage return \r. --json prints
one JSON object a line instead (JSON Lines): {"i":I,"j":J,"distance":D},
with "a" and "b", the names, under --names (a byte that is not UTF-8
reads U+FFFD there).
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
within --max K if given. Lines are written whole.

In shards, over machines: --shard I/N (I from 0) computes the I-th of N
runs of FILE_A's strings, cut where the pairs' cells (the sum of |a|·|b|)
come to an N-th each, so that shards of skewed lengths take about as long,
and writes its lines, as one process writes them, to DIR/matrix-I-of-N.shard
with a first line naming the files' SHA-256, the flags and levlab, and a
last line saying what it holds (written whole or not at all; a shard run
again replaces its file). --shards N takes I from SLURM_ARRAY_TASK_ID (a
Slurm job array: sbatch --array=0-N-1) or JOB_COMPLETION_INDEX (a
Kubernetes Indexed Job). levlab merge DIR then writes exactly what one
process writes.

Under mpirun (levlab built with -tags mpi: make build-mpi), the ranks
take FILE_A's strings in bands cut the same way, 8 a rank, one at a time
from rank 0 as each finishes the last; each computes its bands into a
temporary file, and rank 0 prints them in order, exactly what one
process prints. Every rank must read the same files (their SHA-256 is
checked against rank 0's); a failure or Ctrl-C on any rank ends every
rank before a line is printed, the message said once. On a terminal a progress
line goes to stderr; Ctrl-C (or SIGTERM) stops after the line in hand, with
what was printed kept whole, and exits 1.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nAlgorithms (--algo): those of levlab distance but cuda-diagonal and cuda-matrix;\nauto runs strings of up to 8192 symbols a pair a vector lane, and longer ones\nas levlab distance does; cuda-fast runs every pair as one job on the GPU, the\nstrings uploaded once and the pairs computed a warp each, in tiles of about\na million pairs printed as they come.\n")
	fmt.Fprint(w, `
Exit status:
  0  every pair asked for was printed
  1  a file cannot be read or is over --max-input, a line is not UTF-8 with
     --runes, the strings and the rows of results the workers hold need
     more memory than this process may use (said before any is cut), no
     usable GPU (cuda-fast), interrupted (Ctrl-C, SIGTERM), stdout cannot
     be written (the lines written stay whole)
  2  bad usage: an unknown flag or algorithm, not one or two files, --max
     below 0, --top below 1, workers outside 0..4096, a shard out of range,
     --shards without a scheduler's index, --out without a shard
`)
}

func runMatrix(args []string, stdout, stderr io.Writer) error {
	parse := func(ctx context.Context, args []string, stdout io.Writer, ranks int) (*matrixJob, error) {
		m, err := parseMatrix(ctx, args, stdout)
		if err == nil && ranks > 1 && m.sharded {
			err = usageErrorf("--shard and --shards split the pairs over batch jobs, mpirun over ranks: give one of them")
		}
		return m, err
	}
	return overRanks("matrix", true, args, stdout, stderr, parse, func(ctx context.Context, c mpi.Comm, m *matrixJob, stdout io.Writer) error {
		switch {
		case c.Size() > 1:
			return m.overRanks(ctx, c, stdout)
		case m.sharded:
			return m.writeShard(ctx, stderr)
		}
		return m.print(stdout, stderr)
	})
}

// matrixJob is a matrix run as its flags and files make it.
type matrixJob struct {
	pos      []string // the files' paths
	files    [][]byte // their bytes
	a, b     [][]byte // the strings; b is a without FILE_B
	tri      bool     // no FILE_B: the pairs of one set
	opts     []lev.Option
	work     matrixWork
	algoName string
	runes    bool
	names    [2][][]byte // with --names, else nil
	asJSON   bool
	sharded  bool
	sh       taskShard
	outDir   string
}

// parseMatrix reads the flags and the files and cuts the strings, every
// check made before a pair is computed.
func parseMatrix(ctx context.Context, args []string, stdout io.Writer) (*matrixJob, error) {
	fs := newFlagSet("matrix", stdout, matrixUsage)
	maxD := fs.Int("max", -1, "print only the pairs within `K` edits, K >= 0; unset: every pair")
	top := fs.Int("top", 0, "print each string's `N` nearest, N >= 1; unset: every pair")
	workers := fs.Int("workers", 0, "`N` goroutines over the pairs, 0..4096; 0: GOMAXPROCS")
	algoName := fs.String("algo", "auto", "algorithm `NAME` of each pair")
	runes := fs.Bool("runes", false, "compare the strings as UTF-8 text, rune by rune")
	names := fs.Bool("names", false, "print the strings' names (a line itself, a FASTA header) instead of their numbers")
	asJSON := fs.Bool("json", false, "print one JSON object a pair (JSON Lines) instead of tab-separated lines")
	shardSpec := fs.String("shard", "", "compute shard `I/N` of the pairs (I from 0) into a file of --out DIR; levlab merge DIR joins the shards")
	shards := fs.Int("shards", 0, "compute one of `N` shards, the index from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")
	outDir := fs.String("out", "", "with --shard or --shards: the `DIR` the shard's file goes in")
	maxInput := maxInputFlag(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return nil, err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return nil, usageErrorf("want FILE_A and at most FILE_B, got %d arguments: %s", len(pos), quoteAll(pos))
	}
	alg, err := lev.ParseAlgorithm(*algoName)
	if err != nil {
		return nil, err
	}
	set := fs.given()
	m := &matrixJob{pos: pos, algoName: *algoName, runes: *runes, asJSON: *asJSON, outDir: *outDir}
	if m.sh, m.sharded, err = parseShard(*shardSpec, *shards, set["shards"]); err != nil {
		return nil, err
	}
	if m.sharded && m.sh.Count > matrixshard.MaxShards {
		return nil, usageErrorf("shard %d/%d: want N from 1 to %d, the most shards levlab merge joins", m.sh.Index, m.sh.Count, matrixshard.MaxShards)
	}
	switch {
	case m.sharded && *outDir == "":
		return nil, usageErrorf("--shard and --shards write a file: give --out DIR, the folder for it")
	case !m.sharded && *outDir != "":
		return nil, usageErrorf("--out %s: the folder of a shard's file; give --shard I/N or --shards N (without them the pairs go to stdout)", *outDir)
	}
	m.opts = []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(*workers)}
	if set["max"] {
		m.opts = append(m.opts, lev.WithMax(*maxD))
	}
	if set["top"] {
		m.opts = append(m.opts, lev.WithTop(*top))
	}
	limit, err := inputLimit(fs, maxInput)
	if err != nil {
		return nil, err
	}
	// lev checks the options on an empty call, before a file is read.
	if err := lev.Cross(nil, nil, func(lev.Pair) error { return nil }, m.opts...); err != nil {
		return nil, err
	}
	m.opts = append(m.opts, lev.WithContext(ctx))

	for _, path := range pos {
		data, err := readInput(ctx, path, limit, "--max-input")
		if err != nil {
			return nil, err
		}
		m.files = append(m.files, data)
	}
	// Known before the strings are cut: what they, and the rows of
	// results the workers hold, will take.
	work := matrixWork{cross: len(m.files) == 2, workers: *workers, top: *top, maxD: *maxD, runes: *runes, cuda: alg == lev.CUDAFast}
	if work.workers == 0 {
		work.workers = runtime.GOMAXPROCS(0)
	}
	if !set["top"] {
		work.top = 0
	}
	if !set["max"] {
		work.maxD = -1
	}
	for i, data := range m.files {
		work.files[i] = measureStrings(data)
	}
	if err := fitsMemory(work.String(pos), matrixMemory(work)); err != nil {
		return nil, fmt.Errorf("%w; each worker holds a row of results, %d bytes a string of %s, and lev keeps up to %d rows a worker ready: fewer --workers, --top N or --max K need less",
			err, pairBytes, pos[len(pos)-1], pairsAhead)
	}
	m.work = work
	var sets [][][]byte
	for i, path := range pos {
		strs := splitStrings(m.files[i])
		if *runes {
			if err := stringsUTF8(path, m.files[i]); err != nil {
				return nil, err
			}
		}
		sets = append(sets, strs)
	}
	m.a, m.b, m.tri = sets[0], sets[0], len(sets) == 1
	if !m.tri {
		m.b = sets[1]
	}
	if *names {
		m.names[0], m.names[1] = namesOf(m.files[0], sets[0]), namesOf(m.files[len(m.files)-1], m.b)
	}
	return m, nil
}

// writer returns the run's line writer onto w.
func (m *matrixJob) writer(w io.Writer) *pairWriter {
	return &pairWriter{lineWriter: lineWriter{w: w}, json: m.asJSON, names: m.names}
}

// matrix is the job's pairs, for matrixshard to split and compute.
func (m *matrixJob) matrix() matrixshard.Matrix {
	return matrixshard.Matrix{A: m.a, B: m.b, Tri: m.tri, Top: m.work.top, Pairs: m.pairs}
}

// pairs runs lev's Cross (y given) or All (y nil) over x and y, as bytes
// or runes, with the run's options and extra ones.
func (m *matrixJob) pairs(x, y [][]byte, fn func(lev.Pair) error, extra ...lev.Option) error {
	o := append(append([]lev.Option(nil), m.opts...), extra...)
	switch {
	case m.runes && y == nil:
		return lev.AllStrings(asStrings(x), fn, o...)
	case m.runes:
		return lev.CrossStrings(asStrings(x), asStrings(y), fn, o...)
	case y == nil:
		return lev.All(x, fn, o...)
	}
	return lev.Cross(x, y, fn, o...)
}

// print writes every pair asked for to stdout, one process.
func (m *matrixJob) print(stdout, stderr io.Writer) error {
	total := int64(len(m.a)) * int64(len(m.b))
	if m.tri {
		total = int64(len(m.a)) * int64(len(m.a)-1) / 2
	}
	out := m.writer(stdout)
	prog := newPairProgress(stderr, len(m.a), total)
	defer prog.stop()
	emit := func(p lev.Pair) error {
		prog.done.Store(int64(p.I))
		return out.line(p)
	}
	var err error
	if m.tri {
		err = m.pairs(m.a, nil, emit)
	} else {
		err = m.pairs(m.a, m.b, emit)
	}
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: the lines printed are whole; the rest was not computed", errInterrupted)
	}
	return err
}

// writeShard computes the job's shard into its file in --out.
func (m *matrixJob) writeShard(ctx context.Context, stderr io.Writer) error {
	sh, mx := m.sh, m.matrix()
	from, to := mx.Rows(matrixshard.Shard(sh))
	h := matrixshard.NewHeader(matrixshard.Shard(sh), from, to, len(m.a), m.pos, m.files, matrixOptions(m.algoName, m.work, m.runes, m.names[0] != nil, m.asJSON))
	if p := matrixshard.FolderProblem(m.outDir); p != "" {
		return fmt.Errorf("--out %s %s; want a folder for the shard's file (make the folder first)", m.outDir, p)
	}
	path, err := matrixshard.Write(m.outDir, h, func(w io.Writer) error {
		out := m.writer(w)
		if err := mx.Run(ctx, from, to, out.line); err != nil {
			return err
		}
		return out.flush()
	})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: no file of shard %d/%d was written", errInterrupted, sh.Index, sh.Count)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "matrix: shard %d/%d (strings %d to %d of %d) written to %s\n", sh.Index, sh.Count, min(from+1, to), to, len(m.a), path)
	return nil
}

// matrixOptions names the flags that shape a run's output, for a shard's
// header: shards of one run must agree on them.
func matrixOptions(algo string, w matrixWork, runes, names, asJSON bool) string {
	o := []string{"--algo " + algo}
	if w.maxD >= 0 {
		o = append(o, fmt.Sprintf("--max %d", w.maxD))
	}
	if w.top > 0 {
		o = append(o, fmt.Sprintf("--top %d", w.top))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{runes, "--runes"}, {names, "--names"}, {asJSON, "--json"}} {
		if f.on {
			o = append(o, f.name)
		}
	}
	return strings.Join(o, " ")
}

// stringsShape is what the memory of a file's strings depends on.
type stringsShape struct {
	strs    int64 // strings: lines, or FASTA records
	lines   int64
	size    int64 // bytes
	longest int64 // bytes of its longest string, at most
	fasta   bool
}

// measureStrings returns the shape of a file's strings, read as
// splitStrings reads them, without cutting them.
func measureStrings(data []byte) stringsShape {
	data = bytes.TrimPrefix(data, utf8BOM)
	sh := stringsShape{size: int64(len(data)), fasta: bytes.HasPrefix(data, []byte{'>'})}
	var rec int64 // the bytes of the FASTA record so far
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		sh.lines++
		switch {
		case !sh.fasta:
			sh.strs++
			sh.longest = max(sh.longest, int64(len(line)))
		case len(line) > 0 && line[0] == '>':
			sh.strs++
			rec = 0
		default:
			rec += int64(len(line))
			sh.longest = max(sh.longest, rec)
		}
		data = rest
	}
	return sh
}

// matrixWork is what the memory of a matrix run depends on.
type matrixWork struct {
	files   [2]stringsShape // FILE_A's and FILE_B's
	cross   bool            // FILE_B given: FILE_A against it, not every pair of FILE_A
	workers int
	top     int // 0: every pair
	maxD    int // -1: no cap
	runes   bool
	cuda    bool
}

// String names the work for an error message: the files, their strings,
// the pairs asked for and the workers.
func (w matrixWork) String(paths []string) string {
	what := fmt.Sprintf("%s (up to %d strings)", paths[0], w.files[0].strs)
	if w.cross {
		what += fmt.Sprintf(" against %s (up to %d)", paths[1], w.files[1].strs)
	}
	pairs := "every pair"
	switch {
	case w.top > 0:
		pairs = fmt.Sprintf("the %d nearest of each", w.top)
	case w.maxD >= 0:
		pairs = fmt.Sprintf("the pairs within %d", w.maxD)
	}
	return fmt.Sprintf("%s, %s on %d workers,", what, pairs, w.workers)
}

// What lev's many-pairs pipeline holds (lev/pairs.go): a Pair is three
// ints; a worker gathers its query's row in a buffer as long as FILE_B,
// and up to pairsWindow (4) rows a worker wait, ready, beside the one
// being printed.
const (
	pairBytes  = 24
	pairsAhead = 4
)

// matrixMemory returns about the most a matrix run allocates beside its
// files' bytes — but for the rows under --max K below the longest string:
// those hold the pairs within K alone, which no count made before tells,
// and are counted empty:
//
//   - a slice header a string, and for FASTA its record's bytes joined
//     (grown by append: up to twice the file);
//   - with --runes a copy of each string, its rune codes (4 bytes a rune)
//     and their narrowing to bytes (1 a rune), and three headers a string;
//   - lev's bookkeeping a query (a row's header and a flag);
//   - each worker's buffer of a row as long as FILE_B, and the rows ready
//     ahead of the one printed: up to pairsAhead a worker, plus that one,
//     each of the pairs it keeps (all of them without --max and --top);
//   - the garbage collector's headroom: it lets the heap grow to twice
//     what is live before it collects, and the rows printed, and a query's
//     match table (2 KiB a 64 symbols), are garbage, so the heap reaches
//     that where they add up to as much.
//
// Measured against this (VmHWM, bytes mode): a million empty lines on two
// workers, every pair, 562 MiB for 598 counted; with --top 1 80 MiB for
// 115; 300,000 lines of 8 bytes with --max 0, 20 MiB after 8 s (the
// garbage not yet grown) for 58 counted.
func matrixMemory(w matrixWork) int64 {
	a, b := w.files[0], w.files[1]
	nA := a.strs
	targets, bufLen := b.strs, b.strs // a row's pairs, a worker's buffer
	longest := max(a.longest, b.longest)
	if !w.cross { // every pair of FILE_A
		targets, bufLen = max(nA-1, 0), nA
	}
	live := int64(0)
	for _, f := range w.files {
		live += 24 * f.lines
		if f.fasta {
			live += 48*f.strs + 2*f.size
		}
		if w.runes {
			live += 64*f.strs + 6*f.size
		}
	}
	live += 25 * nA
	kept := targets
	if w.maxD >= 0 && int64(w.maxD) < longest {
		kept = 0 // only the pairs within K: unknown before
	}
	if w.top > 0 {
		kept = min(targets, int64(w.top))
	}
	workers := min(int64(w.workers), max(nA, 1))
	ahead := min(int64(w.workers)*pairsAhead, nA) + 1
	live += pairBytes * (workers*bufLen + ahead*kept)
	if w.cuda {
		// One job on the GPU (cudaext.Pairs): every string's codes (4
		// bytes a symbol), its match table (up to 256 codes, a bit a row
		// in bands of 1,024 rows, built in 64-bit words and copied to
		// 32-bit ones: at most 1.5 GiB, past which lev sends a query's
		// pairs at a time, a batch each) and a tile of distances.
		syms, strs := a.size, nA
		if w.cross {
			syms, strs = syms+b.size, strs+b.strs
		}
		live += 4*syms + 20*strs + min(256*32*12*(syms/1024+strs), 3<<29) + 4*cudaext.TilePairs
		live += 64 * workers * targets // a query's batch: its pairs' slices and results
	}
	// Garbage over the run: each row printed, each query's match table.
	churn := nA * (pairBytes*kept + 2048*max(1, (min(longest, 8192)+63)/64))
	return live + min(live+a.size+b.size, churn)
}

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

// namesOf returns the names of the strings of a file: the strings
// themselves, or, for FASTA, each record's header without its '>' (and a
// \r before its \n).
func namesOf(data []byte, strs [][]byte) [][]byte {
	data = bytes.TrimPrefix(data, utf8BOM)
	if !bytes.HasPrefix(data, []byte{'>'}) {
		return strs
	}
	names := make([][]byte, 0, len(strs))
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		if len(line) > 0 && line[0] == '>' {
			names = append(names, bytes.TrimSuffix(line[1:], []byte{'\r'}))
		}
		data = rest
	}
	return names
}

// appendTSV appends a name as a field of a tab-separated line: a tab, a
// carriage return and a backslash escaped (\t, \r, \\), as in the
// linear TSV convention, so that the field ends at the next tab.
func appendTSV(buf, name []byte) []byte {
	for _, c := range name {
		switch c {
		case '\t':
			buf = append(buf, '\\', 't')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\\':
			buf = append(buf, '\\', '\\')
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// appendJSONString appends name as a JSON string (encoding/json's
// escaping: a byte that is not UTF-8 becomes U+FFFD).
func appendJSONString(buf, name []byte) []byte {
	q, _ := json.Marshal(string(name)) // a string always marshals
	return append(buf, q...)
}

func asStrings(set [][]byte) []string {
	out := make([]string, len(set))
	for i, s := range set {
		out[i] = string(s)
	}
	return out
}

// pairWriter writes a matrix's pairs, a line each, whole (lineWriter):
// I<TAB>J<TAB>D, with --names the names instead of I and J, with --json
// a JSON object.
type pairWriter struct {
	lineWriter
	names [2][][]byte // with --names: FILE_A's and FILE_B's names, else nil
	json  bool        // JSON Lines rather than tab-separated
}

func (l *pairWriter) line(p lev.Pair) error {
	switch {
	case l.json:
		l.buf = append(l.buf, `{"i":`...)
		l.buf = strconv.AppendInt(l.buf, int64(p.I)+1, 10)
		l.buf = append(l.buf, `,"j":`...)
		l.buf = strconv.AppendInt(l.buf, int64(p.J)+1, 10)
		l.buf = append(l.buf, `,"distance":`...)
		l.buf = strconv.AppendInt(l.buf, int64(p.Distance), 10)
		if l.names[0] != nil {
			l.buf = append(l.buf, `,"a":`...)
			l.buf = appendJSONString(l.buf, l.names[0][p.I])
			l.buf = append(l.buf, `,"b":`...)
			l.buf = appendJSONString(l.buf, l.names[1][p.J])
		}
		l.buf = append(l.buf, '}')
	case l.names[0] != nil:
		l.buf = appendTSV(l.buf, l.names[0][p.I])
		l.buf = append(l.buf, '\t')
		l.buf = appendTSV(l.buf, l.names[1][p.J])
		l.buf = append(l.buf, '\t')
		l.buf = strconv.AppendInt(l.buf, int64(p.Distance), 10)
	default:
		l.buf = strconv.AppendInt(l.buf, int64(p.I)+1, 10)
		l.buf = append(l.buf, '\t')
		l.buf = strconv.AppendInt(l.buf, int64(p.J)+1, 10)
		l.buf = append(l.buf, '\t')
		l.buf = strconv.AppendInt(l.buf, int64(p.Distance), 10)
	}
	return l.endLine()
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
