package runs

import (
	"context"
	"maps"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/levlab/levlab/records"
)

// codePaths are the sources, as git pathspecs from the repository's root
// (a file, a folder, or a pattern of path.Match), that an algorithm's time
// depends on: a record made before the last commit that changed them
// measured other code than this version's. Peers (other libraries) have
// none. Every source of lev, match, cudaext and internal/bitpar is some
// algorithm's, or named in the test with the reason no record times it
// (TestCodePathsClaimEverySource).
var codePaths = func() map[string][]string {
	// Every distance: the entry points and the table, the options and
	// their checks, the memory a call may take.
	common := []string{"lev/lev.go", "lev/options.go", "lev/matrixmem.go"}
	// One worker runs the same pass as many (myersparallel.go's myersPass),
	// the ranks' link among its units (ranks.go); the step of a word is
	// bitpar's.
	myers := append(slices.Clone(common), "lev/myers.go", "lev/myers_*",
		"lev/myerstrim.go", "lev/blockmyers.go", "lev/myersparallel.go", "lev/parking.go", "lev/ranks.go", "internal/bitpar")
	parallel := myers
	auto := parallel // Distance's; Cross and All add pairsCode
	cuda := append(slices.Clone(common), "lev/cuda.go", "cudaext")
	// What every GPU job runs through: the driver, NVRTC and the one
	// program every kernel is compiled in, the jobs and their timing.
	gpuJobs := []string{"cudaext/cudaext.go", "cudaext/api.go", "cudaext/driver*", "cudaext/lv_driver.*", "cudaext/module.go",
		"cudaext/lv_module.c", "cudaext/kernels.go", "cudaext/kernels/common.cuh", "cudaext/cache.go", "cudaext/jobs.go", "cudaext/lv_jobs.c"}
	// What Count runs, its GPU share's window count included: not
	// Positions, which no experiment times.
	apm := append([]string{"match/match.go", "match/options.go", "match/apm*", "match/filter*", "match/lanes*", "internal/bitpar",
		"cudaext/match.go", "cudaext/kernels/windows.cu"}, gpuJobs...)
	return map[string][]string{
		records.AlgFullMatrix:    append(slices.Clone(common), "lev/fullmatrix.go"),
		records.AlgTwoRow:        append(slices.Clone(common), "lev/tworow.go"),
		records.AlgDiagonal:      append(slices.Clone(common), "lev/diagonal.go", "lev/barrier.go"),
		records.AlgTiled:         append(slices.Clone(common), "lev/tiled.go"),
		records.AlgTiledBarrier:  append(slices.Clone(common), "lev/tiledbarrier.go", "lev/barrier.go"),
		records.AlgMyers:         myers,
		records.AlgMyersParallel: parallel,
		records.AlgAuto:          auto,
		records.AlgAlign:         append(slices.Clone(auto), "lev/align.go", "lev/lastcol.go"),
		records.AlgCUDADiagonal:  cuda,
		records.AlgCUDAMatrix:    cuda,
		records.AlgCUDAFast:      cuda,
		records.AlgAPM:           apm,
		records.AlgAPMFast:       apm,
		records.AlgAPMNaive:      apm,
	}
}()

// pairsCode is what Cross and All run besides each pair's algorithm: the
// pairs spread over the workers and gathered in rows, cuda-fast's one GPU
// job, and the lanes that compute several pairs at once. The records of
// pairsExps, and the benchmark files that time many pairs, depend on it
// as well as on their algorithm's code.
var pairsCode = []string{"lev/pairs.go", "lev/blocklanes*", "lev/wordlanes*"}

// pairsExps are the experiments whose records time Cross or All.
var pairsExps = []string{records.ExpManyPairs, records.ExpSuggest}

// recordCode is the code a record of experiment exp and algorithm alg
// times: its algorithm's, and pairsCode in pairsExps. A peer has none.
func recordCode(exp, alg string) []string {
	paths := codePaths[alg]
	if len(paths) > 0 && slices.Contains(pairsExps, exp) {
		paths = append(slices.Clone(paths), pairsCode...)
	}
	return paths
}

// codeSpecs are git's pathspecs of every algorithm's code (codePaths and
// pairsCode), the history gitFor reads: its glob magic matches as
// path.Match does, a star within one folder.
func codeSpecs() []string {
	var out []string
	for _, ps := range append(slices.Collect(maps.Values(codePaths)), pairsCode) {
		for _, p := range ps {
			if p := ":(glob)" + p; !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// benchCode is what each benchmark file of make bench-results times
// (others: every CPU algorithm's, cpuPaths).
var benchCode = map[string][]string{
	"align.txt":         codePaths[records.AlgAlign],
	"distance.txt":      codePaths[records.AlgAuto],
	"similar.txt":       codePaths[records.AlgAuto],
	"kernel.txt":        codePaths[records.AlgMyers],
	"matrix.txt":        append(slices.Clone(codePaths[records.AlgAuto]), pairsCode...),
	"pairs.txt":         append(slices.Clone(codePaths[records.AlgAuto]), pairsCode...),
	"match.txt":         codePaths[records.AlgAPMFast],
	"many.txt":          codePaths[records.AlgAPMFast],
	"gpu.txt":           append(slices.Clone(codePaths[records.AlgCUDAFast]), pairsCode...),
	"scaleout.txt":      append(slices.Clone(codePaths[records.AlgAuto]), pairsCode...),
	"scaleout-huge.txt": codePaths[records.AlgAuto],
}

// Change is a commit and its date (YYYY-MM-DD).
type Change struct{ Commit, Date string }

// String writes the commit, abbreviated to 12 digits, and its date:
// "894ddd2c0a1b (2026-11-21)"; a record's commit made from a tree with
// uncommitted changes keeps its -dirty ("e4fc9a06ff04-dirty (2026-11-26)").
func (c Change) String() string {
	id, dirty := strings.CutSuffix(c.Commit, "-dirty")
	id = id[:min(len(id), 12)]
	if dirty {
		id += "-dirty"
	}
	return id + " (" + c.Date + ")"
}

// gitInfo answers, from the git history of the repository that holds the
// results, when code last changed and whether a commit has a change.
// Without git or a repository it knows nothing, and nothing is called old.
// It asks git twice, then once per commit asked about, and keeps the
// answers for the process (gitInfos).
type gitInfo struct {
	mu      sync.Mutex
	top     string
	history []gitCommit            // the commits that changed an algorithm's code (codeSpecs), newest first
	last    map[string]Change      // pathspecs joined: their last change
	seen    map[string]*commitInfo // a record's commit: its date and ancestors
}

type gitCommit struct {
	Change
	files []string
}

type commitInfo struct {
	ok        bool
	date      string
	ancestors map[string]bool // full hashes, itself included
}

var gitInfos sync.Map // repository root → *gitInfo

// gitFor returns the gitInfo of the repository that holds dir, nil where
// there is none (or no git).
func gitFor(dir string) *gitInfo {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil || top == "" {
		return nil
	}
	if g, ok := gitInfos.Load(top); ok {
		return g.(*gitInfo)
	}
	g := &gitInfo{top: top, last: map[string]Change{}, seen: map[string]*commitInfo{}}
	// A commit changes a file's code where it adds or removes a line
	// that is neither blank nor a comment: one that changes only comments
	// (a doc, a note) leaves the measured code as it was. -G lists, of
	// each commit, only the files with such a line.
	args := append([]string{"log", "-G" + codeLine, "--format=@%H %cs", "--name-only", "--"}, codeSpecs()...)
	if out, err := git(top, args...); err == nil {
		for _, line := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(line, "@"):
				h, d, _ := strings.Cut(line[1:], " ")
				g.history = append(g.history, gitCommit{Change: Change{h, d}})
			case line != "" && len(g.history) > 0 && !strings.HasSuffix(line, "_test.go"):
				c := &g.history[len(g.history)-1]
				c.files = append(c.files, line)
			}
		}
	}
	v, _ := gitInfos.LoadOrStore(top, g)
	return v.(*gitInfo)
}

// codeLine matches a line of code, for git log -G: one whose first
// character other than a space is not a slash (a // comment, or a /* one's
// first line).
const codeLine = `^[[:space:]]*[^/[:space:]]`

func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...).Output()
	return strings.TrimSpace(string(out)), err
}

// lastChange returns the last commit that changed the code of a file of
// paths (each a file, a folder or a pattern of path.Match), tests and
// comments aside.
func (g *gitInfo) lastChange(paths []string) (Change, bool) {
	if g == nil || len(paths) == 0 {
		return Change{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	k := strings.Join(paths, " ")
	if c, ok := g.last[k]; ok {
		return c, c.Commit != ""
	}
	var c Change
	for _, h := range g.history {
		if slices.ContainsFunc(h.files, func(f string) bool { return slices.ContainsFunc(paths, func(p string) bool { return pathHas(p, f) }) }) {
			c = h.Change
			break
		}
	}
	g.last[k] = c
	return c, c.Commit != ""
}

// pathHas reports whether the file f is p, under the folder p, or matches
// the pattern p.
func pathHas(p, f string) bool {
	if f == p || strings.HasPrefix(f, p+"/") {
		return true
	}
	ok, _ := path.Match(p, f)
	return ok
}

// commit returns what git knows of a record's commit ("-dirty" allowed).
func (g *gitInfo) commit(rec string) *commitInfo {
	rec = strings.TrimSuffix(rec, "-dirty")
	g.mu.Lock()
	defer g.mu.Unlock()
	if ci, ok := g.seen[rec]; ok {
		return ci
	}
	ci := &commitInfo{ancestors: map[string]bool{}}
	if rec != "" && rec != "unknown" {
		if out, err := git(g.top, "log", "--format=%H %cs", rec+"^{commit}", "--"); err == nil && out != "" {
			ci.ok = true
			for i, line := range strings.Split(out, "\n") {
				h, d, _ := strings.Cut(line, " ")
				if i == 0 {
					ci.date = d
				}
				ci.ancestors[h] = true
			}
		}
	}
	g.seen[rec] = ci
	return ci
}

// made reports whether the commit rec (a record's) has the change chg,
// and whether git could tell.
func (g *gitInfo) made(rec string, chg Change) (has, known bool) {
	if g == nil {
		return false, false
	}
	ci := g.commit(rec)
	return ci.ancestors[chg.Commit], ci.ok
}

// OldRecords is a run's experiment measured, for some algorithms, at a
// commit before their code last changed; or a benchmark file (Exp
// "bench/NAME", no Algs) made before the code it times last changed.
type OldRecords struct {
	Machine, Exp  string   // the run's Index.Name, the experiment
	Algs          []string // sorted
	Made, Changed Change   // the records' commit, the code's last change
}

// Staleness finds, run by run, the experiments and algorithms whose
// records were made before their code's last change (git log of the
// repository that holds the records), and the benchmark files made
// before the code they time changed, sorted by machine and experiment;
// it keeps the answer in s. Without git it finds none.
func (s *Set) Staleness() []OldRecords {
	if s.stale != nil {
		return *s.stale
	}
	var out []OldRecords
	for _, ix := range s.Runs {
		g := gitFor(ix.Run.Dir)
		// One row an experiment and a commit it was made at, its
		// algorithms' code last changed at the latest of their changes.
		type group struct{ exp, made string }
		groups := map[group]*OldRecords{}
		for ea, commits := range ix.Tally.made {
			chg, ok := g.lastChange(recordCode(ea[0], ea[1]))
			if !ok {
				continue
			}
			for c := range commits {
				if has, known := g.made(c, chg); known && !has {
					k := group{ea[0], c}
					o := groups[k]
					if o == nil {
						o = &OldRecords{Machine: ix.Name, Exp: ea[0], Made: Change{c, g.commit(c).date}, Changed: chg}
						groups[k] = o
					}
					if later, _ := g.made(chg.Commit, o.Changed); later {
						o.Changed = chg
					}
					o.Algs = append(o.Algs, ea[1])
				}
			}
		}
		for _, f := range s.Bench[ix.Run.Machine] {
			c := f.Config["commit"]
			chg, ok := g.lastChange(benchFileCode(filepath.Base(f.Path)))
			if !ok {
				continue
			}
			has, known := g.made(c, chg)
			if known {
				s.benchKnown++
			}
			if known && !has {
				out = append(out, OldRecords{Machine: ix.Name, Exp: "bench/" + filepath.Base(f.Path), Made: Change{c, g.commit(c).date}, Changed: chg})
			}
		}
		for _, o := range groups {
			sort.Strings(o.Algs)
			out = append(out, *o)
		}
	}
	// Groups of one machine and experiment (made at different commits)
	// come from a map: their order is set here too.
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Machine != b.Machine:
			return a.Machine < b.Machine
		case a.Exp != b.Exp:
			return a.Exp < b.Exp
		case a.Made.Commit != b.Made.Commit:
			return a.Made.Commit < b.Made.Commit
		case a.Changed.Commit != b.Changed.Commit:
			return a.Changed.Commit < b.Changed.Commit
		}
		return strings.Join(a.Algs, ",") < strings.Join(b.Algs, ",")
	})
	s.stale = &out
	return out
}

// ChangesSince returns how many of the commits that changed an
// algorithm's code (the history Staleness reads, to the repository's
// head) the commit rec of run ix's records lacks: how far that code is
// behind this one. ok is false where git cannot tell.
func (s *Set) ChangesSince(ix *Index, rec string) (n int, ok bool) {
	g := gitFor(ix.Run.Dir)
	if g == nil {
		return 0, false
	}
	ci := g.commit(rec)
	if !ci.ok {
		return 0, false
	}
	for _, h := range g.history {
		if !ci.ancestors[h.Commit] {
			n++
		}
	}
	return n, true
}

// IsOld reports whether run ix's records of any of exps are older than
// their code.
func (s *Set) IsOld(ix *Index, exps ...string) bool {
	for _, o := range s.Staleness() {
		if o.Machine == ix.Name && slices.Contains(exps, o.Exp) {
			return true
		}
	}
	return false
}

// OldCommits lists the commits run ix's records of exps older than their
// code were made at, each once, in order.
func (s *Set) OldCommits(ix *Index, exps ...string) []string {
	var out []string
	for _, o := range s.Staleness() {
		if o.Machine == ix.Name && slices.Contains(exps, o.Exp) && !slices.Contains(out, o.Made.Commit) {
			out = append(out, o.Made.Commit)
		}
	}
	sort.Strings(out)
	return out
}

// Commits lists the commits run ix's records of exps were made at, each
// once, in order.
func Commits(ix *Index, exps ...string) []string {
	var out []string
	for ea, commits := range ix.Tally.made {
		if !slices.Contains(exps, ea[0]) {
			continue
		}
		for c := range commits {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	sort.Strings(out)
	return out
}

// BenchKnown counts the benchmark files read whose age git can tell:
// when the code they time last changed, and whether their commit holds
// that change (Staleness lists those that do not).
func (s *Set) BenchKnown() int {
	s.Staleness()
	return s.benchKnown
}

// DirtyCommits lists the commits ending -dirty (a tree with changes no
// commit holds) that run ix's records of exps were made at.
func DirtyCommits(ix *Index, exps ...string) []string {
	var out []string
	for _, c := range Commits(ix, exps...) {
		if DirtyCommit(c) {
			out = append(out, c)
		}
	}
	return out
}

// benchFileCode returns the code a benchmark file of make bench-results
// times: benchCode's, or for lev.txt (one pair per call) every CPU
// algorithm's but match's and many pairs', for any other every CPU
// algorithm's.
func benchFileCode(name string) []string {
	if paths, ok := benchCode[name]; ok {
		return paths
	}
	if name == "lev.txt" {
		return slices.DeleteFunc(cpuPaths(), func(p string) bool { return pathHas("match", p) || slices.Contains(pairsCode, p) })
	}
	return cpuPaths()
}

// cpuPaths is every CPU algorithm's code, and many pairs': not cudaext,
// which match's GPU share alone of them runs.
func cpuPaths() []string {
	var out []string
	for alg, ps := range codePaths {
		if strings.HasPrefix(alg, "cuda-") {
			continue
		}
		for _, p := range ps {
			if !pathHas("cudaext", p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	out = append(out, pairsCode...)
	sort.Strings(out)
	return out
}

// DirtyCommit reports whether a record's commit names a tree with changes
// no commit holds.
func DirtyCommit(c string) bool { return strings.HasSuffix(c, "-dirty") }
