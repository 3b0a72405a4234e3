package experiments

import (
	"runtime"

	"github.com/levlab/levlab/records"
)

// All returns every experiment, in the order of the reports.
//
// Every grid is size-major (all settings at the smallest size first), so
// that an interrupted run has whole rows of a table. The quick grids keep
// every size at 15k or less and the whole quick scale, ten repetitions and
// a warm-up per point, at about half a minute on 2 cores; the paper grids
// use the reports' sizes. Sequential algorithms run with 1 worker, parallel
// ones with the worker counts named, GPU ones with 0 (they size their
// launches themselves).
func All() []Experiment {
	return []Experiment{
		{
			Name:   records.ExpS000Table1,
			Source: records.Seed000 + " Table 1",
			Title: "Sequential full matrix (Listing 2; at 50k 4.7 GiB of uint16 cells) and two rows vs tiled with 4 and 8 workers; " +
				"random strings over {a,b,c,d}",
			Points: s000Table1,
		},
		{
			Name:   records.ExpS000Fig3,
			Source: records.Seed000 + " Figure 3",
			Title: "Speedup of tiled with 4 and 8 workers over the sequential full matrix and two rows, at the sizes between and below Table 1's; " +
				"Figure 3's curve is these points with s000-table1's",
			Points: s000Fig3,
		},
		{
			Name:   records.ExpS000Table2,
			Source: records.Seed000 + " Table 2",
			Title:  "CUDA, one thread per antidiagonal cell and one launch per antidiagonal, by string size and threads per block (GPU only)",
			Points: s000Table2,
		},
		{
			Name:   records.ExpS000Fig4,
			Source: records.Seed000 + " Figure 4",
			Title: "Sequential baseline (two rows; the full matrix would need 37–84 GiB) at the Table 2 sizes Table 1 lacks; " +
				"Figure 4's speedup divides s000-table1's and these times by s000-table2's",
			Points: s000Fig4,
		},
		{
			Name:   records.ExpS001Length,
			Source: records.Seed001 + " Figures 4-5",
			Title:  "Time and speedup vs string length: sequential (full matrix, two rows) vs tiled and tiled-barrier on every core",
			Points: s001Length,
		},
		{
			Name:   records.ExpS001Tile,
			Source: records.Seed001 + " Figure 6",
			Title:  "Speedup vs tile side, 16 to 2048 cells, of tiled and tiled-barrier on every core",
			Points: s001Tile,
		},
		{
			Name:   records.ExpS001Threads,
			Source: records.Seed001 + " Figure 7",
			Title:  "Speedup vs workers, 1 to twice the cores, of tiled and tiled-barrier",
			Points: s001Threads,
		},
		{
			Name:   records.ExpS001Ratio,
			Source: records.Seed001 + " Section 4 (strings of different lengths)",
			Title:  "Strings of different lengths: the longer fixed, the shorter 1 to 128 times shorter; diagonal vs tiled vs two rows",
			Points: s001Ratio,
		},
		{
			Name:   records.ExpS001Diagonal,
			Source: records.Seed001 + " Sections 3-4 (diagonal approach)",
			Title:  "Diagonal (equal slices, a barrier per antidiagonal) vs tiled and tiled-barrier, by length and workers",
			Points: s001Diagonal,
		},
		{
			Name:   records.ExpS002Cases,
			Source: records.Seed002 + " slides: identical, partially and completely different strings; CPU vs GPU",
			Title: "Identical, partially (2% substituted) and completely different strings: CPU (full matrix, two rows, Myers) vs GPU; " +
				"alloc_seconds is the full matrix's allocation, so times with and without it are both in the records",
			Points: s002Cases,
		},
		{
			Name:   records.ExpS003Ratio,
			Source: records.Seed003 + " Figures 2-3",
			Title: "Runtime vs the CUDA workload ratio, 0 to 1 by 0.1: the share of the window positions sent to the GPU, the rest to " +
				"the goroutines; one 22-byte pattern, k = 2, one process (GPU points only where a GPU is usable)",
			Points: s003Ratio,
		},
		{
			Name:   records.ExpS003Ranks,
			Source: records.Seed003 + " Figures 4-7",
			Title: "Runtime and speedup vs ranks (1, 2, 4, 8; one worker each) on small, medium, large and very large texts, " +
				"ranks simulated in-process (parts with shadow bytes, copied and counted at once), beside one process on 1 and on every core",
			Points: s003Ranks,
		},
		{
			Name:   records.ExpS004Memory,
			Source: records.Seed004 + " two rows instead of the whole matrix",
			Title:  "Time and heap allocated: full matrix vs two rows vs Myers, up to 50k (full matrix: 4.7 GiB)",
			Points: s004Memory,
		},
		{
			Name:   records.ExpGPUFast,
			Source: records.Seed000 + " Table 2 sizes and 1M, with levlab's cuda-fast beyond the reports",
			Title:  "cuda-fast (persistent, bit-parallel) beside report 000's cuda-diagonal and the best CPU run, myers-parallel on every core, on random DNA",
			Points: gpuFast,
		},
		{
			Name:   records.ExpManyPairs,
			Source: records.Seed004 + " (one pair at a time) beside levlab's many pairs (lev.All), beyond the reports",
			Title:  "Every pair of N random DNA strings of 500 to 1000 bp (quick: 250 to 500): lev's block kernel a pair a vector lane, on one core and every core, beside edlib a pair at a time and cuda-fast's many-pairs job on the GPU",
			Points: manyPairs,
		},
		{
			Name:   records.ExpSuggest,
			Source: records.Seed004 + " (one pair at a time) beside levlab's many pairs with a cap (lev.CrossStrings, WithMax), beyond the reports",
			Title:  "Spelling suggestions: typos against Debian's word list (wamerican), the words within 1 edit, beside the obvious loop over lev.DistanceString",
			Points: suggest,
		},
		{
			Name:   records.ExpAlign,
			Source: records.Seed004 + " (the distance alone) beside levlab's alignment (lev.Align), beyond the reports",
			Title: "Which edits, not only how many: lev.Align (Hirschberg's splits over the bit-parallel pass, linear memory) beside the distance alone (auto), " +
				"time and heap allocated, on DNA 1% diverged (a read against its reference) and on random DNA",
			Points: alignGrid,
		},
		{
			Name:   records.ExpPeers,
			Source: records.Seed004 + " and the other reports' algorithms, beside libraries no report tried",
			Title:  "Every CPU algorithm of lev beside agnivade, ka-weihe and edlib on random DNA",
			Points: peersGrid,
		},
	}
}

const k = 1000

// A setting is one algorithm configuration of a grid: a Point without its
// inputs.
type setting struct {
	kind                 Kind
	alg                  string
	workers, tile, block int
}

// seq is a sequential algorithm: 1 worker.
func seq(alg string) setting { return setting{alg: alg, workers: 1} }

// peerAlg is a peer (Peers), sequential.
func peerAlg(name string) setting { return setting{kind: Peer, alg: name, workers: 1} }

// par is a parallel algorithm with the workers given.
func par(alg string, workers int) setting { return setting{alg: alg, workers: workers} }

// gpu is a GPU algorithm with the threads per block given (0: its default).
func gpu(alg string, block int) setting { return setting{alg: alg, block: block} }

func (s setting) point(c string, la, lb int) Point {
	return Point{Kind: s.kind, Algorithm: s.alg, Workers: s.workers, Tile: s.tile, Block: s.block, Case: c, LenA: la, LenB: lb}
}

// square returns, size by size, a point of every setting on two strings of
// length n made by case c.
func square(c string, sizes []int, settings ...setting) []Point {
	var pts []Point
	for _, n := range sizes {
		for _, s := range settings {
			pts = append(pts, s.point(c, n, n))
		}
	}
	return pts
}

// pick returns the sizes of scale s: nil for an unknown scale.
func pick(s Scale, quick, paper []int) []int {
	switch s {
	case Quick:
		return quick
	case Paper:
		return paper
	}
	return nil
}

// cores is the number of logical CPUs, the "every core" of the grids.
func cores() int { return runtime.NumCPU() }

// workerSweep returns 1 to max workers: every count up to 8, then the
// powers of two below max, cores and max.
func workerSweep(max int) []int {
	var ws []int
	for w := 1; w <= max; w++ {
		if w <= 8 || w&(w-1) == 0 || w == cores() || w == max {
			ws = append(ws, w)
		}
	}
	return ws
}

// s000Table1 is report 000's Table 1 at its sizes, 10k/30k/50k (quick: a
// tenth, and 10k, the report's smallest, so that the table has ours beside
// its first row at every scale). The report's sequential version is its Listing 2, the full
// matrix; two rows is the better sequential baseline beside it. Its
// parallel version is the OpenMP taskloop over tiles with 4 and 8 threads on
// a 4-core laptop: tiled with 4 and 8 workers, whatever the cores here.
func s000Table1(s Scale) []Point {
	return square(CaseRandom, pick(s, []int{1 * k, 3 * k, 5 * k, 10 * k}, []int{10 * k, 30 * k, 50 * k}),
		seq(records.AlgFullMatrix), seq(records.AlgTwoRow), par(records.AlgTiled, 4), par(records.AlgTiled, 8))
}

// s000Fig3 times Table 1's settings at the sizes Table 1 lacks, from 1k to
// 40k (quick: 500 to 4k), so that Figure 3's speedup-vs-size curve, drawn
// from these records and s000-table1's, has more than three points and no
// size is timed twice.
func s000Fig3(s Scale) []Point {
	return square(CaseRandom, pick(s, []int{500, 2 * k, 4 * k}, []int{1 * k, 2 * k, 5 * k, 20 * k, 40 * k}),
		seq(records.AlgFullMatrix), seq(records.AlgTwoRow), par(records.AlgTiled, 4), par(records.AlgTiled, 8))
}

// blocks000 are Table 2's threads per block.
var blocks000 = []int{128, 256, 512, 1024}

// s000Table2 is report 000's Table 2: the CUDA diagonal kernel at 10k to
// 150k (quick: a tenth) and 128 to 1024 threads per block. Without a GPU
// every point is a skipped record saying why.
func s000Table2(s Scale) []Point {
	var settings []setting
	for _, b := range blocks000 {
		settings = append(settings, gpu(records.AlgCUDADiagonal, b))
	}
	return square(CaseRandom, pick(s, []int{1 * k, 3 * k, 5 * k, 10 * k, 15 * k}, []int{10 * k, 30 * k, 50 * k, 100 * k, 150 * k}),
		settings...)
}

// s000Fig4 is the sequential side of report 000's Figure 4 (CUDA speedup)
// at the two Table 2 sizes that Table 1 lacks, 100k and 150k (quick: 10k
// and 15k). Two rows, since the full matrix would take 37 and 84 GiB of
// uint32 cells there; the report's own sequential times at these sizes are
// not published.
func s000Fig4(s Scale) []Point {
	return square(CaseRandom, pick(s, []int{10 * k, 15 * k}, []int{100 * k, 150 * k}), seq(records.AlgTwoRow))
}

// s001Length is report 001's Figures 4 (time vs length) and 5 (speedup vs
// length). The report ran 4 threads on a 4-core i5 and does not give its
// lengths beyond "around 10.000" points being enough for a 4× speedup: here
// every core, at 1k to 50k (quick: 500 to 5k). Its sequential version is
// the full matrix of its Figure 1; two rows beside it.
func s001Length(s Scale) []Point {
	c := cores()
	return square(CaseRandom, pick(s, []int{500, 1 * k, 2 * k, 3 * k, 5 * k}, []int{1 * k, 2 * k, 5 * k, 10 * k, 20 * k, 30 * k, 50 * k}),
		seq(records.AlgFullMatrix), seq(records.AlgTwoRow), par(records.AlgTiled, c), par(records.AlgTiledBarrier, c))
}

// tiles001 are the tile sides of Figure 6 (128–1024 in the report),
// widened to 16–2048 to show both ends of the trade-off.
var tiles001 = []int{16, 32, 64, 128, 256, 512, 1024, 2048}

// s001Tile is report 001's Figure 6, speedup vs tile side, at 20k (quick:
// 3k) on every core, with the sequential baselines at the same size.
func s001Tile(s Scale) []Point {
	c := cores()
	settings := []setting{seq(records.AlgFullMatrix), seq(records.AlgTwoRow)}
	for _, t := range tiles001 {
		for _, alg := range []string{records.AlgTiled, records.AlgTiledBarrier} {
			st := par(alg, c)
			st.tile = t
			settings = append(settings, st)
		}
	}
	return square(CaseRandom, pick(s, []int{3 * k}, []int{20 * k}), settings...)
}

// s001Threads is report 001's Figure 7, speedup vs threads, at 20k (quick:
// 3k): 1 to twice the cores, to show oversubscription, with the sequential
// baselines at the same size.
func s001Threads(s Scale) []Point {
	settings := []setting{seq(records.AlgFullMatrix), seq(records.AlgTwoRow)}
	for _, w := range workerSweep(2 * cores()) {
		settings = append(settings, par(records.AlgTiled, w), par(records.AlgTiledBarrier, w))
	}
	return square(CaseRandom, pick(s, []int{3 * k}, []int{20 * k}), settings...)
}

// ratios001 are the length ratios of s001-ratio.
var ratios001 = []int{1, 2, 4, 8, 16, 32, 64, 128}

// s001Ratio tests report 001's remark that the diagonal approach does
// better on strings of significantly different lengths, and no better than
// sequential when the ratio is excessive: the longer string fixed at 20k
// (quick: 4k), the shorter 1 to 128 times shorter (quick: to 64), diagonal
// and tiled on every core beside two rows. The report gives no sizes.
func s001Ratio(s Scale) []Point {
	c := cores()
	long := 4 * k
	rs := ratios001[:len(ratios001)-1]
	if s == Paper {
		long, rs = 20*k, ratios001
	} else if s != Quick {
		return nil
	}
	var pts []Point
	for _, r := range rs {
		for _, st := range []setting{seq(records.AlgTwoRow), par(records.AlgDiagonal, c), par(records.AlgTiled, c)} {
			pts = append(pts, st.point(CaseRandom, long, long/r))
		}
	}
	return pts
}

// s001Diagonal is report 001's diagonal approach (Sections 3–4, which
// found it struggling: a barrier per antidiagonal, cache misses) against
// its tile approach, by length, 1k to 20k (quick: 500 to 4k; the diagonal
// takes about 5 s at 50k), and workers, 1 to every core, with two rows as
// the sequential baseline.
func s001Diagonal(s Scale) []Point {
	settings := []setting{seq(records.AlgTwoRow)}
	for _, w := range workerSweep(cores()) {
		settings = append(settings, par(records.AlgDiagonal, w), par(records.AlgTiled, w), par(records.AlgTiledBarrier, w))
	}
	return square(CaseRandom, pick(s, []int{500, 1 * k, 2 * k, 4 * k}, []int{1 * k, 2 * k, 5 * k, 10 * k, 20 * k}), settings...)
}

// s002Cases is report 002's three cases — identical, partially and
// completely different strings — on its CPU (the full matrix; two rows and
// Myers beside it) and GPU algorithms (its own, cuda-matrix; report 000's
// cuda-diagonal; ours, cuda-fast). Its CPU vs GPU slide gives CPU times of
// 0.0156 s, 1.74 s and 181 s, about 100 times more per step, with the last
// at length 10000: lengths 100, 1k and 10k at every scale (a full matrix
// of 10k takes a fifth of a second).
func s002Cases(s Scale) []Point {
	var pts []Point
	for _, n := range pick(s, []int{100, 1 * k, 10 * k}, []int{100, 1 * k, 10 * k}) {
		for _, c := range []string{CaseIdentical, CasePartial, CaseDifferent} {
			pts = append(pts, square(c, []int{n},
				seq(records.AlgFullMatrix), seq(records.AlgTwoRow), seq(records.AlgMyers),
				gpu(records.AlgCUDAMatrix, 0), gpu(records.AlgCUDADiagonal, 0), gpu(records.AlgCUDAFast, 0))...)
		}
	}
	return pts
}

// pattern003 is the pattern length of report 003's Figures 2-3 ("22 Chars
// p"); its Figures 4-7 do not give theirs.
const pattern003 = 22

// s003Ratio is report 003's Figures 2-3: runtime vs the CUDA workload
// ratio, 0 to 1 in steps of 0.1, with one process on every core, on a
// text of 136473378 bytes (Figure 3's "Total size"; quick: 10^6) and one
// 22-byte pattern, both random DNA. The figures average runs with 4
// OpenMP threads and 6.9 or 13 million CUDA threads; ours send the share
// to cudaext.CountWindows, which sizes its own launch. Without a usable
// GPU every ratio above 0 is a skipped record saying why.
func s003Ratio(s Scale) []Point {
	c := cores()
	var pts []Point
	for _, n := range pick(s, []int{1000 * k}, []int{136473378}) {
		for i := 0; i <= 10; i++ {
			pts = append(pts, Point{Kind: Matching, Algorithm: records.AlgAPMFast, Workers: c, GPURatio: float64(i) / 10,
				Case: CaseDNA, LenA: n, LenB: pattern003})
		}
	}
	return pts
}

// ranks003 are the MPI ranks of s003-ranks. The report ran up to 20 or
// more processes on a cluster (one GPU per ten); 8 on this 2-core machine
// already oversubscribes it fourfold.
var ranks003 = []int{1, 2, 4, 8}

// s003Ranks is report 003's Figures 4-7: runtime and speedup vs MPI ranks
// on small, medium, large and very large files, here texts of 10^5, 10^6,
// 10^7 and 10^8 bytes (quick: 10^4 to 2·10^6; the report gives no sizes)
// and one 22-byte pattern, random DNA, k = 2. Each size has the
// sequential baseline (one process, one worker), one process on every
// core, and 1, 2, 4 and 8 simulated ranks of one worker each (see
// countRanks: parts with shadow bytes, copied and counted at once); the
// speedup is the baseline's time over each. The report's speedup also
// counts transfers between machines, which an in-process run does not
// have; levlab match under mpirun measures those (README, Pattern matching).
func s003Ranks(s Scale) []Point {
	c := cores()
	var pts []Point
	for _, n := range pick(s, []int{10 * k, 100 * k, 500 * k, 2000 * k}, []int{100 * k, 1000 * k, 10000 * k, 100000 * k}) {
		pt := func(workers, ranks int) Point {
			return Point{Kind: Matching, Algorithm: records.AlgAPMFast, Workers: workers, Ranks: ranks, Case: CaseDNA, LenA: n, LenB: pattern003}
		}
		pts = append(pts, pt(1, 0))
		if c > 1 {
			pts = append(pts, pt(c, 0))
		}
		for _, r := range ranks003 {
			pts = append(pts, pt(1, r))
		}
	}
	return pts
}

// s004Memory is report 004's point, that two rows do the full matrix's work
// in O(n) memory: time and heap allocated by each, and by Myers, at 1k to
// 50k (quick: 500 to 5k), where the full matrix takes 4.7 GiB.
func s004Memory(s Scale) []Point {
	return square(CaseRandom, pick(s, []int{500, 1 * k, 2 * k, 3 * k, 5 * k}, []int{1 * k, 5 * k, 10 * k, 20 * k, 30 * k, 50 * k}),
		seq(records.AlgFullMatrix), seq(records.AlgTwoRow), seq(records.AlgMyers))
}

// gpuFast times cuda-fast at report 000's Table 2 sizes and at 1M × 1M
// (quick: 1k and 5k), with cuda-diagonal (launch-bound: m+n+1 launches)
// up to 150k and myers-parallel on every core as the CPU's best.
func gpuFast(s Scale) []Point {
	c := cores()
	var pts []Point
	for _, n := range pick(s, []int{1 * k, 5 * k}, []int{10 * k, 50 * k, 150 * k, 1000 * k}) {
		settings := []setting{gpu(records.AlgCUDAFast, 0)}
		if n <= 150*k {
			settings = append(settings, gpu(records.AlgCUDADiagonal, 0))
		}
		settings = append(settings, par(records.AlgMyersParallel, c))
		pts = append(pts, square(CaseDNA, []int{n}, settings...)...)
	}
	return pts
}

// alignGrid times lev.Align on one worker and every core beside the
// distance on every core: DNA 1% diverged at 10k, 100k and 1M, random DNA
// at 10k, 30k and 100k (quick: both at 2k, 5k and 15k).
func alignGrid(s Scale) []Point {
	c := cores()
	settings := []setting{{kind: Alignment, alg: AlignAlgorithm, workers: 1}}
	if c > 1 {
		settings = append(settings, setting{kind: Alignment, alg: AlignAlgorithm, workers: c})
	}
	settings = append(settings, par(records.AlgAuto, c))
	return append(square(CaseDiverged, pick(s, []int{2 * k, 5 * k, 15 * k}, []int{10 * k, 100 * k, 1000 * k}), settings...),
		square(CaseDNA, pick(s, []int{2 * k, 5 * k, 15 * k}, []int{10 * k, 30 * k, 100 * k}), settings...)...)
}

// peersGrid sets every CPU algorithm of lev beside the peers (see Peers) at
// 1k, 10k and 50k (quick: 1k, 2k, 5k) on random DNA, parallel ones on every
// core. The full matrix and the diagonal run only up to 10k: the matrix is
// timed at 50k by s000-table1 and s004-memory, and the diagonal would take
// about 5 s a repetition there.
func peersGrid(s Scale) []Point {
	c := cores()
	var pts []Point
	for _, n := range pick(s, []int{1 * k, 2 * k, 5 * k}, []int{1 * k, 10 * k, 50 * k}) {
		var settings []setting
		if n <= 10*k {
			settings = append(settings, seq(records.AlgFullMatrix))
		}
		settings = append(settings, seq(records.AlgTwoRow))
		if n <= 10*k {
			settings = append(settings, par(records.AlgDiagonal, c))
		}
		settings = append(settings,
			par(records.AlgTiled, c), par(records.AlgTiledBarrier, c), seq(records.AlgMyers), par(records.AlgMyersParallel, c),
			peerAlg(records.AlgAgnivade), peerAlg(records.AlgKaWeihe), peerAlg(records.AlgEdlib))
		pts = append(pts, square(CaseDNA, []int{n}, settings...)...)
	}
	return pts
}

// manyPairs is every pair i < j of N random DNA strings of L to 2L bp
// (quick: N 100 and 200, L 250; paper: N 200, 400 and 800, L 500, the
// 800 strings of 500–1000 bp that make 319,600 pairs, and 4,000 that make
// 7,998,000): lev.All on one worker and on every core, edlib a pair at a
// time, the peer most edit-distance libraries are measured against (up to
// 800), and cuda-fast's many-pairs job on the GPU (cudaext.Pairs; skipped
// without one).
func manyPairs(s Scale) []Point {
	c := cores()
	L := 250
	if s == Paper {
		L = 500
	}
	var pts []Point
	for _, n := range pick(s, []int{100, 200}, []int{200, 400, 800, 4000}) {
		pt := func(kind Kind, alg string, workers int) Point {
			return Point{Kind: kind, Algorithm: alg, Workers: workers, Case: CaseDNA, LenA: n, LenB: L}
		}
		if n <= 800 {
			// One core, and edlib a pair at a time: 8M pairs are past
			// both.
			pts = append(pts, pt(Pairs, records.AlgAuto, 1))
		}
		if c > 1 || n > 800 {
			pts = append(pts, pt(Pairs, records.AlgAuto, c))
		}
		if n <= 800 {
			pts = append(pts, pt(PeerPairs, records.AlgEdlib, 1))
		}
		pts = append(pts, pt(Pairs, records.AlgCUDAFast, 0))
	}
	return pts
}

// suggest is spelling suggestions over a real word list (CaseWords): 25
// typos (quick: 3), each one random edit from a word, against every word,
// keeping those within SuggestK: lev.CrossStrings with the cap on one
// worker and every core, and the obvious loop over lev.DistanceString.
func suggest(s Scale) []Point {
	n := 3
	if s == Paper {
		n = 25
	}
	if s != Quick && s != Paper {
		return nil
	}
	pts := []Point{{Kind: Suggest, Algorithm: records.AlgAuto, Workers: 1, Case: CaseWords, LenA: n}}
	if c := cores(); c > 1 {
		pts = append(pts, Point{Kind: Suggest, Algorithm: records.AlgAuto, Workers: c, Case: CaseWords, LenA: n})
	}
	// The loop names Myers, what Auto runs on one worker: its records
	// stand apart from Suggest's on one worker by the algorithm.
	return append(pts, Point{Kind: SuggestLoop, Algorithm: records.AlgMyers, Workers: 1, Case: CaseWords, LenA: n})
}
