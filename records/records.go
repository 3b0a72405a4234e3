// Package records reads and writes levlab's results as CSV: the Records
// of our runs (one row per timed repetition, written by package
// experiments) and the numbers the reports Published. It depends on nothing
// else of the project, so that readers of results — the report, notebooks
// — need neither lev nor the experiments.
package records

import "strings"

// Record is one CSV row: one timed repetition of one point, or one row
// saying why a point was skipped or failed. Field order is the column order.
type Record struct {
	Experiment   string  `csv:"experiment"`
	Source       string  `csv:"source"`
	Scale        string  `csv:"scale"`
	Algorithm    string  `csv:"algorithm"`
	Ran          string  `csv:"ran"`         // what auto resolved to; else the algorithm
	Workers      int     `csv:"workers"`     // as the point asks (0: the default)
	RanWorkers   int     `csv:"ran_workers"` // as it ran
	Tile         int     `csv:"tile"`
	Block        int     `csv:"block"`
	GPURatio     float64 `csv:"gpu_ratio"`
	Ranks        int     `csv:"ranks"`
	Case         string  `csv:"case"`
	LenA         int     `csv:"len_a"`
	LenB         int     `csv:"len_b"`
	Rep          int     `csv:"rep"`    // 1..N; 0 on a skipped row
	Status       string  `csv:"status"` // "ok", "skipped" or "failed"
	Note         string  `csv:"note"`   // why skipped or failed; on an ok row, ReadFromNote where it was read from another's run
	Seconds      float64 `csv:"seconds"`
	AllocSeconds float64 `csv:"alloc_seconds"`
	Cells        int64   `csv:"cells"`          // of the matrix: len_a*len_b (many pairs: their sum)
	Computed     int64   `csv:"computed_cells"` // the cells the algorithm computed; 0: not counted
	GCUPS        float64 `csv:"gcups"`          // cells (of the matrix) a second, in billions: not a rate of computed cells
	Distance     int     `csv:"distance"`
	Matches      int64   `csv:"matches"`
	AllocBytes   int64   `csv:"alloc_bytes"` // heap bytes allocated by the call: its working memory
	CPU          string  `csv:"cpu"`
	Cores        int     `csv:"cores"`
	GPU          string  `csv:"gpu"`
	GoVersion    string  `csv:"go_version"`
	Commit       string  `csv:"commit"`
	Timestamp    string  `csv:"timestamp"` // RFC 3339, UTC
	// MadeBy, on a record of an experiment of one's own, is a hash of what
	// made it: the implementation's definition (its command, algorithm,
	// environment, regular expressions, the folder its command runs in)
	// and the inputs' (case, alphabet). A resumed run never counts a
	// record made by another definition as its own. The reports'
	// experiments leave it empty: their code is the commit.
	MadeBy string `csv:"made_by"`
	// CPUSeconds is the processor time of the repetition, user and
	// system, in seconds; 0: not measured. A command's is its rusage:
	// the program's and that of every process it waited for (mpirun
	// waits for its ranks), not of one it left running. A call inside
	// levlab's is the process's own (getrusage RUSAGE_SELF) over the
	// call. CPUSeconds/Seconds is about how many cores it kept busy.
	CPUSeconds float64 `csv:"cpu_seconds"`
}

// laterColumns are the columns of Record added after records were first
// written (made_by, computed_cells, cpu_seconds). A file without them
// still reads, each value empty (zero: not known); appending to it first
// rewrites it whole with them (see OpenAppend).
var laterColumns = []string{"made_by", "computed_cells", "cpu_seconds"}

// SourceOwn is the Source of every record of an experiment of one's own
// (a spec's): its experiment and algorithm names are its author's.
const SourceOwn = "own experiment"

// NoGPU is what SkipCause makes of the note of any point that needed a GPU
// on a machine without a usable one, whichever layer passed the error up.
const NoGPU = "no GPU"

// SkipCause returns why a skipped record's point did not run, without the
// layers that passed the error up: for a point that needed the GPU where
// CUDA is unavailable, NoGPU and why CUDA is unavailable; else the note
// itself (without its "skipped: ") as both. Two notes of one cause say it
// once.
func SkipCause(note string) (cause, detail string) {
	note = strings.TrimPrefix(note, "skipped: ")
	if _, d, ok := strings.Cut(note, "CUDA unavailable: "); ok {
		return NoGPU, d
	}
	return note, note
}

// Status values of a Record.
const (
	StatusOK      = "ok"
	StatusSkipped = "skipped"
	// StatusFailed is a point of an experiment of one's own whose
	// implementation gave a wrong answer or none (a crash, a non-zero
	// exit, a time-out): its Note says which, and it holds no time.
	StatusFailed = "failed"
)

// Published is one number a report published, in results/published/*.csv,
// so that the report can set it beside ours.
type Published struct {
	Source     string  `csv:"source"`     // report file, e.g. "000_f95d38889c436586.txt"
	Table      string  `csv:"table"`      // e.g. "Table 1", "Figure 5", "slide: CPU vs GPU"
	Experiment string  `csv:"experiment"` // our experiment it belongs beside
	Algorithm  string  `csv:"algorithm"`  // the closest lev algorithm name
	Workers    int     `csv:"workers"`
	Tile       int     `csv:"tile"`
	Block      int     `csv:"block"`
	Case       string  `csv:"case"`
	LenA       int     `csv:"len_a"`
	LenB       int     `csv:"len_b"`
	Metric     string  `csv:"metric"` // "seconds", "speedup", "speedup_min", …
	Value      float64 `csv:"value"`
	Machine    string  `csv:"machine"` // the report's machine, as it gives it
	Note       string  `csv:"note"`    // the report's own words where a number needs them
}
