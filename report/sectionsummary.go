package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// sectionSummary opens the report: the machines, what was found (each
// finding with the reports' number beside ours), what did not run and
// why, said once, and what was read.
func sectionSummary(r *runs.Set) []document.Section {
	s := document.Section{ID: SectionSummary, Title: "Key results"}
	if len(r.Runs) == 0 {
		s.P("Measured: none. No <machine>/<scale>/ folder of results was found, so only the reports' own numbers are shown; run levlab reproduce (about a minute) or levlab run first.")
	} else {
		var on []string
		for _, ix := range r.Runs {
			m := ix.Machine()
			scale := ", " + ix.Run.Scale + " scale"
			if ix.ScaleNamed {
				scale = " scale"
			}
			vm := ""
			if h := ix.Host; h != nil && h.Virtual != nil && *h.Virtual {
				vm = " (a VM's virtual CPUs)"
			}
			on = append(on, fmt.Sprintf("%s%s, %d logical cores%s, %s (%s)", ix.Name, scale, m.Cores, vm, repsText(ix), ix.Where))
		}
		// An interval is of one run's repetitions: how far two runs of
		// one point lie apart is said beside it, once.
		var apart []string
		for _, ix := range r.Runs {
			if n, worst, _, _ := betweenRuns(ix); n > 0 {
				apart = append(apart, fmt.Sprintf("%s on %s", document.Times(worst), ix.Name))
			}
		}
		between := ""
		if len(apart) > 0 {
			between = " An interval is of one run's repetitions; one point measured in two experiments can lie further apart than that, up to " + document.JoinAnd(apart) + " between the two (Method)."
		}
		s.P("Measured on %s.", strings.Join(on, "; and "))
		s.P("Paper scale is the reports' own sizes (report 000's strings to 150,000 characters, report 003's texts of about 10⁸ bytes) and, beyond the reports, strings to 10⁶; own experiments run at the sizes their specs give, whatever the scale. Each point is the median of its repetitions; a table's range of them marked ‡ holds an outlier, a repetition over %d× the median.%s", outlierFactor, between)
		s.P("%s", rateDefinition(r.Counted()))
	}
	if r.Quick() {
		s.P("Quick scale: sizes below the reports' (to 10,000 characters where they go to 50,000 or more, and 2·10⁶ bytes for pattern matching where they use 1.4·10⁸), so that the whole set runs in about a minute. The reports' sizes: levlab run --scale paper (30 minutes on a 2-core AMD EPYC), then levlab report.")
	}
	if len(r.Runs) > 0 {
		s.Add(keyTable(r))
	}
	if r.NoPublish != "" {
		s.P("Published: %s; the reports' columns below are empty.", r.NoPublish)
	}
	out := []document.Section{s}
	if nr := notRunSection(r); len(nr.Blocks) > 0 {
		out = append(out, nr)
	}
	if rd := readSection(r); len(rd.Blocks) > 0 {
		out = append(out, rd)
	}
	return out
}

// bestRate is the report's best DP rate: n² cells in sec seconds, with
// the table it is from and how it was run.
type bestRate struct {
	n          int
	sec, gcups float64
	table, how string
}

// publishedBestGCUPS is the best cells per second of report 000's
// Tables 1 (OpenMP) and 2 (CUDA): its DP fills every cell, so the matrix
// rate is its computed rate too.
func publishedBestGCUPS(r *runs.Set) (bestRate, bool) {
	var b bestRate
	for _, p := range r.Pub(func(p records.Published) bool {
		return p.Source == records.Seed000 && (p.Table == "Table 1" || p.Table == "Table 2") && p.Metric == "seconds" && p.Value > 0
	}) {
		if g := float64(p.LenA) * float64(p.LenB) / p.Value / 1e9; g > b.gcups {
			how := fmt.Sprintf("%d threads", p.Workers)
			switch {
			case p.Table == "Table 2":
				how = fmt.Sprintf("CUDA, block %d", p.Block)
			case p.Workers <= 1:
				how = "sequential"
			}
			b = bestRate{p.LenA, p.Value, g, p.Table, how}
		}
	}
	return b, b.gcups > 0
}

// notRunSection says once why points did not run — the GPU's reason once
// for every machine that gave it — then one line per experiment with how
// many, and the points themselves folded.
func notRunSection(r *runs.Set) document.Section {
	s := document.Section{ID: SectionNotRun, Title: "What did not run"}
	// A reason is said once, with each of its details and the machines
	// that gave them: every GPU point of a machine without CUDA is one
	// reason, "no GPU", whatever layer passed it up.
	type detail struct {
		text     string
		machines []string
	}
	type reason struct {
		note    string
		details []*detail
	}
	var reasons []*reason
	type expCount struct {
		exp string
		on  []string
	}
	var lines []*expCount
	t := &document.Table{Caption: "Every point not run", Folded: true, Head: []string{"machine", "experiment", "algorithm", "points", "lengths", "why"}}
	withGPU := gpuMachines(r)
	for _, ix := range r.Runs {
		byExp := map[string]int{}
		var exps []string
		skips := foldWorkers(ix.Skips)
		for _, sk := range skips {
			if byExp[sk.Key.Experiment] == 0 {
				exps = append(exps, sk.Key.Experiment)
			}
			byExp[sk.Key.Experiment]++
			why, more := records.SkipCause(sk.Note)
			i := slices.IndexFunc(reasons, func(x *reason) bool { return x.note == why })
			if i < 0 {
				reasons = append(reasons, &reason{note: why})
				i = len(reasons) - 1
			}
			j := slices.IndexFunc(reasons[i].details, func(d *detail) bool { return d.text == more })
			if j < 0 {
				reasons[i].details = append(reasons[i].details, &detail{text: more})
				j = len(reasons[i].details) - 1
			}
			if d := reasons[i].details[j]; !slices.Contains(d.machines, ix.Name) {
				d.machines = append(d.machines, ix.Name)
			}
		}
		for _, e := range exps {
			i := slices.IndexFunc(lines, func(l *expCount) bool { return l.exp == e })
			if i < 0 {
				lines = append(lines, &expCount{exp: e})
				i = len(lines) - 1
			}
			lines[i].on = append(lines[i].on, fmt.Sprintf("%d on %s", byExp[e], ix.Name))
		}
		for _, row := range skipRows(skips) {
			t.Rows = append(t.Rows, append([]string{ix.Name}, row...))
		}
	}
	if len(reasons) == 0 {
		return s
	}
	for i, rs := range reasons {
		n := ""
		if len(reasons) > 1 {
			n = fmt.Sprintf("(%d) ", i+1)
		}
		var on []string
		for _, d := range rs.details {
			if rs.note == records.NoGPU {
				on = append(on, fmt.Sprintf("%s (on %s)", d.text, strings.Join(d.machines, " and ")))
			} else {
				on = append(on, fmt.Sprintf("on %s, not run: %s", strings.Join(d.machines, " and "), d.text))
			}
		}
		if rs.note == records.NoGPU {
			if len(withGPU) == 0 {
				s.P("%sNo GPU, so no GPU point ran. CUDA is unavailable: %s.", n, strings.Join(on, "; "))
			} else {
				s.P("%sGPU points ran on %s alone. Elsewhere CUDA is unavailable: %s.", n, strings.Join(withGPU, " and "), strings.Join(on, "; "))
			}
		} else {
			s.P("%s%s.", n, upperFirst(strings.Join(on, "; ")))
		}
	}
	slices.SortFunc(lines, func(a, b *expCount) int { return strings.Compare(a.exp, b.exp) })
	// One paragraph, an experiment a clause.
	var counts []string
	for _, l := range lines {
		counts = append(counts, fmt.Sprintf("in %s, %s", l.exp, strings.Join(l.on, ", ")))
	}
	if len(counts) > 0 {
		s.P("Points not run: %s.", strings.Join(counts, "; "))
	}
	// Each reason is said above; the table names the points.
	for _, row := range t.Rows {
		i := slices.IndexFunc(reasons, func(x *reason) bool { return x.note == row[len(row)-1] })
		row[len(row)-1] = "as said above"
		if len(reasons) > 1 {
			row[len(row)-1] = fmt.Sprintf("the reason numbered %d above", i+1)
		}
	}
	s.Add(t)
	return s
}

// workersIn finds the workers a skip note names ("with 2 workers"), and
// lengths written without separators ("n = 1000").
var (
	workersIn = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`with (\d+) workers?\b`) })
	bareCount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([nm]) = (\d{4,})\b`) })
	oldAnswer = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`answered (\d+), want (\d+) \(the line ("(?:[^"\\]|\\.)*")\)`)
	})
)

// readNote is a record's note as the report says it: a wrong answer as
// records before 2026-11-27 wrote it, whose parenthesis nested inside the
// report's own, in today's words, and lengths with their separators.
func readNote(note string) string {
	note = oldAnswer().ReplaceAllString(note, "answered $1 on the line $3, want $2")
	return bareCount().ReplaceAllStringFunc(note, func(s string) string {
		m := bareCount().FindStringSubmatch(s)
		n, _ := strconv.Atoi(m[2])
		return m[1] + " = " + document.Size(n)
	})
}

// foldWorkers returns skips with each note that differs from another
// only in its workers joined into one: "failed … with 1 worker" and
// "… with 2 workers" both read "… with 1 and 2 workers", so that one
// cause is said once.
func foldWorkers(skips []runs.Skip) []runs.Skip {
	const mark = "with \x00 workers"
	workers := map[string][]int{}
	for _, sk := range skips {
		m := workersIn().FindStringSubmatch(sk.Note)
		if m == nil {
			continue
		}
		k := workersIn().ReplaceAllLiteralString(sk.Note, mark)
		w, _ := strconv.Atoi(m[1])
		if !slices.Contains(workers[k], w) {
			workers[k] = append(workers[k], w)
		}
	}
	out := make([]runs.Skip, len(skips))
	for i, sk := range skips {
		note := sk.Note
		k := workersIn().ReplaceAllLiteralString(note, mark)
		if ws := workers[k]; len(ws) > 1 && strings.Count(k, mark) == 1 {
			slices.Sort(ws)
			names := make([]string, len(ws))
			for j, w := range ws {
				names[j] = strconv.Itoa(w)
			}
			note = strings.Replace(k, mark, "with "+document.JoinAnd(names)+" workers", 1)
		}
		out[i] = runs.Skip{Key: sk.Key, Note: note}
	}
	return out
}

// skipRows groups skipped points by experiment, algorithm and note: how
// many, and the lengths they span.
func skipRows(sk []runs.Skip) [][]string {
	type group struct {
		exp, alg, note string
		n              int
		lens           []int
	}
	var groups []*group
	for _, s := range sk {
		why, _ := records.SkipCause(s.Note)
		i := slices.IndexFunc(groups, func(g *group) bool {
			return g.exp == s.Key.Experiment && g.alg == s.Key.Algorithm && g.note == why
		})
		if i < 0 {
			groups = append(groups, &group{exp: s.Key.Experiment, alg: s.Key.Algorithm, note: why})
			i = len(groups) - 1
		}
		g := groups[i]
		g.n++
		if !slices.Contains(g.lens, s.Key.LenA) {
			g.lens = append(g.lens, s.Key.LenA)
		}
	}
	var rows [][]string
	for _, g := range groups {
		slices.Sort(g.lens)
		var ls []string
		for _, n := range g.lens {
			ls = append(ls, document.Size(n))
		}
		rows = append(rows, []string{g.exp, g.alg, strconv.Itoa(g.n), strings.Join(ls, ", "), g.note})
	}
	return rows
}

// readSection says what was read, what was left out and why.
func readSection(r *runs.Set) document.Section {
	s := document.Section{ID: SectionRead, Title: "What was read"}
	var notes []string
	for _, ix := range r.Runs {
		if out := ix.Rows - ix.Tally.Used; out > 0 {
			named := "named below"
			if out > len(ix.LeftOut) {
				named = fmt.Sprintf("the first %d named below", len(ix.LeftOut))
			}
			notes = append(notes, fmt.Sprintf("Left out of %s: %s of its %s records, %s; every median, table and chart uses the other %s.",
				ix.Where, document.Count(out), document.Count(ix.Rows), named, document.Count(ix.Tally.Used)))
		}
		if ix.Tally.Used == 0 {
			notes = append(notes, fmt.Sprintf("%s: no measured records at all.", ix.Where))
		}
		for _, p := range ix.Problems {
			notes = append(notes, "Could not use: "+p)
		}
		var absent []string
		for _, e := range runs.KnownExperiments {
			if !ix.Has(e) && len(ix.SkipsOf(e)) == 0 {
				absent = append(absent, e)
			}
		}
		if len(absent) > 0 && ix.Tally.Used > 0 {
			notes = append(notes, fmt.Sprintf("Not in %s (no record, run or skipped): %s.", ix.Where, strings.Join(absent, ", ")))
		}
		if len(ix.Unknown) > 0 {
			notes = append(notes, "Not recognised, so not drawn: "+strings.Join(ix.Unknown, "; ")+".")
		}
	}
	for _, p := range r.Problems {
		notes = append(notes, "Could not use: "+p)
	}
	old := oldTable(r)
	if old != nil {
		notes = append(notes, "Made before their code last changed, so of an earlier version than this one's (they may disagree with newer records; levlab run --fresh measures them again): "+oldSummary(r)+"; each section's † note names its commits, and the HTML, Markdown and TeX versions add a table of the algorithms and commits (not in print).")
	}
	if n, stale := benchAges(r); n > 0 && stale == 0 && r.BenchKnown() == n {
		notes = append(notes, fmt.Sprintf("The %d benchmark files (make bench-results) are checked alike: none predates the code it times.", n))
	}
	for _, f := range r.Ignored {
		notes = append(notes, "Not read: "+f+".")
	}
	if len(notes) == 0 {
		return s
	}
	for _, n := range notes {
		s.P("%s", n)
	}
	for _, ix := range r.Runs {
		if len(ix.LeftOut) == 0 {
			continue
		}
		t := &document.Table{Caption: "Records left out of " + ix.Where, Head: []string{"where", "why"}}
		for _, p := range ix.LeftOut {
			t.Rows = append(t.Rows, []string{p.File + ":" + strconv.Itoa(p.Line), p.Why})
		}
		if more := ix.Rows - ix.Tally.Used - len(ix.LeftOut); more > 0 {
			t.Rows = append(t.Rows, []string{"…", fmt.Sprintf("and %s more", document.Count(more))})
		}
		s.Add(t)
	}
	if old != nil {
		s.Add(old)
	}
	return s
}

// oldSummary says, machine by machine, which experiments have records
// older than their code: "on M, a, b; on N, c".
// benchAges counts the benchmark files read and, of them, those made
// before the code they time last changed (r.Staleness's bench/ rows).
func benchAges(r *runs.Set) (n, stale int) {
	for _, files := range r.Bench {
		n += len(files)
	}
	for _, o := range r.Staleness() {
		if strings.HasPrefix(o.Exp, "bench/") {
			stale++
		}
	}
	return n, stale
}

func oldSummary(r *runs.Set) string {
	var says []string
	for i, o := range r.Staleness() { // sorted by machine, then experiment
		switch {
		case i == 0 || o.Machine != r.Staleness()[i-1].Machine:
			says = append(says, "on "+o.Machine+", "+o.Exp)
		case o.Exp != r.Staleness()[i-1].Exp:
			says[len(says)-1] += ", " + o.Exp
		}
	}
	return strings.Join(says, "; ") + behind(r)
}

// behind says, machine by machine, how many of the commits that changed
// the algorithms' code its older records lack (Set.ChangesSince): how far
// each column's code is behind; "" where git cannot tell.
func behind(r *runs.Set) string {
	var says []string
	for _, ix := range r.Runs {
		lo, hi := behindRange(r, ix)
		switch {
		case hi < 0:
		case lo == hi:
			says = append(says, fmt.Sprintf("%s on %s", document.Count(hi), ix.Name))
		default:
			says = append(says, fmt.Sprintf("%s to %s on %s", document.Count(lo), document.Count(hi), ix.Name))
		}
	}
	if len(says) == 0 {
		return ""
	}
	return " (older than this code by commits that changed an algorithm's code: " + strings.Join(says, ", ") + ")"
}

// behindRange is the least and the most commits that changed an
// algorithm's code that run ix's older records lack; -1, -1 where it has
// none or git cannot tell.
func behindRange(r *runs.Set, ix *runs.Index) (lo, hi int) {
	lo, hi = -1, -1
	for _, o := range r.Staleness() {
		if o.Machine != ix.Name {
			continue
		}
		if n, ok := r.ChangesSince(ix, o.Made.Commit); ok {
			if lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
	}
	return lo, hi
}

// oldTable lists the records older than their code, or nil where there
// are none: folded, as oldSummary says what it holds in a line a machine.
func oldTable(r *runs.Set) *document.Table {
	old := r.Staleness()
	if len(old) == 0 {
		return nil
	}
	t := &document.Table{Caption: "Records made before their algorithm's code last changed (git log of the code's files)", Prose: true, Folded: true,
		Head: []string{"machine", "experiment", "algorithms", "made at", "the code last changed at"}}
	for _, o := range old {
		algs := strings.Join(o.Algs, ", ")
		if algs == "" {
			algs = "every benchmark of the file"
		}
		t.Rows = append(t.Rows, []string{o.Machine, o.Exp, algs, o.Made.String(), o.Changed.String()})
	}
	return t
}
