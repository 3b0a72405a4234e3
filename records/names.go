package records

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
