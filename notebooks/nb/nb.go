// Package nb is what levlab's notebooks (notebooks/*.ipynb, run by the
// GoNB kernel) call besides lev, experiments and report: where the
// repository and its results are, at which scale to run, and how to show
// tables, charts and errors in a notebook cell. It holds no algorithm and
// no experiment of its own.
//
// The environment sets a notebook run:
//
//	LEVLAB_SCALE  quick (the default) or paper: the experiments' sizes
//	LEVLAB_REPS   timed repetitions per point (default 3 at quick, 10 at paper)
//	LEVLAB_OUT    where runs and exports go (default: runs in results/ of the repository, as
//	              levlab run; exports where the cell's flag says, else a temporary folder)
//	LEVLAB_ROOT   the repository (default: found upwards from the working directory)
//
// Functions named Show… and Load… display in the notebook through gonbui;
// outside GoNB they do nothing. The functions returning HTML or Markdown
// are what they display, for testing and for other pages.
package nb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/report"
)

// Module is the module path of the repository the notebooks belong to.
const Module = "github.com/levlab/levlab"

// QuickReps is the number of timed repetitions per point at the quick
// scale: enough for a median and a spread, few enough for a notebook run
// in CI.
const QuickReps = 3

// Env is where a notebook reads and writes, and at which scale it runs.
type Env struct {
	// Root is the repository.
	Root string
	// Results is the repository's results/: published/ and the committed
	// records, <machine>/<scale>/.
	Results string
	// Measured is where this notebook's runs append their records:
	// <out>/<machine>/<scale>/, with <out> LEVLAB_OUT or Results.
	Measured string
	// Export is where the write-up writes its tables and figures:
	// LEVLAB_OUT/export, or "" when LEVLAB_OUT is unset — then the cell's
	// own flag, or ExportDir's temporary folder; never the repository
	// unasked.
	Export string
	// Scale is LEVLAB_SCALE's, quick when unset.
	Scale experiments.Scale
	// Reps is LEVLAB_REPS, or QuickReps at quick and
	// experiments.DefaultReps at paper.
	Reps int
}

// Setup reads the environment (see the package comment) and returns the
// Env of this run. It creates no folder.
func Setup() (Env, error) {
	root, err := Root()
	if err != nil {
		return Env{}, err
	}
	e := Env{Root: root, Results: filepath.Join(root, "results"), Scale: experiments.Quick}
	if s := os.Getenv("LEVLAB_SCALE"); s != "" {
		if e.Scale, err = experiments.ParseScale(s); err != nil {
			return Env{}, fmt.Errorf("nb: LEVLAB_SCALE: %w", err)
		}
	}
	e.Reps = QuickReps
	if e.Scale == experiments.Paper {
		e.Reps = experiments.DefaultReps
	}
	if s := os.Getenv("LEVLAB_REPS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return Env{}, fmt.Errorf("nb: LEVLAB_REPS is %q; want a whole number >= 1", s)
		}
		e.Reps = n
	}
	out, export := e.Results, ""
	if o := os.Getenv("LEVLAB_OUT"); o != "" {
		if out, err = filepath.Abs(o); err != nil {
			return Env{}, fmt.Errorf("nb: LEVLAB_OUT: %w", err)
		}
		export = filepath.Join(out, "export")
	}
	id, err := experiments.MachineID()
	if err != nil {
		return Env{}, fmt.Errorf("nb: %w", err)
	}
	e.Measured = records.RunDir(out, id, string(e.Scale))
	e.Export = export
	return e, nil
}

// ExportDir returns where an export goes, and makes the folder: flag when
// the cell's flag says, else e.Export (LEVLAB_OUT/export), else
// levlab-writeup in the system's temporary folder — the same for every cell
// of a run, never the repository — and then temporary is true, for the
// cell to say so.
func (e Env) ExportDir(flag string) (dir string, temporary bool, err error) {
	dir = flag
	if dir == "" {
		dir = e.Export
	}
	if dir == "" {
		dir, temporary = filepath.Join(os.TempDir(), "levlab-writeup"), true
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, fmt.Errorf("nb: export folder: %w", err)
	}
	return dir, temporary, nil
}

// Root returns the repository: LEVLAB_ROOT when set, else the first folder
// upwards from the working directory (a notebook runs in notebooks/) whose
// go.mod declares Module.
func Root() (string, error) {
	if r := os.Getenv("LEVLAB_ROOT"); r != "" {
		if !isRoot(r) {
			return "", fmt.Errorf("nb: LEVLAB_ROOT is %s, which holds no go.mod of %s", r, Module)
		}
		return filepath.Abs(r)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("nb: %w", err)
	}
	for dir := wd; ; {
		if isRoot(dir) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("nb: no go.mod of %s in %s or above it; open the notebooks from the repository, or set LEVLAB_ROOT", Module, wd)
		}
		dir = up
	}
}

func isRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.TrimSpace(mod) == Module
		}
	}
	return false
}

// Run times the named experiments at e's scale and repetitions, appending
// their records to e.Measured, and writes one line per finished point to
// out (nil: none). Points already recorded there are not timed again; GPU
// points without a GPU are recorded as skipped, with the reason.
func (e Env) Run(ctx context.Context, out io.Writer, names ...string) (experiments.Summary, error) {
	exps, err := experiments.Lookup(names)
	if err != nil {
		return experiments.Summary{}, err
	}
	if err := os.MkdirAll(e.Measured, 0o755); err != nil {
		return experiments.Summary{}, fmt.Errorf("nb: %w", err)
	}
	r := experiments.Runner{Scale: e.Scale, Reps: e.Reps, Dir: e.Measured, Out: out}
	return r.Run(ctx, exps)
}

// Sections returns the report of e's own run (e.Measured) beside the
// published numbers, section by section.
func (e Env) Sections() ([]report.Section, error) {
	machine := filepath.Base(filepath.Dir(e.Measured))
	return report.Sections(report.Options{Results: e.Results, Measured: e.Measured, Machines: []string{machine}, Align: AlignCIGAR})
}

// CommittedSections returns the report of the paper-scale runs under
// e.Results — every machine's, the reports' own sizes — beside the published
// numbers, section by section.
func (e Env) CommittedSections() ([]report.Section, error) {
	return report.Sections(report.Options{Results: e.Results, Scale: records.ScalePaper, Align: AlignCIGAR})
}

// Section returns the section with the given id (report.SectionR000 …:
// "r000" … "r004", "beyond", "gpu", "benchmarks", "method", "summary") of
// secs.
func Section(secs []report.Section, id string) (report.Section, error) {
	ids := make([]string, len(secs))
	for i, s := range secs {
		if s.ID == id {
			return s, nil
		}
		ids[i] = s.ID
	}
	return report.Section{}, fmt.Errorf("nb: the report has no section %q; it has %s", id, strings.Join(ids, ", "))
}

// Pair returns two strings of lengths n and m whose bytes are drawn
// uniformly from the distinct bytes of alphabet, by a generator seeded
// with seed: the same arguments give the same pair. For exploring; the
// experiments make theirs with experiments.Inputs.
func Pair(n, m int, alphabet string, seed uint64) (a, b []byte, err error) {
	if n < 0 || m < 0 {
		return nil, nil, fmt.Errorf("nb: lengths %d and %d: a length must not be negative", n, m)
	}
	var symbols []byte
	var seen [256]bool
	for i := range len(alphabet) {
		if c := alphabet[i]; !seen[c] {
			seen[c] = true
			symbols = append(symbols, c)
		}
	}
	if len(symbols) == 0 {
		return nil, nil, errors.New("nb: the alphabet is empty; give at least one symbol")
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(symbols))))
	draw := func(k int) []byte {
		s := make([]byte, k)
		for i := range s {
			s[i] = symbols[rng.IntN(len(symbols))]
		}
		return s
	}
	return draw(n), draw(m), nil
}

// Alphabet returns the first k symbols of the printable ASCII letters and
// digits, then of every byte: an alphabet of k distinct symbols, 1 <= k <=
// 256.
func Alphabet(k int) (string, error) {
	if k < 1 || k > 256 {
		return "", fmt.Errorf("nb: alphabet size %d: want 1 to 256 symbols", k)
	}
	const readable = "ACGTBDEFHIJKLMNOPQRSUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	out := []byte(readable[:min(k, len(readable))])
	for c := 0; len(out) < k; c++ {
		if !strings.ContainsRune(readable, rune(c)) {
			out = append(out, byte(c))
		}
	}
	return string(out), nil
}

// MedianSeconds returns the median of Seconds over the ok records that keep
// accepts, and how many there were (0 and 0 when none).
func MedianSeconds(recs []records.Record, keep func(records.Record) bool) (float64, int) {
	var xs []float64
	for _, r := range recs {
		if r.Status == records.StatusOK && keep(r) {
			xs = append(xs, r.Seconds)
		}
	}
	if len(xs) == 0 {
		return 0, 0
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2], len(xs)
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2, len(xs)
}
