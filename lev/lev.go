// Package lev computes the Levenshtein distance (unit-cost insertions,
// deletions and substitutions) between two sequences, every way the course
// reports behind levlab did and the fastest way known on a CPU.
//
// There is one entry point per question — Distance for bytes, DistanceString
// for text — and options choose how: the algorithm, the number of workers,
// the tile size, a context for cancellation. Every algorithm returns exactly
// the same distance on every input; they differ only in time and memory.
//
//	d, err := lev.Distance(a, b, lev.WithAlgorithm(lev.MyersParallel), lev.WithWorkers(2))
//
// WithMax(k) caps a distance: the exact value when it is at most k, else
// k+1, and only the work needed to decide. Many pairs have their own entry
// points: Cross (every string of one set against every one of another),
// All (every pair of one set), each streaming its pairs to a callback,
// nearest first with WithTop; Matrix for small sets. Their short strings
// run a pair a vector lane (blockmyers.go).
//
//	err := lev.Cross(queries, words, func(p lev.Pair) error { … }, lev.WithMax(2), lev.WithTop(5))
//
// Align says which edits: an optimal alignment, in linear memory (align.go).
//
// The bit-parallel algorithms (Myers, MyersParallel, Auto) advance 64 rows
// a machine word, their words in the lanes of vector registers where the
// CPU has them: eight a register under AVX-512, four under AVX2, several
// registers stepped together for long patterns (up to 32 words under
// AVX-512, 8 under AVX2), chosen at run time (Stats.Kernel says which
// ran); the purego build tag keeps the portable loop, which every other
// CPU runs.
//
// Errors from bad options name the option, the value and what is allowed;
// nothing panics on user input.
//
// Counting approximate matches of patterns in a text, report 003's
// question, is package match's; both share the bit-parallel step.
package lev

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/option"
)

// Algorithm names one way of computing the distance. The zero value is Auto.
type Algorithm uint8

// The algorithms. Their stable names (String, ParseAlgorithm, the CLI and the
// CSV files) are given beside each.
const (
	// Auto ("auto") picks the fastest exact CPU algorithm for the inputs and
	// workers given: Myers for one worker or small problems, MyersParallel
	// otherwise. It never picks a GPU algorithm.
	Auto Algorithm = iota
	// FullMatrix ("fullmatrix") is Wagner–Fischer over the whole
	// (m+1)×(n+1) matrix, the reports' sequential baseline. O(mn) time and
	// memory.
	FullMatrix
	// TwoRow ("tworow") keeps two rows of the matrix (report 004). O(mn)
	// time, O(n) memory.
	TwoRow
	// Diagonal ("diagonal") walks antidiagonals over three fronts, each
	// worker owning an equal slice of every antidiagonal, with a barrier per
	// antidiagonal (reports 000 and 001). O(mn) time, O(m+n) memory.
	Diagonal
	// Tiled ("tiled") walks an antidiagonal wavefront of tiles; the tiles of
	// one antidiagonal are tasks for a pool of workers (report 000's OpenMP
	// taskloop). O(mn) time, O(m+n) memory.
	Tiled
	// TiledBarrier ("tiled-barrier") computes the same tiles with long-lived
	// workers, a static assignment and an explicit barrier (report 001's C++
	// threads). O(mn) time, O(m+n) memory.
	TiledBarrier
	// Myers ("myers") is the bit-parallel algorithm of Myers (1999) in
	// Hyyrö's formulation, 64 rows per machine word, restricted to the
	// Ukkonen band that an upper bound allows; for sequences of a thousand
	// symbols or more, a narrow first pass gives that bound, and the exact
	// pass computes only the cells whose value and gap cost to the end can
	// still be within it (for similar sequences a strip about the optimal
	// path, half as wide as the distance on average). O(⌈m/64⌉·n) time at
	// most, O(m+n) memory.
	Myers
	// MyersParallel ("myers-parallel") runs Myers' word blocks as a
	// wavefront pipeline of tiles (word blocks × column chunks) over the
	// workers, as many as can run: no more than GOMAXPROCS and the groups
	// of 256 rows (up to 512 under AVX2, 2,048 under AVX-512).
	// O(⌈m/64⌉·n/W) time at most, O(m+n) memory (one boundary row,
	// whatever the workers).
	MyersParallel
	// CUDADiagonal ("cuda-diagonal") is report 000's kernel: one GPU thread
	// per antidiagonal cell, one launch per antidiagonal.
	CUDADiagonal
	// CUDAMatrix ("cuda-matrix") is report 002's kernel: the whole matrix on
	// the device.
	CUDAMatrix
	// CUDAFast ("cuda-fast") is a persistent bit-parallel GPU kernel with no
	// launch per antidiagonal.
	CUDAFast

	numAlgorithms
)

// symbol is the element type the kernels compare: bytes, or dense codes of
// runes when a text has more than 256 distinct ones.
type symbol interface{ ~uint8 | ~uint32 }

// kernel computes the distance of two non-empty sequences. It may assume a
// valid, resolved config.
type kernel[S symbol] func(a, b []S, c *config) (int, error)

// impl is an algorithm's line in impls: its name, what it can do, and its
// kernels. The capabilities are the ones Distance checks options against
// and the ones the command line and the experiments ask (Parallel, GPU,
// TakesTile, SpansRanks).
type impl struct {
	name     string
	summary  string // one line of what it does and the options it takes (Summary)
	parallel bool   // uses more than one worker: takes WithWorkers(n > 1)
	gpu      bool   // runs on a CUDA device: takes WithBlockSize
	tile     bool   // takes WithTile: a tile side, or a column chunk
	ranks    bool   // takes WithRanks: one distance over several processes
	bytes    kernel[uint8]
	wide     kernel[uint32]
}

var impls = [numAlgorithms]impl{
	Auto: {name: "auto", parallel: true, tile: true, ranks: true,
		summary: "the fastest exact CPU algorithm for the input: myers, or myers-parallel when large and workers > 1"},
	FullMatrix: {name: "fullmatrix", bytes: fullMatrix[uint8], wide: fullMatrix[uint32],
		summary: "Wagner–Fischer over the whole matrix, the reports' baseline; sequential, O(mn) memory (WithMaxMemory)"},
	TwoRow: {name: "tworow", bytes: twoRow[uint8], wide: twoRow[uint32],
		summary: "two rows of the matrix (report 004); sequential, O(n) memory"},
	Diagonal: {name: "diagonal", parallel: true, bytes: diagonal[uint8], wide: diagonal[uint32],
		summary: "antidiagonals split evenly over the workers, a barrier per antidiagonal (reports 000, 001)"},
	Tiled: {name: "tiled", parallel: true, tile: true, bytes: tiled[uint8], wide: tiled[uint32],
		summary: "a wavefront of WithTile tiles run as tasks on a pool of workers (report 000's OpenMP taskloop)"},
	TiledBarrier: {name: "tiled-barrier", parallel: true, tile: true, bytes: tiledBarrier[uint8], wide: tiledBarrier[uint32],
		summary: "the same tiles on long-lived workers with an explicit barrier (report 001's C++ threads)"},
	Myers: {name: "myers", ranks: true, bytes: myers[uint8], wide: myers[uint32],
		summary: "bit-parallel Myers/Hyyrö, 64 rows per machine word, in the Ukkonen band; sequential"},
	MyersParallel: {name: "myers-parallel", parallel: true, tile: true, ranks: true, bytes: myersParallel[uint8], wide: myersParallel[uint32],
		summary: "Myers' word blocks as a wavefront pipeline over the workers; WithTile is the column chunk"},
	CUDADiagonal: {name: "cuda-diagonal", parallel: true, gpu: true, bytes: cudaDiagonal[uint8], wide: cudaDiagonal[uint32],
		summary: "GPU: one thread per antidiagonal cell, one launch per antidiagonal (report 000); WithBlockSize"},
	CUDAMatrix: {name: "cuda-matrix", parallel: true, gpu: true, bytes: cudaMatrix[uint8], wide: cudaMatrix[uint32],
		summary: "GPU: the whole matrix on the device (report 002); WithBlockSize"},
	CUDAFast: {name: "cuda-fast", parallel: true, gpu: true, tile: true, bytes: cudaFast[uint8], wide: cudaFast[uint32],
		summary: "GPU: a persistent bit-parallel kernel, no launch per antidiagonal; WithBlockSize; WithTile is the column chunk"},
}

// algorithmNames are the algorithms' stable names, in impls' order.
var algorithmNames = func() option.Names[Algorithm] {
	names := make([]string, len(impls))
	for i, im := range impls {
		names[i] = im.name
	}
	return option.NewNames[Algorithm]("lev", "Algorithm", "algorithm", names...)
}()

// Algorithms returns every algorithm, Auto first, in a stable order.
func Algorithms() []Algorithm { return algorithmNames.All() }

// String returns the algorithm's stable name, e.g. "myers-parallel".
func (a Algorithm) String() string { return algorithmNames.String(a) }

// Summary returns one line of what the algorithm does and the options
// that shape it (named as lev's Option functions, e.g. WithTile), for a
// list of the algorithms such as levlab distance --help prints; "" for an
// unknown algorithm.
func (a Algorithm) Summary() string {
	if a >= numAlgorithms {
		return ""
	}
	return impls[a].summary
}

// Parallel reports whether the algorithm uses more than one worker.
// Sequential algorithms refuse WithWorkers(n) for n > 1.
func (a Algorithm) Parallel() bool { return a < numAlgorithms && impls[a].parallel }

// GPU reports whether the algorithm runs on a CUDA device, its launches
// sized by WithBlockSize.
func (a Algorithm) GPU() bool { return a < numAlgorithms && impls[a].gpu }

// TakesTile reports whether WithTile means something to the algorithm: the
// tile side of Tiled and TiledBarrier, the column chunk of MyersParallel
// (and of Auto, which may run it) and of CUDAFast. The others ignore it.
func (a Algorithm) TakesTile() bool { return a < numAlgorithms && impls[a].tile }

// SpansRanks reports whether the algorithm computes one distance over the
// processes of WithRanks; the others refuse the option.
func (a Algorithm) SpansRanks() bool { return a < numAlgorithms && impls[a].ranks }

// algorithmsThat names, in impls' order, the algorithms for which can
// holds, as prose: "auto, myers and myers-parallel".
func algorithmsThat(can func(Algorithm) bool) string {
	var names []string
	for _, a := range Algorithms() {
		if can(a) {
			names = append(names, a.String())
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// ParseAlgorithm returns the algorithm with the given stable name.
func ParseAlgorithm(name string) (Algorithm, error) { return algorithmNames.Parse(name) }

// MarshalText implements encoding.TextMarshaler with the stable name.
func (a Algorithm) MarshalText() ([]byte, error) { return algorithmNames.Marshal(a) }

// UnmarshalText implements encoding.TextUnmarshaler with the stable name.
func (a *Algorithm) UnmarshalText(text []byte) error { return algorithmNames.Unmarshal(a, text) }

// autoSmallCells is the problem size (in cells) under which Auto runs Myers
// on one goroutine: below it the hand-offs of a pipeline cost more than
// they save.
const autoSmallCells = 1 << 22

// resolve returns the concrete algorithm Auto stands for.
func (c *config) resolve(m, n int) Algorithm {
	if c.alg != Auto {
		return c.alg
	}
	if c.workers == 1 || int64(m)*int64(n) < autoSmallCells {
		return Myers
	}
	return MyersParallel
}

// Distance returns the Levenshtein distance between a and b, compared byte
// by byte.
func Distance(a, b []byte, opts ...Option) (int, error) {
	c, err := newConfig(opts)
	if err != nil {
		return 0, err
	}
	alg := c.resolve(len(a), len(b))
	if err := ready(alg, c); err != nil {
		return 0, err
	}
	return run(c, alg, a, b, impls[alg].bytes)
}

// DistanceString returns the Levenshtein distance between a and b counted in
// runes: "héllo" and "hello" are at distance 1. Invalid UTF-8 bytes each
// count as U+FFFD, as in a for-range loop, so that "a\xff" and "a\xfe" are
// at distance 0; AlignString, CrossStrings and AllStrings count them the
// same way. A caller for whom different bytes must differ checks
// utf8.ValidString first, or compares bytes with Distance.
func DistanceString(a, b string, opts ...Option) (int, error) {
	c, err := newConfig(opts)
	if err != nil {
		return 0, err
	}
	alg := c.resolve(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	if err := ready(alg, c); err != nil {
		return 0, err
	}
	if isASCII(a) && isASCII(b) {
		return run(c, alg, []byte(a), []byte(b), impls[alg].bytes)
	}
	ca, cb, small := encodeRunes(a, b)
	if small {
		return run(c, alg, narrow(ca), narrow(cb), impls[alg].bytes)
	}
	return run(c, alg, ca, cb, impls[alg].wide)
}

// ready checks what must hold before any work, whatever the inputs.
func ready(alg Algorithm, c *config) error {
	if impls[alg].gpu {
		if err := checkGPU(alg, c); err != nil {
			return err
		}
		if alg != CUDAFast || c.fastModel == nil {
			if err := cudaext.Ready(); err != nil {
				return fmt.Errorf("lev: %s: %w", alg, err)
			}
		}
	}
	if err := c.ctx.Err(); err != nil {
		return fmt.Errorf("lev: %s: %w", alg, err)
	}
	return nil
}

func run[S symbol](c *config, alg Algorithm, a, b []S, k kernel[S]) (int, error) {
	c = c.resolved(alg)
	if c.stats != nil {
		*c.stats = Stats{Algorithm: alg, Workers: c.workers}
	}
	d, err := capped(c, alg, a, b, k)
	if err != nil {
		return 0, fmt.Errorf("lev: %s: %w", alg, err)
	}
	return d, nil
}

// capped runs kernel k on a and b under c's cap, answering the empty and
// the plainly distant pairs without it; c is resolved (its algorithm alg).
func capped[S symbol](c *config, alg Algorithm, a, b []S, k kernel[S]) (int, error) {
	limit := c.capK()
	switch {
	case len(a) == 0:
		return capAt(len(b), limit), nil
	case len(b) == 0:
		return capAt(len(a), limit), nil
	case limit >= 0 && abs(len(a)-len(b)) > limit:
		return limit + 1, nil
	}
	d, err := k(a, b, c)
	return capAt(d, limit), err
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// encodeRunes maps the runes of a and b to dense codes that compare equal
// exactly when the runes do. Only comparisons between a and b matter, so every
// rune of b absent from a shares one code. small reports that every code
// fits a byte.
func encodeRunes(a, b string) (ca, cb []uint32, small bool) {
	codes := runeCodes{}
	ca = codes.encode(a)
	other := uint32(len(codes))
	cb = make([]uint32, 0, utf8.RuneCountInString(b))
	for _, r := range b {
		code, ok := codes[r]
		if !ok {
			code = other
		}
		cb = append(cb, code)
	}
	return ca, cb, other <= 255
}

// runeCodes gives each rune it meets the next dense code.
type runeCodes map[rune]uint32

// encode returns the codes of s's runes, giving new runes new codes.
func (codes runeCodes) encode(s string) []uint32 {
	out := make([]uint32, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		code, ok := codes[r]
		if !ok {
			code = uint32(len(codes))
			codes[r] = code
		}
		out = append(out, code)
	}
	return out
}

func narrow(s []uint32) []uint8 {
	out := make([]uint8, len(s))
	for i, v := range s {
		out[i] = uint8(v)
	}
	return out
}

// canceled reports ctx's error, wrapped, once ctx is done. Kernels call it
// between units of work (rows, antidiagonals, tiles, chunks).
func canceled(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return fmt.Errorf("canceled: %w", ctx.Err())
	default:
		return nil
	}
}
