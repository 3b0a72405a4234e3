package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/levlab/levlab/internal/mpi"
	"github.com/levlab/levlab/internal/shard"
	"github.com/levlab/levlab/internal/sysmem"
	"github.com/levlab/levlab/match"
)

// matchAlgorithmSummaries describes each matching algorithm in one line for
// the usage text. A test checks that every match.Algorithms() entry has
// one.
var matchAlgorithmSummaries = map[match.Algorithm]string{
	match.Auto:  "apm-fast",
	match.Naive: "report 003's loop: a Levenshtein DP per position (window), Sellers' column DP (occurrence)",
	match.Fast:  "a filter on k+1 pieces of the pattern, then a bit-parallel Myers (1999) scan around its hits",
}

func printMatchAlgorithms(w io.Writer) {
	for _, a := range match.Algorithms() {
		fmt.Fprintf(w, "  %-10s %s\n", a, matchAlgorithmSummaries[a])
	}
}

func matchUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab match [-p PATTERN]... [--patterns FILE]... [flags] TEXTFILE
  mpirun -np R levlab match [flags] TEXTFILE     (a levlab built with -tags mpi)

Counts, for each pattern, the positions of TEXTFILE (raw bytes, nothing
stripped) where it matches with at most K edits (Levenshtein distance), and
prints one line per pattern, COUNT<TAB>PATTERN, in the order given: the -p
patterns first, in their order, then the lines of each --patterns FILE, file
by file. A pattern is printed as given, bytes unchanged; one that holds a
newline or a carriage return would break its line, so it needs --json.

--positions prints, instead of the counts, each match a line as it is
found, I<TAB>J: I the pattern's number (from 1, in the order above) and J
the position, a byte offset from 0 (where the window starts in window
mode, where the occurrence ends in occurrence mode), pattern after pattern,
each in ascending order. It runs in one process, on the CPU.

Modes:
  window      (default; report 003) a match starts at j: with size =
              min(len(P), len(TEXT)-j), P[:size] is within K of
              TEXT[j:j+size]
  occurrence  a match ends at j: some substring of TEXT ending at j is
              within K of P (Sellers; agrep)

--patterns FILE holds one pattern per line, as bytes: lines end at \n, a
\r before it is dropped (CRLF files), empty lines are skipped, spaces and
tabs are part of the pattern. A file with no pattern is an error. Each
input file is read up to --max-input bytes; a larger one is an error.

--json prints one JSON object instead: seconds (the counting alone, not
reading files; under MPI, from a barrier once every rank holds its part to
the counts summed on rank 0), mode, algo (as asked), k,
workers (per process; 0 given: GOMAXPROCS), gpu_ratio, ranks (MPI
processes; 1 without mpirun), text_bytes and counts, a list of
{"pattern", "count"} in the order of the lines (a pattern's bytes that
are not UTF-8 show as U+FFFD there; the lines print them unchanged).

MPI: a levlab built with -tags mpi and started by mpirun splits the text
into as many parts as ranks; rank 0 finds the text's length, and each rank
reads its own part from TEXTFILE (a regular file every rank can read) with
the shadow bytes its mode needs (window: len(longest)-1 after it;
occurrence: len(longest)+K-1 before it); each rank counts its positions
with --workers goroutines, and rank 0 sums the counts and prints exactly
what one process prints. Ranks of more than one worker need mpirun
--bind-to none (Open MPI binds a rank to one core by default). A levlab
built without MPI refuses to run under mpirun with more than one process.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nAlgorithms (--algo):\n")
	printMatchAlgorithms(w)
	fmt.Fprint(w, `
Exit status:
  0  the counts were printed
  1  the work failed: TEXTFILE or FILE cannot be read or is over
     --max-input, the patterns need more memory than this process may use
     (said before any is cut), a GPU share with no usable GPU, interrupted
     (Ctrl-C, SIGTERM), an MPI rank failed, stdout cannot be written
  2  bad usage: an unknown flag, not one TEXTFILE, no pattern, an empty
     pattern, a patterns file with no pattern, a pattern with a newline
     without --json, K < 0, an unknown mode or algorithm, a GPU ratio
     outside [0, 1] or above 0 in occurrence mode or with --positions,
     --positions with --json, workers out of range, --max-input < 1
`)
}

// patternList is the repeatable -p flag, and the repeatable --patterns.
type patternList []string

func (p *patternList) String() string { return strings.Join(*p, ",") }
func (p *patternList) Set(v string) error {
	if v == "" {
		return errors.New("an empty pattern matches everywhere; give at least one byte")
	}
	*p = append(*p, v)
	return nil
}

// matchJob is a parsed match command line.
type matchJob struct {
	patterns  [][]byte
	k         int
	mode      match.Mode
	algo      match.Algorithm
	workers   int
	ratio     float64
	asJSON    bool
	positions bool   // print each match's position rather than the counts
	text      string // the text file's path
	maxInput  int64  // bytes one input file may hold
}

// matchCount is one pattern's line of --json.
type matchCount struct {
	Pattern string `json:"pattern"`
	Count   int64  `json:"count"`
}

// matchResult is the --json output of match.
type matchResult struct {
	Seconds   float64      `json:"seconds"`
	Mode      string       `json:"mode"`
	Algo      string       `json:"algo"`
	K         int          `json:"k"`
	Workers   int          `json:"workers"`
	GPURatio  float64      `json:"gpu_ratio"`
	Ranks     int          `json:"ranks"`
	TextBytes int          `json:"text_bytes"`
	Counts    []matchCount `json:"counts"`
}

// parseMatch parses match's command line and reads the patterns files; it
// reads nothing else. ctx (Ctrl-C) ends a read that waits.
func parseMatch(ctx context.Context, args []string, stdout io.Writer) (*matchJob, error) {
	fs := newFlagSet("match", stdout, matchUsage)
	var given, files patternList
	fs.Var(&given, "p", "a `PATTERN` to count (repeatable; printed first, in order)")
	fs.Var(&files, "patterns", "`FILE` of patterns, one per line (repeatable; after the -p ones, file by file)")
	maxInput := maxInputFlag(fs)
	k := fs.Int("k", 0, "`K`, the most edits a match may take, >= 0")
	modeName := fs.String("mode", match.Window.String(), "`MODE`: window (a match starts at a position; report 003) or occurrence (ends at it)")
	algoName := fs.String("algo", match.Auto.String(), "algorithm `NAME` (listed below)")
	workers := fs.Int("workers", 0, "`N` goroutines per process; 0: GOMAXPROCS")
	ratio := fs.Float64("gpu-ratio", 0, "share `R` of the positions sent to the GPU, 0..1 (report 003's CUDA ratio; window mode only); 0: CPU only")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the lines")
	positions := fs.Bool("positions", false, "print each match's position, I<TAB>J a line (I the pattern's number from 1, J the byte offset from 0), instead of the counts")

	pos, err := fs.parse(args)
	if err != nil {
		return nil, err
	}
	if len(pos) != 1 {
		return nil, usageErrorf("want one argument TEXTFILE, got %d: %s", len(pos), quoteAll(pos))
	}
	if *k < 0 {
		return nil, usageErrorf("-k %d: want K >= 0 edits", *k)
	}
	if math.IsNaN(*ratio) || *ratio < 0 || *ratio > 1 {
		return nil, usageErrorf("--gpu-ratio %v: want a share of the positions between 0 and 1", *ratio)
	}
	switch {
	case *positions && *asJSON:
		return nil, usageErrorf("--positions with --json: the positions are lines, I<TAB>J; give one of the two")
	case *positions && *ratio > 0:
		return nil, usageErrorf("--positions with --gpu-ratio %v: positions are found on the CPU alone (ratio 0)", *ratio)
	}
	mode, err := match.ParseMode(*modeName)
	if err != nil {
		return nil, usageErrorf("--mode: %v", err)
	}
	algo, err := match.ParseAlgorithm(*algoName)
	if err != nil {
		return nil, usageErrorf("--algo: %v", err)
	}
	limit, err := inputLimit(fs, maxInput)
	if err != nil {
		return nil, err
	}
	if limit == 0 {
		limit = defaultMaxInput() // a text's size is set against it below
	}
	job := &matchJob{k: *k, mode: mode, algo: algo, workers: *workers, ratio: *ratio, asJSON: *asJSON, positions: *positions, text: pos[0], maxInput: limit}
	for i, p := range given {
		if !*asJSON && strings.ContainsAny(p, "\r\n") {
			return nil, usageErrorf("-p %q (pattern %d) holds a newline or carriage return, which would break its output line; use --json, whose output quotes it", p, i+1)
		}
		job.patterns = append(job.patterns, []byte(p))
	}
	var need int64
	for _, file := range files {
		fromFile, err := readPatterns(ctx, file, limit, func(n, size int) error {
			need += matchMemory(int64(n), int64(size), *asJSON)
			return fitsMemory(fmt.Sprintf("--patterns %s (up to %d patterns)", file, n), need)
		})
		if err != nil {
			return nil, err
		}
		job.patterns = append(job.patterns, fromFile...)
	}
	if len(job.patterns) == 0 {
		return nil, usageErrorf("no pattern: give -p PATTERN or --patterns FILE")
	}
	return job, nil
}

// readPatterns reads a patterns file: one pattern per line, a \r before
// the \n dropped, empty lines skipped. A file that cannot be read is a
// failure; one with no pattern is bad usage. Before the patterns are cut,
// fits is called with how many there are at most and the file's size: its
// error is returned.
func readPatterns(ctx context.Context, path string, limit int64, fits func(n, size int) error) ([][]byte, error) {
	data, err := readInput(ctx, path, limit, "--max-input")
	if err != nil {
		return nil, fmt.Errorf("--patterns: %w", err)
	}
	data = bytes.TrimPrefix(data, utf8BOM) // it marks the encoding, no pattern's part
	n := bytes.Count(data, []byte{'\n'}) + 1
	if err := fits(n, len(data)); err != nil {
		return nil, err
	}
	pats := make([][]byte, 0, n)
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > 0 {
			pats = append(pats, line)
		}
	}
	if len(pats) == 0 {
		return nil, usageErrorf("--patterns %s: no pattern in it (%d bytes; one pattern per line, empty lines skipped)", path, len(data))
	}
	return pats, nil
}

// matchMemory is about what match takes, beside a patterns file's bytes,
// for a file of size bytes and at most n patterns: a slice header and a
// count a pattern (match.Count holds the tables of a batch of patterns at
// a time), and with --json each pattern's copy, its count's entry and its
// output.
func matchMemory(n, size int64, asJSON bool) int64 {
	if asJSON {
		return n*160 + size*3
	}
	return n * 64
}

// matchBatch is how many patterns' tables match.Count holds at a time
// (its patternBatch): the batches reuse the tables of the one before.
const matchBatch = 1024

// fitsMemory returns fitsMemory's error when the text and what
// match.Count builds for the patterns would not fit in what this process
// may use. The text counts at its size where one process reads a regular
// file; a pipe, or a rank's part under MPI, is bounded by --max-input
// alone.
func (j *matchJob) fitsMemory(ranks int) error {
	workers := j.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	text := int64(0)
	if fi, err := os.Stat(j.text); err == nil && fi.Mode().IsRegular() && ranks == 1 {
		text = min(fi.Size(), j.maxInput)
	}
	need := text + matchTables(j.patterns, j.algo == match.Naive, workers)
	what := fmt.Sprintf("counting %d patterns of up to %s in %s", len(j.patterns), sysmem.Size(j.longest()), j.text)
	if text > 0 {
		what += " (" + sysmem.Size(text) + ")"
	}
	if err := fitsMemory(what, need); err != nil {
		return fmt.Errorf("%w; apm-fast's tables take 2 KiB for every 64 bytes of a pattern, %d patterns at a time", err, matchBatch)
	}
	return nil
}

// matchTables returns about the most match.Count holds beside the text
// and the patterns: with apm-fast, the tables of a batch of matchBatch
// patterns, in memory that each batch reuses (so for each place in a batch
// the largest of the patterns it takes): 2 KiB of match words for every
// 64 bytes of the pattern, 2 KiB more for a pattern of up to 64, and the
// q-gram filter's 8 KiB bitmap (9.25 KiB as allocated); with apm-naive a
// column of the DP, 8 bytes a pattern byte, a worker, grown anew for each
// chunk of the text (twice that: the garbage collector lets the heap
// grow to twice what is live); and, for every pattern, its count, summed
// over the batches (and the ranks under MPI). Patterns that Count scans in
// lanes take less than that: their match words alone, and about 1 KiB
// (2 KiB over 32 bytes) of the lanes' tables. (Measured: 16 patterns of
// 2 MB, 977 MiB counted, took 1018 MiB with the patterns' 32 MB.)
func matchTables(pats [][]byte, naive bool, workers int) int64 {
	need := int64(24 * len(pats))
	if naive {
		longest := 0
		for _, p := range pats {
			longest = max(longest, len(p))
		}
		return need + 2*int64(workers)*8*int64(longest+1)
	}
	var words [matchBatch]int64
	var short [matchBatch]bool
	for i, p := range pats {
		words[i%matchBatch] = max(words[i%matchBatch], int64(len(p)+63)/64)
		short[i%matchBatch] = short[i%matchBatch] || len(p) <= 64
	}
	for s := range min(len(pats), matchBatch) {
		need += 2048*words[s] + 9472 + 96
		if short[s] {
			need += 2048
		}
	}
	return need
}

// options are the lev options of a job, without a range.
func (j *matchJob) options(ctx context.Context) []match.Option {
	return []match.Option{
		match.WithMode(j.mode), match.WithAlgorithm(j.algo), match.WithWorkers(j.workers),
		match.WithGPURatio(j.ratio), match.WithContext(ctx),
	}
}

// longest is the length of the longest pattern.
func (j *matchJob) longest() int {
	m := 0
	for _, p := range j.patterns {
		m = max(m, len(p))
	}
	return m
}

// part returns the part of a text of n bytes that rank r of ranks counts.
func (j *matchJob) part(n, ranks, r int) (shard.Part, error) {
	if j.mode == match.Occurrence {
		return shard.Occurrence(n, ranks, r, j.longest(), j.k)
	}
	return shard.Window(n, ranks, r, j.longest())
}

func runMatch(args []string, stdout, stderr io.Writer) error {
	parse := func(ctx context.Context, args []string, stdout io.Writer, _ int) (*matchJob, error) {
		return parseMatch(ctx, args, stdout)
	}
	return overRanks("match", false, args, stdout, stderr, parse, runMatchJob)
}

// runMatchJob counts (or lists) the matches of job, over the ranks of c.
func runMatchJob(ctx context.Context, c mpi.Comm, job *matchJob, stdout io.Writer) error {
	var stats match.Stats
	opts := append(job.options(ctx), match.WithStats(&stats))
	// lev checks the options on every call, before looking at the text: an
	// empty one reports a bad value before the text is read. One pattern
	// will do (none is empty: parseMatch refuses those), where every one
	// would build every pattern's tables.
	_, err := match.Count(nil, job.patterns[:1], job.k, opts...)
	if err := c.Agree(err); err != nil {
		return err
	}
	// Known before the text is read and the tables are built: what they
	// will take.
	if err := c.Agree(job.fitsMemory(c.Size())); err != nil {
		return err
	}

	// One process reads the whole text; under MPI every rank reads its own
	// part, once rank 0 has said how long the text is.
	mine, part, n, err := readText(ctx, c, job)
	if err != nil {
		return err // agreed between the ranks already
	}
	if c.Size() > 1 {
		opts = append(opts, match.WithRange(part.From, part.To))
	}
	if job.positions {
		if c.Size() > 1 {
			return c.Agree(errors.New("--positions runs in one process: start it without mpirun, or count under mpirun without --positions"))
		}
		return printPositions(ctx, stdout, job, mine, opts)
	}

	c.Barrier() // every rank holds its part: the clock starts together
	start := time.Now()
	counts, err := match.Count(mine, job.patterns, job.k, opts...)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = fmt.Errorf("%w: %w", errInterrupted, err)
	}
	if err := c.Agree(err); err != nil {
		return err
	}
	counts, err = c.Sum(counts)
	if err := c.Agree(err); err != nil {
		return err
	}
	elapsed := time.Since(start)
	if c.Rank() != 0 {
		return nil
	}
	return printCounts(stdout, job, counts, matchResult{
		Seconds: elapsed.Seconds(), Workers: stats.Workers, Ranks: c.Size(), TextBytes: n,
	})
}

// printPositions prints, pattern by pattern in order, each position where
// it matches, "I<TAB>J" a line as match.Positions finds them; lines are
// written whole.
func printPositions(ctx context.Context, stdout io.Writer, job *matchJob, text []byte, opts []match.Option) error {
	out := &lineWriter{w: stdout}
	var err error
	for i, p := range job.patterns {
		err = match.Positions(text, p, job.k, func(j int) error {
			out.buf = strconv.AppendInt(out.buf, int64(i)+1, 10)
			out.buf = append(out.buf, '\t')
			out.buf = strconv.AppendInt(out.buf, int64(j), 10)
			return out.endLine()
		}, opts...)
		if err != nil {
			break
		}
	}
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = fmt.Errorf("%w: the lines printed are whole; the rest was not searched", errInterrupted)
	}
	return err
}

// readText returns the bytes of the text this process counts, the part of
// the text they are, and the length of the whole text. One process reads
// the whole file (a pipe will do). Under MPI, rank 0 finds the length of
// the text, which must be a regular file, and tells every rank; each rank
// then reads its own part, shadow bytes included, with one positioned read
// (the file must be where every rank can read it: one machine, or a
// shared file system). Nothing of the text travels between ranks. An
// error is one the ranks agreed on (mpi.Comm.Agree).
func readText(ctx context.Context, c mpi.Comm, job *matchJob) ([]byte, shard.Part, int, error) {
	if c.Size() == 1 {
		text, err := readInput(ctx, job.text, job.maxInput, "--max-input")
		return text, shard.Part{Hi: len(text), End: len(text), To: len(text)}, len(text), c.Agree(err)
	}
	var size int64
	var err error
	if c.Rank() == 0 {
		size, err = textSize(job.text)
	}
	if err := c.Agree(err); err != nil {
		return nil, shard.Part{}, 0, err
	}
	n := int(c.Bcast(size))
	part, err := job.part(n, c.Size(), c.Rank())
	if err == nil && int64(part.Bytes()) > job.maxInput {
		err = fmt.Errorf("%s: rank %d's part is %s, more than the %s input limit; raise it with --max-input, or run more ranks",
			job.text, c.Rank(), sysmem.Size(part.Bytes()), sysmem.Size(job.maxInput))
	}
	var mine []byte
	if err == nil {
		mine, err = readPart(job.text, part)
	}
	return mine, part, n, c.Agree(err)
}

// textSize is the length of the regular file at path.
func textSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file: under MPI every rank reads its own part of the text from it (one process reads pipes too)", path)
	}
	return fi.Size(), nil
}

// readPart reads the bytes [p.Start, p.End) of the file at path.
func readPart(path string, p shard.Part) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, p.Bytes())
	if _, err := f.ReadAt(b, int64(p.Start)); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: bytes [%d, %d) are past its end: did it change while the ranks read it?", path, p.Start, p.End)
		}
		return nil, err
	}
	return b, nil
}

// printCounts prints the counts as lines or, with --json, as res
// completed from the job.
func printCounts(w io.Writer, job *matchJob, counts []int64, res matchResult) error {
	if len(counts) != len(job.patterns) {
		return fmt.Errorf("%d counts for %d patterns", len(counts), len(job.patterns))
	}
	if !job.asJSON {
		b := bufio.NewWriterSize(w, 64<<10)
		for i, p := range job.patterns {
			fmt.Fprintf(b, "%d\t%s\n", counts[i], p)
		}
		return b.Flush()
	}
	res.Mode, res.Algo, res.K = job.mode.String(), job.algo.String(), job.k
	res.GPURatio = job.ratio
	res.Counts = make([]matchCount, len(counts))
	for i, p := range job.patterns {
		res.Counts[i] = matchCount{Pattern: string(p), Count: counts[i]}
	}
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}
