package records

import "strings"

// The names levlab writes into records: its experiments' (column
// experiment) and every algorithm's a point may name (column algorithm),
// for readers that look records up by name — the report — so that the
// compiler checks every name a reader uses. Package experiments names its
// experiments with these; lev, match and the peers name their algorithms
// themselves, and a test holds the two equal.
const (
	ExpAlign        = "align"
	ExpGPUFast      = "gpu-fast"
	ExpManyPairs    = "many-pairs"
	ExpPeers        = "peers"
	ExpS000Fig3     = "s000-fig3"
	ExpS000Fig4     = "s000-fig4"
	ExpS000Table1   = "s000-table1"
	ExpS000Table2   = "s000-table2"
	ExpS001Diagonal = "s001-diagonal"
	ExpS001Length   = "s001-length"
	ExpS001Ratio    = "s001-ratio"
	ExpS001Threads  = "s001-threads"
	ExpS001Tile     = "s001-tile"
	ExpS002Cases    = "s002-cases"
	ExpS003Ranks    = "s003-ranks"
	ExpS003Ratio    = "s003-ratio"
	ExpS004Memory   = "s004-memory"
	ExpSuggest      = "suggest"
)

const (
	AlgAgnivade      = "agnivade"
	AlgAlign         = "align"
	AlgAPM           = "apm"
	AlgAPMFast       = "apm-fast"
	AlgAPMNaive      = "apm-naive"
	AlgAuto          = "auto"
	AlgCUDADiagonal  = "cuda-diagonal"
	AlgCUDAFast      = "cuda-fast"
	AlgCUDAMatrix    = "cuda-matrix"
	AlgDiagonal      = "diagonal"
	AlgEdlib         = "edlib"
	AlgFullMatrix    = "fullmatrix"
	AlgKaWeihe       = "ka-weihe"
	AlgMyers         = "myers"
	AlgMyersParallel = "myers-parallel"
	AlgTiled         = "tiled"
	AlgTiledBarrier  = "tiled-barrier"
	AlgTwoRow        = "tworow"
)

// Experiments lists every experiment's name, sorted.
func Experiments() []string {
	return []string{ExpAlign, ExpGPUFast, ExpManyPairs, ExpPeers, ExpS000Fig3, ExpS000Fig4, ExpS000Table1, ExpS000Table2, ExpS001Diagonal, ExpS001Length, ExpS001Ratio, ExpS001Threads, ExpS001Tile, ExpS002Cases, ExpS003Ranks, ExpS003Ratio, ExpS004Memory, ExpSuggest}
}

// Algorithms lists every algorithm's name a point may hold, sorted:
// lev's, match's, the peers', align and apm (the published rows of report
// 003).
func Algorithms() []string {
	return []string{AlgAgnivade, AlgAlign, AlgAPM, AlgAPMFast, AlgAPMNaive, AlgAuto, AlgCUDADiagonal, AlgCUDAFast, AlgCUDAMatrix, AlgDiagonal, AlgEdlib, AlgFullMatrix, AlgKaWeihe, AlgMyers, AlgMyersParallel, AlgTiled, AlgTiledBarrier, AlgTwoRow}
}

// The cases a point's inputs are made by (column case): how its two
// strings are drawn (package experiments says each in full). A spec's
// [inputs] case takes the first six.
const (
	CaseRandom    = "random"
	CaseDNA       = "dna"
	CaseIdentical = "identical"
	CasePartial   = "partial"
	CaseDiverged  = "diverged"
	CaseDifferent = "different"
	CaseWords     = "words"
)

// Cases lists the cases of two strings drawn by levlab, in the order a
// spec's error names them: every case but CaseWords (suggest's typos).
func Cases() []string {
	return []string{CaseRandom, CaseDNA, CaseIdentical, CasePartial, CaseDiverged, CaseDifferent}
}

// The course reports' files in seeds/ (column source begins with one):
// the published numbers quote them, and the report's sections are theirs.
const (
	Seed000 = "000_f95d38889c436586.txt" // Ceccherelli: OpenMP tiles, CUDA diagonal
	Seed001 = "001_8b686fade13c5d8b.txt" // Carkaxhija: diagonal and tiles, OpenMP and C++ threads
	Seed002 = "002_3ec02276a69ac2d5.txt" // Yang: full matrix on the GPU, three cases
	Seed003 = "003_422d252da101b2d8.txt" // Benbaki & Mammadov: approximate pattern matching, MPI + OpenMP + CUDA
	Seed004 = "004_d35d496d9e84808f.txt" // blog: two rows instead of the matrix
)

// ReadFromNote is the note of an ok row of an implementation of one's own
// that was read from a run another implementation made of the same
// program (impls that share their runs: spec.SharedRuns): "read from
// NAME's run".
func ReadFromNote(name string) string { return "read from " + name + "'s run" }

// ReadFrom returns the implementation an ok row's note says it was read
// from (ReadFromNote), and whether it says so.
func ReadFrom(note string) (string, bool) {
	rest, ok := strings.CutPrefix(note, "read from ")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, "'s run")
}
