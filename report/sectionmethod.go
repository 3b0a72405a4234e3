package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// sectionMethod names each machine as its records do, and says how the
// numbers were taken: the repetitions each run holds, what the clock
// times, the warm-up, the statistics, and where they are weakest (the
// same point measured in several experiments, outliers).
func sectionMethod(r *runs.Set) document.Section {
	s := document.Section{ID: SectionMethod, Title: "Machines and method"}
	if len(r.Runs) == 0 {
		s.P("No run was read, so no machine is known.")
		return s
	}
	t := &document.Table{Caption: "Our machines, from the records, the cpu line of their benchmark files, and levlab info (" + runs.HostFile + ")", Head: []string{""}, Prose: true}
	rows := [][]string{{"CPU"}, {"logical cores"}, {"clock (the system's)"}, {"memory"}, {"vector extensions"}, {"OS kernel"}, {"GPU"},
		{"Go"}, {"levlab commits"}, {"repetitions a point"}, {"folder (…/scale)"}}
	var reps, described, undescribed []string
	for _, ix := range r.Runs {
		m := ix.Machine()
		t.Head = append(t.Head, ix.Name)
		least, most, _ := ix.RepsRange()
		rp := strconv.Itoa(most)
		if least != most {
			rp = fmt.Sprintf("%d to %d", least, most)
		}
		reps = append(reps, fmt.Sprintf("%s on %s", repsText(ix), ix.Name))
		host := hostRows(ix.Host, m.GPU != "none")
		if ix.Host != nil {
			described = append(described, fmt.Sprintf("%s's written by levlab %s", ix.Name, shortCommit(ix.Host.Commit)))
		} else {
			undescribed = append(undescribed, ix.Name)
		}
		cpu := m.CPU
		if b := benchCPU(r, ix); b != "—" && b != cpu {
			cpu += " (go test: " + b + ")"
		}
		cores := strconv.Itoa(m.Cores) + ", " + host.smt
		gpu := m.GPU
		if gpu != "none" {
			gpu += " (driver: " + host.driver + ")"
		}
		commits := strings.Join(m.Commits, ", ")
		if bc := benchCommits(r.Bench[ix.Run.Machine]); bc != "" {
			commits += " (benchmarks" + bc + ")"
		}
		for i, v := range []string{cpu, cores, host.clock, host.memory, host.isa, host.kernel, gpu, m.GoVersion, commits, rp, ix.Where} {
			rows[i] = append(rows[i], v)
		}
	}
	t.Rows = rows
	s.Add(t)
	says := "The rows from clock to GPU are levlab info's, kept as " + runs.HostFile + " in the machine's folder"
	if slices.ContainsFunc(r.Runs, func(ix *runs.Index) bool { return ix.Host != nil && ix.Host.Own }) {
		says += " or, for a run of its own (levlab run --out), beside its records"
	}
	if len(described) > 0 {
		says += " (" + strings.Join(described, "; ") + ")"
	}
	if len(undescribed) > 0 {
		those := "those machines"
		if len(undescribed) == 1 {
			those = "that machine"
		}
		keep := " keep none: of "
		if len(undescribed) == 1 {
			keep = " keeps none: of "
		}
		says += "; " + document.JoinAnd(undescribed) + keep + those + ", only what the records carry"
	}
	s.P("%s. A VM's clock and cores are what its hypervisor shows.", says)
	bench := ""
	if counts := benchCounts(r); counts != "" {
		bench = " The benchmarks (make bench-results, results/<machine>/bench/; quoted in the text) give the median of " + counts + ", each go test's mean over its -benchtime iterations."
	}
	s.P("Timing: each point's inputs are made outside the clock, then the point is called once untimed (the warm-up: code paged in, a GPU kernel compiled and loaded), and then timed %s.%s A repetition's time is the wall time of the one call (time.Now around it), with the heap collected before it (an own program's: as its Clocks say); the memory the call allocates is inside the time (report 002's table without it subtracts the matrix's, which fullmatrix measures apart). A GPU point's time is the whole call: device allocation, the copies both ways, the kernels and the frees.", strings.Join(reps, "; "), bench)
	s.P("Statistics: tables and charts give the median and the repetitions' minimum and maximum (below it; as whiskers), each of our numbers to three significant digits (E, e, f to two decimals; a bound near 1 to as many as tell it from 1). Every ratio, efficiency and serial fraction is of unrounded medians, and a rate is the median of the repetitions' rates, not the rate of the median time: either may differ in its last digit from one worked from the printed values. A speedup divides the baseline's median by the point's; its interval is a 95%% percentile bootstrap of that ratio (%d resamples of both points' repetitions, a fixed seed), where both points have %d repetitions or more, else the range their minimum and maximum give; with 5 or 6 repetitions (the fewest here) it is too narrow, reaching no further than the values do: read it as rough. Where the two did not compute the same cells (the many pairs' benchmark, edlib timed on the first 40 strings against all), the ratio is of their median rates instead. A ratio over a published number (one value) takes the distribution-free interval of our median alone (order statistics, by golang.org/x/perf/benchmath), where there are %d repetitions or more: with n repetitions even their whole range holds the median only with probability 1 − 2/2ⁿ (93.75%% for n = 5), so from fewer none is given. It is called significant only where the Mann–Whitney U test rejects the hypothesis of no difference at the 0.05 level and the interval leaves out 1×. How much a speedup changes from one point to another (report 001's length ratios) is the quotient of the two speedups, its interval a bootstrap over all four points' repetitions (for the highest of k points, chosen after looking, Bonferroni's: the 1 − 0.05/k interval), and it is called significant where that interval leaves out 1×. The tests are not corrected for multiple comparisons: at the 0.05 level about one in twenty may pass by chance. Published numbers are the reports' own (means of their runs, where they say), to four significant digits as printed, three where they printed more; a value we read or derive is marked so.", runs.BootRounds, runs.BootMin, orderStatMin())
	if says := spreadBetweenRuns(r); says != "" {
		s.P("%s", says)
	}
	if says := outliers(r); says != "" {
		s.P("%s", says)
	}
	return s
}

// benchCPU is the cpu line of run ix's benchmark files, "" without any.
func benchCPU(r *runs.Set, ix *runs.Index) string {
	var cpus []string
	for _, f := range r.Bench[ix.Run.Machine] {
		if c := strings.TrimSpace(f.Config["cpu"]); c != "" && !slices.Contains(cpus, c) {
			cpus = append(cpus, c)
		}
	}
	if len(cpus) == 0 {
		return "—"
	}
	return strings.Join(cpus, "; ")
}

// spreadBetweenRuns says how far apart the medians of one point measured
// in several experiments of one run are (betweenRuns). "" where no point
// was measured twice.
func spreadBetweenRuns(r *runs.Set) string {
	var says, none []string
	for _, ix := range r.Runs {
		n, worst, lo, hi := betweenRuns(ix)
		if n == 0 {
			none = append(none, ix.Name)
			continue
		}
		cases := ""
		if lo.Case != hi.Case {
			cases = fmt.Sprintf(", on strings of case %s and of %s, the same cells", lo.Case, hi.Case)
		}
		on := lo.Algorithm
		if lo.Workers > 0 {
			on += ", " + workersN(lo.Workers)
		}
		few := ""
		if n < 10 {
			few = "; so few points make it a lower bound"
		}
		says = append(says, fmt.Sprintf("on %s, %d points measured in more than one experiment, their medians up to %s apart (%s, n = %s%s: %s in %s against %s in %s%s)",
			ix.Name, n, document.Times(worst), on, document.Size(lo.LenA), cases, document.Dur(ix.Stats[lo].Med), lo.Experiment, document.Dur(ix.Stats[hi].Med), hi.Experiment, few))
	}
	if len(says) == 0 {
		return ""
	}
	text := "Between runs: the same point measured in several experiments of one machine differs more than its repetitions do — " + strings.Join(says, "; ") + ". A difference of a few per cent between two experiments' points is within this spread, and is no finding."
	if len(none) > 0 {
		// Said, so that no spread is not read as a small one.
		text += " On " + document.JoinAnd(none) + " no point was measured alike twice: its spread between runs is not known."
	}
	return text
}

// outlierFactor is how many times its median a repetition must take to
// be named an outlier (document's, which marks them in charts' tables).
const outlierFactor = document.OutlierFactor

// workersOrRanks names what point k ran on: "4 ranks" for a point of
// ranks, else its workers.
func workersOrRanks(k runs.Key) string {
	if k.Ranks > 0 {
		return fmt.Sprintf("%d rank%s", k.Ranks, plural(k.Ranks))
	}
	return workersN(k.Workers)
}

// outliers names, run by run, how many points have a repetition past
// outlierFactor times their median, and the worst; then what the
// outliers share, where they share a size: a large allocation (pages
// faulted in afresh) or a point under a millisecond (one interruption),
// and the others by name. Medians keep them out of every figure; the
// ranges shown keep them in.
func outliers(r *runs.Set) string {
	var says, kinds []string
	shortSaid := false
	for _, ix := range r.Runs {
		n, worst := 0, 0.0
		var wk runs.Key
		var big, short, other []runs.Key
		for k, st := range ix.Stats {
			if st.Med <= 0 {
				continue
			}
			x := st.Max / st.Med
			if x > outlierFactor {
				n++
				switch {
				case st.Alloc >= bigAlloc:
					big = append(big, k)
				case st.Med < 1e-3:
					short = append(short, k)
				default:
					other = append(other, k)
				}
			}
			if x > worst || (x == worst && runs.Less(k, wk)) {
				worst, wk = x, k
			}
		}
		if n > 0 {
			says = append(says, fmt.Sprintf("on %s, %d point%s, the worst %s its median (%s, %s, n = %s, experiment %s: %s against %s)",
				ix.Name, n, plural(n), document.Times(worst), wk.Algorithm, workersOrRanks(wk), document.Size(wk.LenA), wk.Experiment, document.Dur(ix.Stats[wk].Max), document.Dur(ix.Stats[wk].Med)))
		} else if len(ix.Stats) > 0 {
			says = append(says, fmt.Sprintf("on %s, none (the widest %s its median)", ix.Name, document.Times(worst)))
		}
		if k := outlierKinds(ix, n, big, short, other, shortSaid); k != "" {
			kinds = append(kinds, k)
		}
		shortSaid = shortSaid || len(short) > 0
	}
	if len(says) == 0 {
		return ""
	}
	text := fmt.Sprintf("Outliers, a repetition over %d× its point's median: %s.", outlierFactor, strings.Join(says, "; "))
	if len(kinds) > 0 {
		text += " " + strings.Join(kinds, " ")
	}
	return text + " Medians resist them in every figure and ratio; the ranges shown keep them, and a table marks such a range ‡."
}

// bigAlloc is the allocation from which a point's outlier is put down to
// its pages (outlierKinds): 256 MiB.
const bigAlloc = 256 << 20

// outlierKinds says what run ix's n outliers share: big, the points that
// allocate bigAlloc or more, short, those under a millisecond (the
// reason given once: shortSaid where an earlier run's sentence gave it),
// and other, the rest, by name; "" where n is 0.
func outlierKinds(ix *runs.Index, n int, big, short, other []runs.Key, shortSaid bool) string {
	if n == 0 {
		return ""
	}
	var parts []string
	if len(big) > 0 {
		lo, hi := math.Inf(1), 0.0
		minA, maxA := math.Inf(1), 0.0
		algs := map[string]bool{}
		for _, k := range big {
			st := ix.Stats[k]
			lo, hi = min(lo, st.Max/st.Med), max(hi, st.Max/st.Med)
			minA, maxA = min(minA, st.Alloc), max(maxA, st.Alloc)
			algs[k.Algorithm] = true
		}
		parts = append(parts, fmt.Sprintf("%d allocate %s–%s a repetition (%s), and one repetition ran %s–%s its median: memory faulted in afresh on a VM, we take it (no page-fault count is recorded)",
			len(big), document.BytesStr(minA), document.BytesStr(maxA), strings.Join(slices.Sorted(maps.Keys(algs)), ", "), document.Num(lo), document.Times(hi)))
	}
	if len(short) > 0 {
		why := "where one interruption (the scheduler, the hypervisor) is as long as the point"
		if shortSaid {
			why = "as above"
		}
		if len(short) == n {
			return fmt.Sprintf("All %d on %s take under a millisecond, %s.", n, ix.Name, why)
		}
		parts = append(parts, fmt.Sprintf("%d take under a millisecond, %s", len(short), why))
	}
	if len(other) > 0 {
		slices.SortFunc(other, func(a, b runs.Key) int {
			sa, sb := ix.Stats[a], ix.Stats[b]
			return cmp.Compare(sb.Max/sb.Med, sa.Max/sa.Med)
		})
		// The worst by name; the rest counted, with the worst of them.
		var names []string
		for _, k := range other[:1] {
			st := ix.Stats[k]
			names = append(names, fmt.Sprintf("%s, %s, n = %s, in %s (%s, median %s)", k.Algorithm, workersOrRanks(k), document.Size(k.LenA), k.Experiment, document.Times(st.Max/st.Med), document.Dur(st.Med)))
		}
		if rest := other[1:]; len(rest) > 0 {
			st := ix.Stats[rest[0]]
			names = append(names, fmt.Sprintf("and %d more, up to %s", len(rest), document.Times(st.Max/st.Med)))
		}
		parts = append(parts, fmt.Sprintf("%d share neither, and the records say nothing of their cause: %s", len(other), strings.Join(names, "; ")))
	}
	return fmt.Sprintf("Of the %d on %s, %s.", n, ix.Name, strings.Join(parts, "; "))
}

// benchCounts says how many runs of each benchmark the files hold (go
// test -count): "3 runs of each benchmark", or "2 to 5 runs …"; "" where
// no benchmark file was read.
func benchCounts(r *runs.Set) string {
	var all []records.BenchFile
	for _, files := range r.Bench {
		all = append(all, files...)
	}
	least, most := benchRuns(all)
	switch {
	case most == 0:
		return "" // none read: the sentence is left out
	case least == most:
		return fmt.Sprintf("%d run%s of each benchmark (go test -count)", most, plural(most))
	}
	return fmt.Sprintf("%d to %d runs of each benchmark (go test -count)", least, most)
}

// benchRuns is the fewest and the most runs of one benchmark in files.
func benchRuns(files []records.BenchFile) (least, most int) {
	for _, f := range files {
		n := map[string]int{}
		for _, res := range f.Results {
			n[res.Name]++
		}
		for _, c := range n {
			if least == 0 || c < least {
				least = c
			}
			most = max(most, c)
		}
	}
	return least, most
}

// orderStatMin is the fewest repetitions of which a distribution-free
// 95% interval of the median exists: their range holds it with chance
// 1 − 2/2ⁿ, 0.95 or more from n = 6 on.
func orderStatMin() int {
	n := 1
	for 1-2*math.Pow(0.5, float64(n)) < 0.95 {
		n++
	}
	return n
}

// benchMedianOf says what a figure read from files is: the code it was
// measured at and "the median of 3 runs", or "of 2 to 3 runs".
func benchMedianOf(files []records.BenchFile) string {
	return benchCommits(files) + benchRunCount(files)
}

// benchCommits is the code the files were measured at, " at <commit>"
// (each commit once, in the files' order); "" where none says.
func benchCommits(files []records.BenchFile) string {
	var cs []string
	for _, f := range files {
		if c := f.Config["commit"]; c != "" && !slices.Contains(cs, shortCommit(c)) {
			cs = append(cs, shortCommit(c))
		}
	}
	if len(cs) == 0 {
		return ""
	}
	return " at " + document.JoinAnd(cs)
}

// benchRunCount is benchMedianOf's count of runs: ", each the median of 3
// runs"; "" where no file holds a result.
func benchRunCount(files []records.BenchFile) string {
	least, most := benchRuns(files)
	switch {
	case most == 0:
		return ""
	case least == most:
		return fmt.Sprintf(", each the median of %d run%s", most, plural(most))
	}
	return fmt.Sprintf(", each the median of %d to %d runs", least, most)
}

// elsewhereApart is how far apart one point's medians in two experiments
// must be for a section to say so where the point appears: more than the
// few per cent Method calls no finding.
const elsewhereApart = 1.2

// elsewhereMost is how many such points sameElsewhere names a machine, the
// widest apart; the rest it counts.
const elsewhereMost = 1

// sameElsewhere says in s, machine by machine, the points of exps that
// were measured in another experiment too and whose medians there lie
// more than elsewhereApart apart: one point, several runs, so that a
// reader meeting another figure for it in another section knows why. The
// widest first, elsewhereMost a machine in the text, and every one in a
// folded table after it.
//
// A point is said once, in the first section that draws one of its
// experiments, so that no note is printed twice.
func sameElsewhere(r *runs.Set, s *document.Section, exps ...string) {
	var says []string
	var all *document.Table
	for _, ix := range r.Runs {
		type far struct {
			text string
			x    float64
		}
		var fars []far
		for _, ks := range ix.SamePoints() {
			var here, there []runs.Key
			for _, k := range ks {
				if slices.Contains(exps, k.Experiment) {
					here = append(here, k)
				} else {
					there = append(there, k)
				}
			}
			if len(here) == 0 || len(there) == 0 || firstSaid(there) < firstSaid(here) {
				continue // none, or said in an earlier section
			}
			all := append(slices.Clone(here), there...)
			lo, hi := ix.Stats[all[0]].Med, ix.Stats[all[0]].Med
			for _, k := range all {
				lo, hi = min(lo, ix.Stats[k].Med), max(hi, ix.Stats[k].Med)
			}
			if lo <= 0 || hi/lo <= elsewhereApart {
				continue
			}
			h := here[0]
			name := fmt.Sprintf("%s, %s, n = %s", h.Algorithm, workersN(h.Workers), document.Size(h.LenA))
			if h.LenB != h.LenA {
				name += ", m = " + document.Size(h.LenB)
			}
			fars = append(fars, far{fmt.Sprintf("%s: %s, %s, %s apart", name, medsIn(ix, here, ""), medsIn(ix, there, "in "), document.Times(hi/lo)), hi / lo})
		}
		if len(fars) == 0 {
			continue
		}
		slices.SortFunc(fars, func(a, b far) int {
			if a.x != b.x {
				return cmp.Compare(b.x, a.x)
			}
			return strings.Compare(a.text, b.text)
		})
		more := ""
		if len(fars) > elsewhereMost {
			more = fmt.Sprintf("; %d more, in that table", len(fars)-elsewhereMost)
			if all == nil {
				more = fmt.Sprintf("; %d more, named in a table of such points in the HTML, Markdown and TeX versions (not in print)", len(fars)-elsewhereMost)
			}
			// Every one of them named, a click away in HTML (left off
			// paper, whole in Markdown and TeX).
			if all == nil {
				all = &document.Table{Caption: "Points of this section measured in other experiments too, their medians more than " + document.Times(elsewhereApart) + " apart", Head: []string{"machine", "point: its medians here, elsewhere, how far apart"}, Folded: true}
			}
			for _, f := range fars {
				all.Rows = append(all.Rows, []string{ix.Name, f.text})
			}
			fars = fars[:elsewhereMost]
		}
		var texts []string
		for _, f := range fars {
			texts = append(texts, f.text)
		}
		says = append(says, fmt.Sprintf("on %s, %s%s", ix.Name, strings.Join(texts, "; "), more))
	}
	if len(says) > 0 {
		s.P("Measured elsewhere too, one point in several runs (Method: between runs), not a difference between experiments: %s.", strings.Join(says, "; "))
	}
	if all != nil {
		s.Add(all)
	}
}

// medsIn says the medians of points ks of one point: "477 ms in
// s000-fig3", or "354 ms–483 ms in s000-fig3 and s004-memory", or "… in
// 4 experiments" past three; with in "" (the points here) the
// experiments follow in parentheses where there are several.
func medsIn(ix *runs.Index, ks []runs.Key, in string) string {
	lo, hi := ix.Stats[ks[0]].Med, ix.Stats[ks[0]].Med
	var exps []string
	for _, k := range ks {
		lo, hi = min(lo, ix.Stats[k].Med), max(hi, ix.Stats[k].Med)
		exps = append(exps, k.Experiment)
	}
	slices.Sort(exps)
	what := document.JoinAnd(exps)
	if len(exps) > 3 {
		what = fmt.Sprintf("%d experiments", len(exps))
	}
	v := document.Dur(lo)
	if len(ks) > 1 {
		v += "–" + document.Dur(hi)
	}
	switch {
	case in != "":
		return v + " " + in + what
	case len(ks) > 1:
		return v + " here (" + what + ")"
	}
	return v + " here"
}

// laterSections orders the experiments drawn after the course reports'
// sections (s000-… to s004-…, which sort by name), as the report does.
var laterSections = []string{records.ExpPeers, records.ExpManyPairs, records.ExpSuggest, records.ExpAlign, records.ExpGPUFast}

// firstSaid is the place in the report of the earliest section that draws
// one of ks's experiments: the course reports' by name, then
// laterSections.
func firstSaid(ks []runs.Key) int {
	first := math.MaxInt
	for _, k := range ks {
		at := len(laterSections) // an experiment of one's own: last
		if i := slices.Index(laterSections, k.Experiment); i >= 0 {
			at = i
		}
		if strings.HasPrefix(k.Experiment, "s00") && len(k.Experiment) >= 4 {
			at = int(k.Experiment[3]-'0') - 10 // s000 … s004 before every later one
		}
		first = min(first, at)
	}
	return first
}

// hostCells is what the machine table says of a machine from what levlab
// info said of it (runs.Host).
type hostCells struct{ smt, clock, memory, isa, kernel, driver string }

// hostRows is a machine's SMT, clock, memory, vector extensions, OS kernel
// and GPU driver, from what levlab info said of it; "not recorded" for
// each where it said nothing (h nil), "unknown" where it could not tell,
// and "—" for a driver without a GPU.
func hostRows(h *runs.Host, gpu bool) hostCells {
	const none = "not recorded"
	if h == nil {
		return hostCells{"SMT " + none, none, none, none, none, none}
	}
	out := hostCells{"SMT unknown", "unknown", "unknown", "none Go found", "unknown", "—"}
	switch {
	case h.ThreadsPerCore == 1:
		out.smt = "no SMT"
	case h.ThreadsPerCore > 1:
		out.smt = fmt.Sprintf("SMT, %d threads a core", h.ThreadsPerCore)
	}
	if h.Virtual != nil && *h.Virtual {
		out.smt += "; virtual CPUs of a VM"
	}
	if h.CPUMHz > 0 {
		out.clock = fmt.Sprintf("%.0f MHz", h.CPUMHz)
	}
	if h.MemoryBytes > 0 {
		out.memory = document.BytesStr(float64(h.MemoryBytes))
	}
	if len(h.ISA) > 0 {
		out.isa = strings.Join(h.ISA, " ")
		if h.Kernel != "" {
			out.isa += "; levlab's kernel: " + h.Kernel
		}
	}
	if h.OSRelease != "" {
		out.kernel = h.OSRelease
	}
	switch {
	case h.GPUDriver != "":
		out.driver = "CUDA " + h.GPUDriver
	case gpu:
		out.driver = "unknown"
	}
	return out
}

// shortCommit is a commit's first 12 digits, "unknown" for none.
func shortCommit(c string) string {
	if c == "" {
		return "unknown"
	}
	return c[:min(12, len(c))]
}
