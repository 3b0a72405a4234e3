package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/spec"
)

// This file is the part of an experiment of one's own that says how each
// implementation scales over its own one-worker time: speedup S(p) =
// T1/Tp, efficiency E(p) = S(p)/p, Karp–Flatt's serial fraction e(p), an
// Amdahl fit, and the cores each point kept busy (CPU time over time).

// karpFlatt returns the experimentally determined serial fraction of a
// speedup s on p workers (Karp and Flatt, 1990): e = (1/s − 1/p)/(1 −
// 1/p), the share of the one-worker time that did not run in parallel
// where Amdahl's law holds. It is NaN for p ≤ 1 or s ≤ 0.
func karpFlatt(s float64, p int) float64 {
	if p <= 1 || !(s > 0) {
		return math.NaN()
	}
	q := float64(p)
	return (1/s - 1/q) / (1 - 1/q)
}

// amdahlFit returns the serial fraction f that fits Amdahl's law, S(p) =
// 1/(f + (1−f)/p), to the speedups s on ps workers, by least squares of
// the time T_p/T_1 = 1/S the law predicts: 1/S − 1/p = f·(1 − 1/p) is
// linear in f, so f = Σ x·y / Σ x² with x = 1 − 1/p and y = 1/S − 1/p
// (the Karp–Flatt values weighted by x²). Points at p ≤ 1 or without a
// speedup are left out; ok is false where none is left. f is not held
// in [0, 1]: above 1 the implementation slows down on more workers,
// below 0 it speeds up more than p.
func amdahlFit(ps []int, s []float64) (f float64, ok bool) {
	var sxy, sxx float64
	for i, p := range ps {
		if p <= 1 || !(s[i] > 0) || math.IsInf(s[i], 0) {
			continue
		}
		x := 1 - 1/float64(p)
		y := 1/s[i] - 1/float64(p)
		sxy, sxx = sxy+x*y, sxx+x*x
	}
	if sxx == 0 {
		return 0, false
	}
	return sxy / sxx, true
}

// amdahl is the speedup Amdahl's law gives serial fraction f on p
// workers.
func amdahl(f float64, p int) float64 { return 1 / (f + (1-f)/float64(p)) }

// fixed2 writes x with two decimals, a half rounded away from 0 (0.625
// is 0.63): a fraction, an efficiency.
func fixed2(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	// A minus sign, not a hyphen.
	return strings.Replace(strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64), "-", "−", 1)
}

// scalePt is one point on more than one worker, and its speedup over the
// same implementation's one-worker point at the same inputs.
type scalePt struct {
	k      runs.Key
	one    runs.Key // the same implementation's one-worker point
	failed bool
	q      runs.Ratio
	ok     bool // q is known: both points have times
}

func (sp scalePt) s() float64  { return sp.q.X }
func (sp scalePt) e() float64  { return sp.q.X / float64(sp.k.Workers) }
func (sp scalePt) kf() float64 { return karpFlatt(sp.q.X, sp.k.Workers) }

// scaleRow is an implementation at one input (its tile, case and extras
// too): its one-worker point, and its points on more workers in order.
type scaleRow struct {
	line  runs.Key // the points' key with Workers 0
	one   runs.Key
	oneOK bool // one has a time
	pts   []scalePt
}

// ownScaling returns the rows of ks, a run's drawn points, that have a
// point on more than one worker, in the order of the spec's
// implementations, then of their inputs. A row divides by its one-worker
// point only where that is among ks.
func ownScaling(ix *runs.Index, v *ownView, ks []runs.Key) []scaleRow {
	drawn := map[runs.Key]bool{}
	for _, k := range ks {
		drawn[k] = true
	}
	byLine := map[runs.Key]*scaleRow{}
	var lines []runs.Key
	for _, k := range ks {
		if k.Workers <= 1 {
			continue
		}
		line := k
		line.Workers = 0
		row := byLine[line]
		if row == nil {
			one := line
			one.Workers = 1
			_, has := ix.Stats[one]
			row = &scaleRow{line: line, one: one, oneOK: has && drawn[one]} // a point outside the kept grid is not divided by
			byLine[line] = row
			lines = append(lines, line)
		}
		sp := scalePt{k: k, one: row.one}
		if _, sp.failed = ix.Tally.Failed[k]; !sp.failed && row.oneOK {
			sp.q, sp.ok = ix.SpeedupOf(row.one, k)
		}
		row.pts = append(row.pts, sp)
	}
	slices.SortStableFunc(lines, v.compareKeys)
	out := make([]scaleRow, 0, len(lines))
	for _, l := range lines {
		row := byLine[l]
		slices.SortFunc(row.pts, func(a, b scalePt) int { return a.k.Workers - b.k.Workers })
		out = append(out, *row)
	}
	return out
}

// lineName names an implementation at its tile and extras, without its
// workers and lengths.
func (v *ownView) lineName(k runs.Key) string {
	parts := []string{k.Algorithm}
	if k.Tile != 0 {
		parts = append(parts, "tile "+document.Count(k.Tile))
	}
	for _, d := range v.vary {
		parts = append(parts, d+" "+ownExtra(k, d))
	}
	return strings.Join(parts, ", ")
}

// sameLine reports whether a and b are one implementation at one tile
// and extras, whatever their workers and lengths.
func sameLine(a, b runs.Key) bool {
	a.Workers, a.LenA, a.LenB = 0, 0, 0
	b.Workers, b.LenA, b.LenB = 0, 0, 0
	return a == b
}

// ownClock says how an implementation of the spec was timed: "own" (the
// time it prints, time_regexp), "wall" (a command's wall time from start
// to exit) or "call" (a call inside levlab: an algorithm, a Go function);
// "" where no spec kept beside the records says.
func (v *ownView) ownClock(name string) string {
	if !v.kept {
		return ""
	}
	i := slices.IndexFunc(v.sp.Impl, func(im spec.Impl) bool { return im.Name == name })
	switch {
	case i < 0:
		return "call" // a Go function run beside the spec's
	case v.sp.Impl[i].TimeRegexp != "":
		return "own"
	case len(v.sp.Impl[i].Command) > 0:
		return "wall"
	}
	return "call"
}

// ignoresWorkers reports whether the kept spec runs name as a command
// that is given {workers} nowhere: not in its arguments, environment,
// stdin or input file.
func (v *ownView) ignoresWorkers(name string) bool {
	if !v.kept {
		return false
	}
	for _, im := range v.sp.Impl {
		if im.Name != name || len(im.Command) == 0 {
			continue
		}
		args := slices.Concat(im.Command, []string{im.Stdin, im.Input})
		for _, e := range im.Env {
			args = append(args, e)
		}
		return !progrun.Uses("{workers}", args...)
	}
	return false
}

// ownClocks is the sentence that says which implementations are timed by
// which clock.
func ownClocks(r *runs.Set, v *ownView) string {
	var names []string
	for _, ix := range r.Runs {
		for _, k := range v.keys(ix) {
			if !slices.Contains(names, k.Algorithm) {
				names = append(names, k.Algorithm)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	if !v.kept {
		return "No spec is kept beside these records, so they do not say which clock timed each implementation: a command's time is its wall time from start to exit unless its spec gave time_regexp, a call's the wall time of the call inside levlab."
	}
	var own, wall, call []string
	for _, name := range names {
		switch v.ownClock(name) {
		case "own":
			im := v.sp.Impl[slices.IndexFunc(v.sp.Impl, func(im spec.Impl) bool { return im.Name == name })]
			unit := map[string]string{"ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}[im.TimeUnit]
			if unit == "" {
				unit = "seconds"
			}
			own = append(own, fmt.Sprintf("%s (time_regexp %s, in %s)", name, strconv.Quote(im.TimeRegexp), unit))
		case "wall":
			wall = append(wall, name)
		default:
			// An implementation named apart from its algorithm says which
			// of levlab's it is.
			if i := slices.IndexFunc(v.sp.Impl, func(im spec.Impl) bool { return im.Name == name }); i >= 0 && v.sp.Impl[i].Algo != "" && v.sp.Impl[i].Algo != name {
				name += " (levlab's " + v.sp.Impl[i].Algo + ")"
			}
			call = append(call, name)
		}
	}
	var parts []string
	if len(own) > 0 {
		parts = append(parts, "the time it prints itself, start-up and reading left out: "+strings.Join(own, "; "))
	}
	if len(wall) > 0 {
		parts = append(parts, "the wall clock from start to exit, start-up included: "+strings.Join(wall, ", "))
	}
	if len(call) > 0 {
		parts = append(parts, "the wall clock around the call inside levlab: "+strings.Join(call, ", "))
	}
	return "Clocks: " + strings.Join(parts, "; ") + "." + sharedRunsText(r, v.sp.Name, names)
}

// sharedRunsText says which of names had their repetitions read from
// another implementation's runs of the same program, as their records'
// notes say (records.ReadFromNote), and how many: " Shared runs: the
// repetitions of b (12) and c (10 of 12, the others from its own runs)
// were read from a's runs of the same program, …"; "" where none was.
func sharedRunsText(r *runs.Set, exp string, names []string) string {
	byFrom := map[string][]string{} // the impls read from, joined: each reader and its count
	var order []string
	for _, name := range names {
		from, ok := map[string]int{}, 0
		for _, ix := range r.Runs {
			ei := [2]string{exp, name}
			ok += ix.Tally.OwnOK[ei]
			for f, n := range ix.Tally.ReadFrom[ei] {
				from[f] += n
			}
		}
		if len(from) == 0 {
			continue
		}
		var by []string
		read := 0
		for _, f := range slices.Sorted(maps.Keys(from)) {
			by = append(by, f+"'s")
			read += from[f]
		}
		count := document.Count(read)
		if ok > read {
			count = fmt.Sprintf("%s of %s, the others from its own runs", document.Count(read), document.Count(ok))
		}
		k := document.JoinAnd(by)
		if byFrom[k] == nil {
			order = append(order, k)
		}
		byFrom[k] = append(byFrom[k], fmt.Sprintf("%s (%s)", name, count))
	}
	var says []string
	for _, k := range order {
		says = append(says, "the repetitions of "+document.JoinAnd(byFrom[k])+" were read from "+k+" runs of the same program")
	}
	if len(says) == 0 {
		return ""
	}
	return " Shared runs: " + strings.Join(says, "; ") + ", each taking its own numbers from the output."
}

// coresText says how many cores a point kept busy: "1.92 cores", "≤ 1.13
// cores" for an implementation timed by its own clock (its CPU time counts
// the whole process, its time the kernel alone: the ratio is a bound), ""
// where the records hold no CPU time.
func (v *ownView) coresText(ix *runs.Index, k runs.Key) string {
	st, ok := ix.Stats[k]
	if !ok || st.Cores <= 0 {
		return ""
	}
	s := document.Num(st.Cores) + " cores"
	if v.ownClock(k.Algorithm) == "own" {
		// CPU time over a time the program printed (its kernel alone)
		// bounds the cores from above, and loosely: past the machine's
		// cores the machine is the tighter bound.
		if c := ix.Cores(); c > 0 && st.Cores > float64(c) {
			return fmt.Sprintf("≤ %d cores (the machine's)", c)
		}
		s = "≤ " + s
	}
	return s
}

// ownScalingTables are the compact tables of each implementation's times
// and speedups over its own one worker, as the course reports drew
// theirs: a table an implementation (at its tile and extras), a row a
// length, a column a worker count. Each cell holds the median time and,
// on more than one worker, S(p), with the range of the time below it and
// E(p), Karp–Flatt's e(p) and the cores kept busy; a speedup that is not
// significant says so, a failed point why. A table of one other worker
// count has three columns, and sits beside the next on paper.
func ownScalingTables(r *runs.Set, ix *runs.Index, v *ownView, rows []scaleRow) []*document.Table {
	var out []*document.Table
	for _, mine := range byLine(rows) {
		ws := []int{1}
		for _, row := range mine {
			for _, sp := range row.pts {
				if !slices.Contains(ws, sp.k.Workers) {
					ws = append(ws, sp.k.Workers)
				}
			}
		}
		slices.Sort(ws)
		// Karp–Flatt's e only where a cell gives it: a column of dashes
		// says nothing.
		withE := false
		for _, row := range mine {
			withE = withE || slices.ContainsFunc(row.pts, func(sp scalePt) bool { return sp.ok && kfShown(ix, sp) })
		}
		caption := "Median time of " + v.lineName(mine[0].line) + " in " + mine[0].line.Experiment + ", and its speedup over one worker" + onName(r, ix)
		if !withE {
			caption += " (Karp–Flatt's e left out: it is given for a significant speedup of at least 1×, a core for each worker, no outlier, and none here is one)"
		}
		t := &document.Table{Caption: caption, Head: []string{"lengths"}}
		for _, w := range ws {
			t.Head = append(t.Head, workersN(w))
		}
		for _, row := range mine {
			cells := []string{lengths(row.line)}
			for _, w := range ws {
				cells = append(cells, scaleCell(v, ix, row, w, withE))
			}
			t.Rows = append(t.Rows, cells)
		}
		t.Folded = v.reference(mine[0].line)
		out = append(out, t)
	}
	return out
}

// reference reports whether line is a call inside levlab (an algorithm
// set beside the programs), the reference rather than what the experiment
// studies: its scaling table is a click away in HTML, and left off paper.
func (v *ownView) reference(line runs.Key) bool {
	return v.ownClock(line.Algorithm) == "call"
}

// coversAll reports whether every point of ks is in a table of rows: on
// one worker, the point a row divides by, or on more, one of its points.
func coversAll(rows []scaleRow, ks []runs.Key) bool {
	in := map[runs.Key]bool{}
	for _, row := range rows {
		in[row.one] = true
		for _, sp := range row.pts {
			in[sp.k] = true
		}
	}
	return !slices.ContainsFunc(ks, func(k runs.Key) bool { return !in[k] })
}

// scaleCell is the cell of row at w workers: "—" where there is no such
// point; Karp–Flatt's e in it with withE.
func scaleCell(v *ownView, ix *runs.Index, row scaleRow, w int, withE bool) string {
	k, sp := row.one, scalePt{}
	if w != 1 {
		i := slices.IndexFunc(row.pts, func(sp scalePt) bool { return sp.k.Workers == w })
		if i < 0 {
			return "—"
		}
		k, sp = row.pts[i].k, row.pts[i]
	}
	if why, failed := ix.Tally.Failed[k]; failed {
		return "FAILED\n" + strings.TrimPrefix(why, "failed: ")
	}
	st, ok := ix.Stats[k]
	if !ok || (w == 1 && !row.oneOK) {
		return "—"
	}
	spread := document.Dur(st.Min) + "–" + document.Dur(st.Max)
	if st.Med > 0 && st.Max > outlierFactor*st.Med {
		spread += " ‡" // an outlier, as Method names them
	}
	top, below := document.Dur(st.Med), []string{spread}
	if sp.ok {
		top += ", " + document.Times(sp.s())
		if !sp.q.Significant {
			top += " n.s."
		}
		// Karp–Flatt's e is a share of T1 only where S ≥ 1, says
		// something only of a speedup the test tells from 1×, and of
		// Amdahl's law only where each worker has a core of its own.
		e := "e —"
		if kfShown(ix, sp) {
			e = "e " + fixed2(sp.kf()) + kfRange(sp)
		}
		if sp.q.CIKnown {
			below = append(below, "S's 95% CI "+document.CI(sp.q.Lo, sp.q.Hi))
		}
		below = append(below, "E "+fixed2(sp.e()))
		if withE {
			below = append(below, e)
		}
	}
	if c := v.coresText(ix, k); c != "" {
		below = append(below, c)
	}
	return top + "\n" + strings.Join(below, ", ")
}

// kfRange is the interval of a point's Karp–Flatt e that its speedup's
// interval gives, " (0.30–0.90)", or "" where the speedup has none: e
// falls as S rises, so S's upper bound gives e's lower.
func kfRange(sp scalePt) string {
	if !sp.q.CIKnown {
		return ""
	}
	return rangeOf(sp.kf(), karpFlatt(sp.q.Hi, sp.k.Workers), karpFlatt(sp.q.Lo, sp.k.Workers))
}

// rangeOf writes the interval lo–hi of a fraction x as " (0.30–0.90)",
// or "" where both bounds read as x does: an interval of one printed
// value says nothing.
func rangeOf(x, lo, hi float64) string {
	if fixed2(lo) == fixed2(x) && fixed2(hi) == fixed2(x) {
		return ""
	}
	return " (" + fixed2(lo) + "–" + fixed2(hi) + ")"
}

// byLine splits rows, sorted as ownScaling sorts them, into the rows of
// each implementation (at its tile and extras), each by length.
func byLine(rows []scaleRow) [][]scaleRow {
	var out [][]scaleRow
	for _, row := range rows {
		if n := len(out); n > 0 && sameLine(out[n-1][0].line, row.line) {
			out[n-1] = append(out[n-1], row)
			continue
		}
		out = append(out, []scaleRow{row})
	}
	return out
}

// topRow returns the index of the row of the largest length with an
// Amdahl fit on a machine of cores cores, or -1.
func topRow(rows []scaleRow, cores int) int {
	top := -1
	for i, row := range rows {
		if _, _, _, ok := fitOf(row, cores); ok {
			top = i
		}
	}
	return top
}

// ownScalingWords says in words, for each implementation, its serial
// fraction by Amdahl's law at the largest length it has speedups at (and
// at the others), how Karp–Flatt's e moves with the workers, and how many
// cores it kept busy on the most workers.
func ownScalingWords(r *runs.Set, ix *runs.Index, v *ownView, rows []scaleRow) string {
	var said []string
	for _, mine := range byLine(rows) {
		if w := lineWords(ix, v, mine); w != "" {
			said = append(said, w)
		}
	}
	if len(said) == 0 {
		return ""
	}
	if !slices.ContainsFunc(rows, func(row scaleRow) bool {
		return ix.Stats[row.one].Cores > 0 || slices.ContainsFunc(row.pts, func(sp scalePt) bool { return ix.Stats[sp.k].Cores > 0 })
	}) {
		said = append(said, "No CPU time is recorded (cpu_seconds), so no cores are shown.")
	}
	// Workers past the cores, said once for every implementation.
	past := ""
	most := 0
	for _, row := range rows {
		for _, sp := range row.pts {
			if sp.ok {
				most = max(most, sp.k.Workers)
			}
		}
	}
	if c := ix.Cores(); c > 0 && most > c {
		past = fmt.Sprintf("; %s share the machine's %d cores, so every fit leaves them out", workersN(most), c)
	}
	return "Each implementation is set here against its own one worker" + onName(r, ix) + past + ". " + strings.Join(said, " ")
}

// fitOf returns the Amdahl fit of a row's speedups and the workers it
// spans, over the points of no more workers than the machine's cores
// (all of them where cores is 0): past the cores, workers share them, and
// Amdahl's law, which assumes a processor each, does not apply.
func fitOf(row scaleRow, cores int) (f float64, lo, hi int, ok bool) {
	var ps []int
	var ss []float64
	for _, sp := range row.pts {
		if sp.ok && (cores <= 0 || sp.k.Workers <= cores) {
			ps, ss = append(ps, sp.k.Workers), append(ss, sp.s())
		}
	}
	if f, ok = amdahlFit(ps, ss); !ok {
		return 0, 0, 0, false
	}
	return f, slices.Min(ps), slices.Max(ps), true
}

// fitRange returns the Amdahl fits of a row with every speedup at the
// top of its interval and every one at the bottom: the serial fractions
// the intervals allow, f falling as the speedups rise (held in [0, 1] as
// the fit is). ok is false where a fitted point has no interval.
func fitRange(row scaleRow, cores int) (lo, hi float64, ok bool) {
	var ps []int
	var los, his []float64
	for _, sp := range row.pts {
		if !sp.ok || (cores > 0 && sp.k.Workers > cores) {
			continue
		}
		if !sp.q.CIKnown {
			return 0, 0, false
		}
		ps, los, his = append(ps, sp.k.Workers), append(los, sp.q.Lo), append(his, sp.q.Hi)
	}
	flo, ok1 := amdahlFit(ps, his)
	fhi, ok2 := amdahlFit(ps, los)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return min(1, max(0, flo)), min(1, max(0, fhi)), true
}

// fitCounts is how many counts of workers past 1 fitOf fits row over.
func fitCounts(row scaleRow, cores int) int {
	seen := map[int]bool{}
	for _, sp := range row.pts {
		if sp.ok && sp.k.Workers > 1 && (cores <= 0 || sp.k.Workers <= cores) {
			seen[sp.k.Workers] = true
		}
	}
	return len(seen)
}

// lineWords is the sentence of one implementation over its rows, one a
// length, in order; "" where none has a speedup.
// superLinear reports whether some point of row is faster than linear
// beyond doubt: its speedup's 95% interval lies above its workers.
func superLinear(row scaleRow) bool {
	return slices.ContainsFunc(row.pts, func(sp scalePt) bool {
		return sp.ok && sp.q.CIKnown && sp.q.Lo > float64(sp.k.Workers)
	})
}

func lineWords(ix *runs.Index, v *ownView, rows []scaleRow) string {
	top := topRow(rows, ix.Cores())
	if top < 0 {
		if !slices.ContainsFunc(rows, func(r scaleRow) bool { return r.oneOK }) {
			return "For " + v.lineName(rows[0].line) + ", no time on one worker to divide by."
		}
		return ""
	}
	row := rows[top]
	f, lo, hi, _ := fitOf(row, ix.Cores())
	var known []scalePt // the points with a speedup, by workers
	for _, sp := range row.pts {
		if sp.ok {
			known = append(known, sp)
		}
	}
	var b strings.Builder
	b.WriteString("For " + v.lineName(row.line) + ", ")
	// Past what two decimals tell from 1 or 0, a fit outside [0, 1] is
	// said as what it is.
	switch {
	case f >= 1.005:
		// The fit's own points first (within the cores); a point past
		// them is said apart, as oversubscribed.
		within := slices.DeleteFunc(slices.Clone(known), func(p scalePt) bool { return p.k.Workers > ix.Cores() })
		if len(within) == 0 {
			within = known
		}
		worst := slices.MinFunc(within, func(a, b scalePt) int { return cmpFloat(a.s(), b.s()) })
		if worst.q.Significant {
			fmt.Fprintf(&b, "at %s only %s as fast on %s as on one: no serial fraction fits, as Amdahl's law allows no slowdown; the cost of more workers outweighs the work they share",
				lengths(row.line), document.Times(worst.s()), workersN(worst.k.Workers))
		} else {
			fmt.Fprintf(&b, "at %s no faster on %s than on one (%s, not significant), so no serial fraction is fitted",
				lengths(row.line), workersN(worst.k.Workers), document.Times(worst.s()))
		}
		if past := slices.DeleteFunc(slices.Clone(known), func(p scalePt) bool { return p.k.Workers <= ix.Cores() }); len(past) > 0 && len(within) < len(known) {
			w := slices.MinFunc(past, func(a, b scalePt) int { return cmpFloat(a.s(), b.s()) })
			fmt.Fprintf(&b, "; on %s, past its %d cores (oversubscribed), %s", workersN(w.k.Workers), ix.Cores(), document.Times(w.s()))
		}
	case f <= -0.005:
		best := slices.MaxFunc(known, func(a, b scalePt) int { return cmpFloat(a.e(), b.e()) })
		if p := float64(best.k.Workers); best.q.CIKnown && best.q.Lo > p {
			fmt.Fprintf(&b, "at %s %s as fast on %s as on one (95%% CI %s), more than %d×: no serial fraction fits, as Amdahl's law allows no more (a cache effect, or a different amount of work)",
				lengths(row.line), document.Times(best.s()), workersN(best.k.Workers), document.CI(best.q.Lo, best.q.Hi), best.k.Workers)
		} else {
			// Above p, but no interval tells it from p: linear.
			ci := ""
			if best.q.CIKnown {
				ci = fmt.Sprintf(" (95%% CI %s)", document.CI(best.q.Lo, best.q.Hi))
			}
			if best.s() > 1.1*p && ci != "" {
				// Well above p, its interval wide: not called linear.
				fmt.Fprintf(&b, "at %s %s as fast on %s as on one%s: above linear (%d×), but its interval reaches below %d×, so more than linear is not shown, and no serial fraction fits",
					lengths(row.line), document.Times(best.s()), workersN(best.k.Workers), ci, best.k.Workers, best.k.Workers)
			} else {
				fmt.Fprintf(&b, "at %s %s as fast on %s as on one%s: linear (%d×) within its spread, a serial fraction of about 0",
					lengths(row.line), document.Times(best.s()), workersN(best.k.Workers), ci, best.k.Workers)
			}
		}
	case !slices.ContainsFunc(known, func(sp scalePt) bool {
		return sp.q.Significant && (ix.Cores() <= 0 || sp.k.Workers <= ix.Cores())
	}):
		// Of the points the fit uses, within the cores, none a test
		// tells from 1×.
		best := slices.MaxFunc(known, func(a, b scalePt) int { return cmpFloat(a.s(), b.s()) })
		fmt.Fprintf(&b, "at %s no speedup is significant (at most %s, on %s), so no serial fraction is fitted",
			lengths(row.line), document.Times(best.s()), workersN(best.k.Workers))
	default:
		over := "on " + workersN(lo)
		if lo != hi {
			over = fmt.Sprintf("over %d–%d workers", lo, hi)
		}
		f = min(1, max(0, f))
		if fitCounts(row, ix.Cores()) == 1 {
			// One count of workers past 1: S(1) = 1 whatever f, so the
			// fit is Karp–Flatt's e at that count, not a second finding.
			over = fmt.Sprintf("from %s alone (so Karp–Flatt's e there)", workersN(hi))
		}
		within := ""
		if flo, fhi, ok := fitRange(row, ix.Cores()); ok {
			if r := rangeOf(f, flo, fhi); r != "" {
				within = strings.TrimSuffix(r, ")") + " over the speedups' intervals)"
			}
		}
		fmt.Fprintf(&b, "serial fraction %s%s by Amdahl's law %s at %s", fixed2(f), within, over, lengths(row.line))
		// A bound on any number of workers only from a fit to more than
		// one count: through one point any f passes.
		if f >= 0.005 && lo != hi {
			fmt.Fprintf(&b, " (at most %s on any number)", document.Times(1/f))
		}
	}
	var others, unsure, slower []string
	for i := len(rows) - 1; i >= 0; i-- {
		g, _, _, ok := fitOf(rows[i], ix.Cores())
		switch {
		case !ok || i == top:
		case !slices.ContainsFunc(rows[i].pts, func(sp scalePt) bool {
			return sp.ok && sp.q.Significant && (ix.Cores() <= 0 || sp.k.Workers <= ix.Cores())
		}):
			// A fit to speedups no test tells from 1× says nothing: of
			// the points it fits, within the cores.
			unsure = append(unsure, lengths(rows[i].line))
		case g >= 1.005:
			if len(slower) == 0 {
				others = append(others, "") // the slower lengths' place, filled below
			}
			slower = append(slower, lengths(rows[i].line))
		case g <= -0.005:
			// More than linear only where an interval says so.
			if superLinear(rows[i]) {
				others = append(others, "more than linear at "+lengths(rows[i].line))
			} else {
				others = append(others, "indistinguishable from linear at "+lengths(rows[i].line))
			}
		default:
			f := "f = " + fixed2(min(1, max(0, g)))
			if glo, ghi, ok := fitRange(rows[i], ix.Cores()); ok {
				f += rangeOf(min(1, max(0, g)), glo, ghi)
			}
			others = append(others, f+" at "+lengths(rows[i].line))
		}
	}
	if i := slices.Index(others, ""); i >= 0 {
		others[i] = "slower on more workers at " + document.JoinAnd(slower)
	}
	if len(others) > 0 {
		b.WriteString("; " + strings.Join(others, ", "))
	}
	if len(unsure) > 0 {
		b.WriteString("; no significant speedup at " + strings.Join(unsure, ", ") + ", so nothing is fitted there")
	}
	// Karp–Flatt's e over the workers: constant where Amdahl's law holds;
	// only where the table shows it (S ≥ 1, significant).
	var kf []scalePt
	for _, sp := range known {
		if kfShown(ix, sp) {
			kf = append(kf, sp)
		}
	}
	if n := len(kf); n >= 2 {
		a, z := kf[0], kf[n-1]
		if d := z.kf() - a.kf(); d > 0.02 && d > 0.2*math.Abs(a.kf()) {
			fmt.Fprintf(&b, "; e rises from %s on %d to %s on %d workers: an overhead that grows with the workers, not a fixed serial part",
				fixed2(a.kf()), a.k.Workers, fixed2(z.kf()), z.k.Workers)
		}
	}
	// The cores it kept busy on the most workers.
	for i := len(row.pts) - 1; i >= 0; i-- {
		sp := row.pts[i]
		st, ok := ix.Stats[sp.k]
		if !ok || st.Cores <= 0 {
			continue
		}
		fmt.Fprintf(&b, "; it used %s at %s", v.coresText(ix, sp.k), workersN(sp.k.Workers))
		if st.Cores < 1.25 && sp.k.Workers > 1 {
			b.WriteString(": about one core, whatever its workers were")
			if v.ignoresWorkers(row.line.Algorithm) {
				b.WriteString(" (its command never uses the workers placeholder)")
			}
		}
		break
	}
	b.WriteString(".")
	return b.String()
}

// kfShown reports whether Karp–Flatt's e of sp is given: a speedup of at
// least 1× that the test tells from 1×, on no more workers than the
// machine's cores (where they share cores, Amdahl's law, which e reads
// against, does not hold), neither of its two times holding an outlier
// (‡: a repetition past document.OutlierFactor times the median, as a
// cold first run can be, leaves the serial share it implies unsure).
func kfShown(ix *runs.Index, sp scalePt) bool {
	c := ix.Cores()
	for _, k := range []runs.Key{sp.k, sp.one} {
		if st := ix.Stats[k]; st.Med > 0 && st.Max > document.OutlierFactor*st.Med {
			return false
		}
	}
	return sp.s() >= 1 && sp.q.Significant && (c <= 0 || sp.k.Workers <= c)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ownScalingChart draws each implementation's speedup over its own one
// worker by workers, at the largest length it has speedups at, beside
// the ideal S = p; on log axes where the lines span more than 10×. It is
// nil where there is nothing to draw, or the lines are of two worker
// counts alone.
func ownScalingChart(r *runs.Set, v *ownView) *document.Figure {
	c := &document.Figure{ID: "own_" + chartSafe(v.sp.Name) + "_scaling", XName: ownXNames[spec.DimWorkers], YName: ownYNames[spec.YSpeedup],
		XFit: true, XWhole: true, MarkY: 1, MarkName: "1×: as fast as on one worker"}
	ran := 0
	for _, ix := range r.Runs {
		if len(v.keys(ix)) > 0 {
			ran++
		}
	}
	type drawn struct {
		name string
		n    string
		pts  []document.FigurePoint
	}
	var lines []drawn
	var ws []int
	cores := 0 // the most cores of a machine drawn
	for _, ix := range r.Runs {
		for _, mine := range byLine(ownScaling(ix, v, v.keys(ix))) {
			cores = max(cores, ix.Cores())
			top := topRow(mine, ix.Cores())
			if top < 0 {
				continue
			}
			row := mine[top]
			d := drawn{name: v.lineName(row.line), n: lengths(row.line), pts: []document.FigurePoint{{X: 1, Y: 1, Lo: 1, Hi: 1}}}
			if ran > 1 {
				d.name = ix.Name + ": " + d.name
			}
			ws = append(ws, 1)
			for _, sp := range row.pts {
				if !sp.ok {
					continue
				}
				p := document.FigurePoint{X: float64(sp.k.Workers), Y: sp.s(), Lo: sp.s(), Hi: sp.s()}
				if sp.q.CIKnown {
					p.Lo, p.Hi = sp.q.Lo, sp.q.Hi
				}
				d.pts = append(d.pts, p)
				ws = append(ws, sp.k.Workers)
			}
			lines = append(lines, d)
		}
	}
	slices.Sort(ws)
	ws = slices.Compact(ws)
	if len(lines) == 0 || len(ws) < 3 {
		// On one and one other worker count a line is two points, which
		// the tables give: the chart would add nothing but a page.
		return nil
	}
	// In the order of the section's other charts, by name, so that an
	// implementation keeps its colour from chart to chart.
	slices.SortStableFunc(lines, func(a, b drawn) int { return strings.Compare(a.name, b.name) })
	sameN := !slices.ContainsFunc(lines, func(d drawn) bool { return d.n != lines[0].n })
	c.Title = "Speedup over its own one worker"
	if sameN {
		c.Title += " (" + lines[0].n + ")"
	}
	for _, d := range lines {
		name := d.name
		if !sameN {
			name += ", " + d.n
		}
		c.Series = append(c.Series, document.FigureSeries{Name: name, Points: d.pts})
	}
	// Ideal is S = p up to the machine's cores: past them workers take
	// turns on the cores, and no speedup passes their number.
	ideal := document.FigureSeries{Name: "ideal: S = p"}
	if cores > 0 && ws[len(ws)-1] > cores {
		ideal.Name = fmt.Sprintf("ideal: S = p, at most the %d cores", cores)
	}
	for _, w := range ws {
		y := float64(w)
		if cores > 0 {
			y = min(y, float64(cores))
		}
		ideal.Points = append(ideal.Points, document.FigurePoint{X: float64(w), Y: y, Lo: y, Hi: y})
	}
	c.Series = append(c.Series, ideal)
	c.YLog = spansTenfold(c.Series, func(p document.FigurePoint) float64 { return p.Y })
	// Workers that double (1, 2, 4 …) are ticked at their own counts on
	// a base-2 axis; a linear one would tick 3, where nothing ran.
	c.XLog = spansTenfold(c.Series, func(p document.FigurePoint) float64 { return p.X }) || powersOfTwo(ws)
	c.XBase2 = c.XLog
	return c
}

// powersOfTwo reports whether ws are all powers of two.
func powersOfTwo(ws []int) bool {
	for _, w := range ws {
		if w <= 0 || w&(w-1) != 0 {
			return false
		}
	}
	return len(ws) > 0
}

// spansTenfold reports whether the values of the series' points, by at,
// span more than 10× (the largest over the least, all positive).
func spansTenfold(ss []document.FigureSeries, at func(document.FigurePoint) float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range s.Points {
			if y := at(p); y > 0 && !math.IsInf(y, 0) {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
	}
	return hi > 10*lo
}
