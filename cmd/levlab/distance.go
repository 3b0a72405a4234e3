package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/internal/mpi"
	"github.com/levlab/levlab/lev"
)

// optionFlags are the flags of lev's options that an algorithm's Summary
// names.
var optionFlags = strings.NewReplacer("WithMaxMemory", "--max-memory", "WithTile", "--tile", "WithBlockSize", "--block", "WithWorkers", "--workers")

// algorithmSummary is lev's one line on algorithm a, its options named as
// this command's flags.
func algorithmSummary(a lev.Algorithm) string { return optionFlags.Replace(a.Summary()) }

func printAlgorithms(w io.Writer) {
	for _, a := range lev.Algorithms() {
		fmt.Fprintf(w, "  %-15s %s\n", a, algorithmSummary(a))
	}
}

func distanceUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab distance [flags] A B
  levlab distance --files [--runes] [flags] FILE_A FILE_B

Prints the Levenshtein distance between A and B, alone, on stdout. Literal
arguments are compared as text, rune by rune ("héllo" and "hello" are at
distance 1). Files are compared as raw bytes, nothing stripped (a trailing
newline counts), or as UTF-8 text with --runes (then a file that is not
valid UTF-8 is an error naming its first bad byte); each is read up to
--max-input bytes (pipes and devices too), and a larger one is an error. Flags may come before or
after the arguments; put -- before an argument that begins with '-'.

--max K caps the distance: it prints the distance when it is at most K,
else K+1, and computes only what decides that (the lengths alone, or the
cells a path of cost K can reach, at most the band of cost K).

Under mpirun (levlab built with -tags mpi: make build-mpi) the ranks
compute the one distance together: auto, myers or myers-parallel, the
pattern's groups of up to 2,048 rows (512 with AVX2 alone) dealt to the ranks as to
workers, each rank with --workers of its own (1 for one rank a core). Every rank reads
the inputs itself; they must be the same (checked). Rank 0 prints.
docs/scale-out.md says what it costs.

--json prints one JSON object instead: algorithm (as asked), ran (what
auto resolved to, else the same), kernel (for myers, myers-parallel and
auto: the vector kernel that ran, avx512, avx2 or go), workers (as run),
max (with --max), tile and block (0: the algorithm's default), unit (runes
or bytes), len_a, len_b, distance, seconds (the computation alone, not
reading files), cells (len_a*len_b: the matrix's size), computed_cells
(the cells the algorithm computed, every rank's under mpirun: for auto,
myers and myers-parallel 64 for each 64-row word stepped over a column,
in every pass, band or trimmed strip, once the common prefix and suffix
are gone, for similar inputs a small part of cells; the whole matrix for
the others), gcups (billions of computed cells a second: the rate of the
work done) and matrix_gcups (billions of the matrix's cells a second:
how soon the distance came, not a rate of work); for a GPU algorithm
also gpu: the job's allocation, copies and computation timed apart with
CUDA events, its launches, µs per launch, blocks, threads per block and
device bytes; under mpirun also ranks (then workers are each rank's).

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nAlgorithms (--algo):\n")
	printAlgorithms(w)
	fmt.Fprint(w, `
Exit status:
  0  the distance was printed
  1  the computation failed: a file cannot be read or is over --max-input,
     is not UTF-8 with --runes, no usable GPU, a matrix over --max-memory or over what ulimit -v or the
     cgroup's memory limit leaves, interrupted (Ctrl-C, SIGTERM), stdout cannot be
     written; under mpirun, ranks that read different inputs
  2  bad usage: an unknown flag, not two arguments, an unknown algorithm, a
     value out of range (workers 0..4096, tile >= 1, block 1..1024,
     max-memory >= 1, max-input >= 1), workers > 1 for a sequential
     algorithm, --tile, --block or --max-memory for an algorithm without
     them, --runes without --files, under mpirun an algorithm other than
     auto, myers or myers-parallel
`)
}

// gpuTiming is the GPU job's own account of its time, in --json for GPU
// algorithms.
type gpuTiming struct {
	AllocSeconds    float64 `json:"alloc_seconds"`
	CopyInSeconds   float64 `json:"copy_in_seconds"`
	ComputeSeconds  float64 `json:"compute_seconds"`
	CopyOutSeconds  float64 `json:"copy_out_seconds"`
	Launches        int64   `json:"launches"`
	MicrosPerLaunch float64 `json:"us_per_launch"`
	Blocks          int     `json:"blocks"`
	Threads         int     `json:"threads"`
	DeviceBytes     int64   `json:"device_bytes"`
}

// distanceResult is the --json output of distance.
type distanceResult struct {
	Algorithm     lev.Algorithm `json:"algorithm"`
	Ran           lev.Algorithm `json:"ran"`
	Kernel        string        `json:"kernel,omitempty"` // the bit-parallel kernel that ran (lev.Stats.Kernel)
	Workers       int           `json:"workers"`
	Tile          int           `json:"tile"`
	Block         int           `json:"block"`
	Unit          string        `json:"unit"`
	LenA          int           `json:"len_a"`
	LenB          int           `json:"len_b"`
	Distance      int           `json:"distance"`
	Max           *int          `json:"max,omitempty"` // --max K: distance is K+1 when more than K
	Seconds       float64       `json:"seconds"`
	Cells         int64         `json:"cells"`          // the matrix: len_a·len_b
	ComputedCells int64         `json:"computed_cells"` // the cells computed (lev.Stats.Computed)
	GCUPS         float64       `json:"gcups"`          // computed cells a second, billions
	MatrixGCUPS   float64       `json:"matrix_gcups"`   // the matrix's cells a second, billions
	GPU           *gpuTiming    `json:"gpu,omitempty"`
	Ranks         int           `json:"ranks,omitempty"` // under mpirun: the ranks that computed it, each with Workers
}

// distanceJob is a distance as its flags and arguments make it.
type distanceJob struct {
	opts    []lev.Option
	inputs  [][]byte // what the ranks check they share
	res     distanceResult
	json    bool
	compute func(opts []lev.Option) (int, error)
}

// quickCells is the most cells of a distance that leaves Ctrl-C and
// SIGTERM their default action (laterInterruptContext): a few
// milliseconds of work at most, on one worker of any algorithm.
const quickCells = 1 << 22

// quick reports whether the job is too short to watch for Ctrl-C.
func (job *distanceJob) quick() bool {
	return int64(job.res.LenA)*int64(job.res.LenB) <= quickCells
}

func runDistance(args []string, stdout, stderr io.Writer) error {
	return overRanks("distance", true, args, stdout, stderr, parseDistance, runDistanceJob)
}

// runDistanceJob computes job's distance, over the ranks of c.
func runDistanceJob(ctx context.Context, c mpi.Comm, job *distanceJob, stdout io.Writer) error {
	var stats lev.Stats
	opts := append(job.opts, lev.WithStats(&stats))
	if c.Size() > 1 {
		if err := c.Agree(mpi.SameInputs(c, "strings", job.inputs...)); err != nil {
			return err
		}
		opts = append(opts, lev.WithRanks(c.Link(ctx)))
		job.res.Ranks = c.Size()
		c.Barrier() // the clock starts together
	}

	start := time.Now()
	d, err := job.compute(opts)
	elapsed := time.Since(start)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w: %w", errInterrupted, err)
		}
		// The other ranks may be waiting on this one's messages.
		c.Fail(err)
		return err
	}
	return c.Agree(job.print(stdout, d, elapsed, &stats))
}

// print writes the distance d, or with --json the whole result.
func (job *distanceJob) print(stdout io.Writer, d int, elapsed time.Duration, stats *lev.Stats) error {
	if !job.json {
		_, err := fmt.Fprintln(stdout, d)
		return err
	}
	res := job.res
	res.Distance = d
	res.Ran, res.Workers, res.Kernel = stats.Algorithm, stats.Workers, stats.Kernel
	res.Seconds = elapsed.Seconds()
	res.Cells, res.ComputedCells = int64(res.LenA)*int64(res.LenB), stats.Computed
	if res.Seconds > 0 {
		res.GCUPS = float64(res.ComputedCells) / res.Seconds / 1e9
		res.MatrixGCUPS = float64(res.Cells) / res.Seconds / 1e9
	}
	if g := stats.GPU; g.Launches > 0 {
		res.GPU = &gpuTiming{
			AllocSeconds: g.AllocSeconds, CopyInSeconds: g.CopyInSeconds, ComputeSeconds: g.ComputeSeconds,
			CopyOutSeconds: g.CopyOutSeconds, Launches: g.Launches, MicrosPerLaunch: g.PerLaunch() * 1e6,
			Blocks: g.Blocks, Threads: g.Threads, DeviceBytes: g.DeviceBytes,
		}
	}
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(out, '\n'))
	return err
}

// parseDistance reads the flags and the inputs of a distance to be
// computed over ranks processes (1: one process).
func parseDistance(ctx context.Context, args []string, stdout io.Writer, ranks int) (*distanceJob, error) {
	fs := newFlagSet("distance", stdout, distanceUsage)
	algoName := fs.String("algo", "auto", "algorithm `NAME` (listed below)")
	workers := fs.Int("workers", 0, "`N` goroutines for a parallel algorithm, 0..4096; 0: GOMAXPROCS (sequential algorithms: 0 or 1); under mpirun, each rank's")
	tile := fs.Int("tile", 0, "tile side in cells (tiled, tiled-barrier) or column chunk (myers-parallel, auto, cuda-fast); other algorithms refuse it; unset: the algorithm's default")
	block := fs.Int("block", 0, "CUDA threads per block, 1..1024 (cuda-* only); unset: the algorithm's default")
	maxD := fs.Int("max", 0, "cap the distance at `K` >= 0: K+1 is printed for anything more, found without computing it")
	var maxMemory byteSize
	fs.Var(&maxMemory, "max-memory", "`BYTES` fullmatrix may allocate, e.g. 512MiB or 4GiB; unset: half the physical memory")
	files := fs.Bool("files", false, "A and B name files, compared as raw bytes")
	maxInput := maxInputFlag(fs)
	runes := fs.Bool("runes", false, "with --files, compare the files as UTF-8 text (literal arguments always are)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the distance alone")

	pos, err := fs.parse(args)
	if err != nil {
		return nil, err
	}
	if len(pos) != 2 {
		return nil, usageErrorf("want two arguments A B, got %d: %s", len(pos), quoteAll(pos))
	}
	alg, err := lev.ParseAlgorithm(*algoName)
	if err != nil {
		return nil, err
	}
	inputMax, err := inputLimit(fs, maxInput)
	if err != nil {
		return nil, err
	}
	opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(*workers), lev.WithContext(ctx)}
	set := fs.given()
	if set["tile"] {
		opts = append(opts, lev.WithTile(*tile))
	}
	if set["block"] {
		opts = append(opts, lev.WithBlockSize(*block))
	}
	if set["max-memory"] {
		opts = append(opts, lev.WithMatrixLimit(int64(maxMemory)))
	}
	if set["max"] {
		opts = append(opts, lev.WithMax(*maxD))
	}
	// A bad value (or no GPU) is reported before a file is read.
	if err := lev.Check(opts...); err != nil {
		return nil, err
	}
	if set["runes"] && !*files {
		return nil, usageErrorf("--runes compares files as UTF-8 text and needs --files; literal arguments are always compared as text")
	}
	if set["tile"] && !alg.TakesTile() {
		return nil, usageErrorf("--tile %d: %s has no tiles or chunks; --tile applies to %s", *tile, alg, algorithmsThat(lev.Algorithm.TakesTile, ", "))
	}
	if set["max-memory"] && alg != lev.FullMatrix {
		return nil, usageErrorf("--max-memory bounds fullmatrix's matrix; %s keeps no matrix", alg)
	}
	if set["block"] && !alg.GPU() {
		return nil, usageErrorf("--block %d: %s runs on the CPU; --block applies to the GPU algorithms (cuda-*)", *block, alg)
	}
	if ranks > 1 && !alg.SpansRanks() {
		return nil, usageErrorf("--algo %s computes in one process; under mpirun distance runs %s over the ranks", alg, algorithmsThat(lev.Algorithm.SpansRanks, " or "))
	}

	job := &distanceJob{opts: opts, json: *asJSON, res: distanceResult{Algorithm: alg, Tile: *tile, Block: *block}}
	if set["max"] {
		job.res.Max = maxD
	}
	res := &job.res
	if !*files {
		job.inputs = [][]byte{[]byte(pos[0]), []byte(pos[1])}
		job.compute = textDistance(res, pos[0], pos[1])
		return job, nil
	}
	a, err := readInput(ctx, pos[0], inputMax, "--max-input")
	if err != nil {
		return nil, err
	}
	b, err := readInput(ctx, pos[1], inputMax, "--max-input")
	if err != nil {
		return nil, err
	}
	job.inputs = [][]byte{a, b}
	if *runes {
		// Invalid UTF-8 would count as U+FFFD, so that two files of
		// different invalid bytes are at distance 0: refused, as
		// align and matrix refuse it.
		if err := validUTF8(pos[0], a); err != nil {
			return nil, err
		}
		if err := validUTF8(pos[1], b); err != nil {
			return nil, err
		}
		job.compute = textDistance(res, string(a), string(b))
		return job, nil
	}
	res.Unit, res.LenA, res.LenB = "bytes", len(a), len(b)
	job.compute = func(opts []lev.Option) (int, error) { return lev.Distance(a, b, opts...) }
	return job, nil
}

// algorithmsThat names the algorithms for which can holds, in
// lev.Algorithms' order, the last two joined by last: "auto, myers or
// myers-parallel" for " or ".
func algorithmsThat(can func(lev.Algorithm) bool, last string) string {
	var names []string
	for _, a := range lev.Algorithms() {
		if can(a) {
			names = append(names, a.String())
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}

// textDistance records the rune lengths of a and b in res and returns the
// computation of their distance as text.
func textDistance(res *distanceResult, a, b string) func([]lev.Option) (int, error) {
	res.Unit, res.LenA, res.LenB = "runes", utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	return func(opts []lev.Option) (int, error) { return lev.DistanceString(a, b, opts...) }
}
