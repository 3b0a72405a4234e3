package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// ownView is what the section of an experiment of one's own draws: the
// points of its spec's grid. A point is keyed as the runner keys it —
// implementation, workers, tile, block, GPU share, ranks, case and
// lengths — so that the records of two cases, say, are never one point.
type ownView struct {
	sp   *spec.Spec
	kept bool // sp was kept beside the records (else made from them)
	// vary names the extra dimensions (ownExtras) the drawn points take
	// more than one value of: a table has a column of each, a series and
	// a point's name say it.
	vary []string
}

// ownExtras are the dimensions of a point a spec's grid does not vary,
// which records may (a case changed since, a point of a reports'
// experiment's kind); ownExtra gives a point's value of each, for people.
var ownExtras = []string{"case", "block", "GPU share", "ranks"}

func ownExtra(k runs.Key, d string) string {
	switch d {
	case "case":
		return k.Case
	case "block":
		return document.Count(k.Block)
	case "GPU share":
		return document.Num(k.GPURatio)
	}
	return document.Count(k.Ranks)
}

// ownViewOf returns the view of experiment name over the runs read.
func ownViewOf(r *runs.Set, name string) *ownView {
	sp, kept := r.OwnSpec(name)
	v := &ownView{sp: sp, kept: kept}
	for _, d := range ownExtras {
		seen := map[string]bool{}
		for _, ix := range r.Runs {
			for _, k := range v.keys(ix) {
				seen[ownExtra(k, d)] = true
			}
		}
		if len(seen) > 1 {
			v.vary = append(v.vary, d)
		}
	}
	return v
}

// keys returns the points of ix that v draws, measured or failed, sorted:
// with a kept spec, those of its grid alone — its implementations (and
// the Go functions run beside them: records whose made_by is the spec's
// for an implementation of that name and no definition), its case, its
// workers, tiles and lengths, and no block, GPU share or ranks; with a
// spec made from the records, every one.
func (v *ownView) keys(ix *runs.Index) []runs.Key {
	ks := ix.OwnKeys(v.sp.Name)
	if v.kept {
		ks = slices.DeleteFunc(ks, func(k runs.Key) bool { return v.outside(ix, k) != "" })
	}
	return ks
}

// outside says why the kept spec's grid does not hold k ("impl x", "case
// dna", "workers 8", "n = 500", "block 64" …), or "" where it does.
func (v *ownView) outside(ix *runs.Index, k runs.Key) string {
	sp := v.sp
	switch {
	case !slices.Contains(sp.ImplNames(), k.Algorithm) && !ix.Tally.MadeBy[[2]string{sp.Name, k.Algorithm}][sp.MadeBy(spec.Impl{Name: k.Algorithm})]:
		return "impl " + k.Algorithm
	case k.Case != sp.CaseOr():
		return "case " + k.Case
	case !slices.Contains(sp.WorkersOr(), k.Workers):
		return fmt.Sprintf("workers %d", k.Workers)
	case !slices.Contains(sp.TilesOr(), k.Tile):
		return fmt.Sprintf("tile %d", k.Tile)
	case !slices.Contains(sp.Lengths(), [2]int{k.LenA, k.LenB}):
		return lengths(k)
	case k.Block != 0:
		return "block " + document.Count(k.Block)
	case k.GPURatio != 0:
		return "GPU share " + document.Num(k.GPURatio)
	case k.Ranks != 0:
		return "ranks " + document.Count(k.Ranks)
	}
	return ""
}

// notDrawn is the sentence that says what else the records of the runs
// hold, outside the kept spec's grid, or "".
func notDrawn(r *runs.Set, v *ownView) string {
	if !v.kept {
		return ""
	}
	var what []string
	n := 0
	for _, ix := range r.Runs {
		for _, k := range ix.OwnKeys(v.sp.Name) {
			w := v.outside(ix, k)
			if w == "" {
				continue
			}
			n++
			switch {
			case strings.HasPrefix(w, "impl "):
				w += ", no longer in the spec"
			case strings.HasPrefix(w, "case "):
				w += ", where the spec's is now " + v.sp.CaseOr()
			}
			if !slices.Contains(what, w) {
				what = append(what, w)
			}
		}
	}
	if n == 0 {
		return ""
	}
	// Implementations first, then the inputs, then the parameters.
	rank := func(w string) int {
		return slices.IndexFunc([]string{"impl ", "case ", "n = ", "workers ", "tile ", "block ", "GPU share ", "ranks "},
			func(p string) bool { return strings.HasPrefix(w, p) })
	}
	slices.SortStableFunc(what, func(a, b string) int { return rank(a) - rank(b) })
	return fmt.Sprintf("The records also hold %d %s outside the kept spec's grid — %s: not drawn (levlab run --fresh measures the spec anew).",
		n, "point"+plural(n), strings.Join(what, "; "))
}

// ratioText writes a speedup as the section of an experiment of one's
// own says it: "2.31× (95% CI 2.10–2.52)", with why an interval or the
// significance is missing.
func ratioText(q runs.Ratio) string {
	s := document.Times(q.X)
	if q.CIKnown {
		s += fmt.Sprintf(" (95%% CI %s)", document.CI(q.Lo, q.Hi))
	} else {
		s += fmt.Sprintf(" (no CI: it needs %d repetitions or more)", runs.BootMin)
	}
	if !q.Significant {
		s += fmt.Sprintf(", not significant (p = %s)", document.Num(q.P))
	}
	return s
}

// baselineOf returns the point a speedup of k is over: the baseline
// implementation at the fewest workers of the grid, on k's inputs (case
// and lengths) and at its block, GPU share and ranks, and at its tile
// (else any tile); a point v draws.
func baselineOf(ix *runs.Index, v *ownView, baseline string, k runs.Key) (runs.Key, bool) {
	w0 := slices.Min(v.sp.WorkersOr())
	var found []runs.Key
	for _, c := range v.keys(ix) {
		if _, ok := ix.Stats[c]; !ok {
			continue // failed: no time to divide by
		}
		if c.Algorithm == baseline && c.Workers == w0 && c.Case == k.Case && c.LenA == k.LenA && c.LenB == k.LenB &&
			c.Block == k.Block && c.GPURatio == k.GPURatio && c.Ranks == k.Ranks {
			if c.Tile == k.Tile {
				return c, true
			}
			found = append(found, c)
		}
	}
	if len(found) > 0 {
		return found[0], true
	}
	return runs.Key{}, false
}

// specBaseline is the first baseline the spec's figures name, or "".
func specBaseline(s *spec.Spec) string {
	for _, f := range s.Figures() {
		if f.Baseline != "" {
			return f.Baseline
		}
	}
	return ""
}

// sectionOwn draws an experiment of one's own: findings first, then its
// figures as its spec declares them, then every point in a table, the
// failed ones with why, and the speedups with their confidence intervals.
func sectionOwn(r *runs.Set, name string, told said) document.Section {
	v := ownViewOf(r, name)
	sp := v.sp
	title := sp.Title
	if title == "" {
		title = name
	}
	s := document.Section{ID: SectionOwnPrefix + name, Title: "Own experiment " + name + " — " + title}
	base := specBaseline(sp)
	for _, ix := range r.Runs {
		for _, n := range ix.SpecNotes[name] {
			s.P("%s", n)
		}
	}
	for _, ix := range r.Runs {
		if ks := v.keys(ix); len(ks) > 0 {
			s.P("%s", ownFindings(ix, v, base, ks))
		}
	}
	if w := notDrawn(r, v); w != "" {
		s.P("%s", w)
	}
	if c := ownClocks(r, v); c != "" {
		s.P("%s", c)
	}
	for i, f := range sp.Figures() {
		for _, c := range ownCharts(r, v, f, i) {
			s.Add(c)
		}
	}
	scaled := false
	if c := ownScalingChart(r, v); c != nil {
		s.Add(c)
	}
	for _, ix := range r.Runs {
		ks := v.keys(ix)
		if len(ks) == 0 {
			continue
		}
		rows := ownScaling(ix, v, ks)
		if len(rows) > 0 {
			if w := ownScalingWords(r, ix, v, rows); w != "" {
				s.P("%s", w)
			}
			if !scaled {
				// S, E, e and n.s. defined before the tables use them.
				told.once(&s, ownScalingHow, "")
			}
			var folded []string
			for _, mine := range byLine(rows) {
				if v.reference(mine[0].line) {
					folded = append(folded, v.lineName(mine[0].line))
				}
			}
			for _, t := range ownScalingTables(r, ix, v, rows) {
				s.Add(t)
			}
			if len(folded) > 0 {
				if len(folded) == 1 {
					s.P("The table of %s, an algorithm of levlab's set beside the programs as the reference, is in the HTML (folded), Markdown and TeX versions, not in print.", folded[0])
				} else {
					s.P("The tables of %s, algorithms of levlab's set beside the programs as the reference, are in the HTML (folded), Markdown and TeX versions, not in print.", document.JoinAnd(folded))
				}
			}
			scaled = true
		}
		if !coversAll(rows, ks) {
			// Points of one worker count alone: every point's time.
			s.Add(ownTimes(r, ix, v, ks))
		}
	}
	for _, ix := range r.Runs {
		if ks := v.keys(ix); len(ks) > 0 {
			if base != "" {
				if t := ownSpeedups(r, ix, v, base, ks); t != nil {
					s.Add(t)
				}
			}
		}
	}
	told.once(&s, "How to read it: a command's time is its wall time from start to exit, or the kernel time it printed where the spec gives time_regexp; its memory, its peak resident set; a Go call's, the heap it allocated. Every answer was checked against the exact distance: a failed point has no time. Medians, their ranges, speedups' confidence intervals and the significance test are as Method, at the end, says.",
		"Times, memory and speedups read as in the first own experiment above.")
	return s
}

// ownScalingHow says how the speedups over an implementation's own one
// worker read.
const ownScalingHow = "S, E, e and f are as Terms defines them, over each implementation's own one worker at the same lengths (medians); Karp–Flatt's e is the same at every p where Amdahl's law holds, rising where an overhead grows with p, and is given where S ≥ 1, the speedup is significant, the workers are no more than the cores and neither time holds an outlier (‡), else —; f is the least-squares fit of f + (1 − f)/p to T_p/T_1. Cores: CPU time over time, the median of the repetitions; a command's CPU time counts the processes it waited for (mpirun's ranks), not one it left running; over a time the program printed itself it is an upper bound (≤). n.s.: not significant (Terms)."

// chartSafe makes name a chart id's tail: letters, digits and _.
func chartSafe(name string) string {
	return strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return c
		}
		return '_'
	}, name)
}

// pointName names a point of one's own for people: the implementation and
// the parameters that vary in the grid.
func (v *ownView) pointName(k runs.Key) string {
	parts := []string{k.Algorithm}
	if len(v.sp.WorkersOr()) > 1 || k.Workers > 1 {
		parts = append(parts, fmt.Sprintf("%d %s", k.Workers, "worker"+plural(k.Workers)))
	}
	if k.Tile != 0 {
		parts = append(parts, "tile "+document.Count(k.Tile))
	}
	for _, d := range v.vary {
		parts = append(parts, d+" "+ownExtra(k, d))
	}
	return strings.Join(parts, ", ")
}

func lengths(k runs.Key) string {
	if k.LenA == k.LenB {
		return "n = " + document.Size(k.LenA)
	}
	return "n = " + document.Size(k.LenA) + ", m = " + document.Size(k.LenB)
}

// ownFindings is the paragraph that opens a run's part of the section:
// the fastest at the largest size, the best speedup, and the failures.
func ownFindings(ix *runs.Index, v *ownView, base string, ks []runs.Key) string {
	var b strings.Builder
	fmt.Fprintf(&b, "On %s (%s): ", ix.Name, ix.Where)
	maxN := 0
	for _, k := range ks {
		maxN = max(maxN, k.LenA)
	}
	var best runs.Key
	bestT, timed := math.Inf(1), 0
	for _, k := range ks {
		if st, ok := ix.Stats[k]; ok && k.LenA == maxN {
			timed++
			if st.Med < bestT {
				best, bestT = k, st.Med
			}
		}
	}
	if !math.IsInf(bestT, 1) {
		st := ix.Stats[best]
		which := "the fastest is"
		if timed == 1 {
			which = "the only point timed is" // the others failed there
		}
		fmt.Fprintf(&b, "at the largest size, %s, %s %s: %s (%s–%s)", lengths(best), which, v.pointName(best), document.Dur(st.Med), document.Dur(st.Min), document.Dur(st.Max))
		// Set beside points of another clock, it says so.
		clock := v.ownClock(best.Algorithm)
		if clock != "" && slices.ContainsFunc(ks, func(k runs.Key) bool { return v.ownClock(k.Algorithm) != clock }) {
			b.WriteString(map[string]string{
				"call": ", a call inside levlab, beside programs timed by their wall time or their own clock: timed differently (Clocks)",
				"wall": ", a program timed from its start to its exit: timed differently from the others (Clocks)",
				"own":  ", a time the program printed itself: timed differently from the others (Clocks)",
			}[clock])
		}
		b.WriteString(".")
	} else {
		b.WriteString("no point has a time.")
	}
	if base != "" {
		var bk runs.Key
		var bq runs.Ratio
		for _, k := range ks {
			b0, ok := baselineOf(ix, v, base, k)
			if !ok || b0 == k {
				continue
			}
			if q, ok := ix.SpeedupOf(b0, k); ok && q.X > bq.X {
				bk, bq = k, q
			}
		}
		if bq.X > 0 {
			w0 := slices.Min(v.sp.WorkersOr())
			fmt.Fprintf(&b, " The best speedup over %s at %d %s is %s: %s at %s%s.", base, w0, "worker"+plural(w0), ratioText(bq), v.pointName(bk), lengths(bk), v.unlike(base, bk.Algorithm))
		}
	}
	var failed, whys []string
	for _, k := range ks {
		if why, ok := ix.Tally.Failed[k]; ok {
			failed = append(failed, fmt.Sprintf("%s at %s", v.pointName(k), lengths(k)))
			whys = append(whys, strings.TrimPrefix(why, "failed: "))
		}
	}
	// One reason for them all is said once.
	each := ""
	if len(whys) > 1 && !slices.ContainsFunc(whys, func(w string) bool { return w != whys[0] }) {
		each = ", each " + whys[0]
	} else {
		for i := range failed {
			failed[i] += " (" + whys[i] + ")"
		}
	}
	switch {
	case len(failed) == 0:
		b.WriteString(" Every answer agreed with the exact distance.")
	case len(failed) <= 6:
		fmt.Fprintf(&b, " %d %s failed, with no time%s: %s.", len(failed), "point"+plural(len(failed)), each, strings.Join(failed, "; "))
	default:
		fmt.Fprintf(&b, " %d points failed, with no time%s; the first: %s; the table names every one.", len(failed), each, strings.Join(failed[:3], "; "))
	}
	return b.String()
}

// dim is one of the grid's dimensions: a parameter, or the implementation.
func dimOf(k runs.Key, d spec.Dim) float64 {
	switch d {
	case spec.DimWorkers:
		return float64(k.Workers)
	case spec.DimTile:
		return float64(k.Tile)
	case spec.DimN:
		return float64(k.LenA)
	case spec.DimM:
		return float64(k.LenB)
	}
	return 0
}

func dimLabel(d spec.Dim, v float64) string {
	switch d {
	case spec.DimWorkers:
		return fmt.Sprintf("%s %s", document.Xnum(v), "worker"+plural(int(v)))
	case spec.DimTile:
		return "tile " + document.Xnum(v)
	}
	return string(d) + " = " + document.Xnum(v)
}

var ownXNames = map[spec.Dim]string{
	spec.DimWorkers: "workers", spec.DimTile: "tile side", spec.DimN: "length n (symbols)", spec.DimM: "length m (symbols)",
}

var ownYNames = map[spec.Quantity]string{
	spec.YTime: document.TimeAxis, spec.YSpeedup: "speedup (×)", spec.YEfficiency: "parallel efficiency",
	spec.YGCUPS: matrixRateAxis, spec.YMemory: "memory (bytes): a command's peak RSS, a Go call's heap",
}

// ownCharts draws one figure of a spec over every run (ownChart), as one
// chart where it has at most maxSeries lines, else as few charts as keep
// each within maxSeries, split by the values of its last series dimension
// but impl (1 and 2 workers, then 4, say); a chart of one value holds it
// as a dimension that is no series is.
func ownCharts(r *runs.Set, v *ownView, f spec.Figure, i int) []*document.Figure {
	c := ownChart(r, v, f, i, "", nil)
	if c == nil {
		return nil
	}
	if len(c.Series) <= maxSeries {
		return []*document.Figure{c}
	}
	var d spec.Dim
	for _, s := range f.Series {
		if s != spec.DimImpl && slices.Contains(spec.XValues, s) {
			d = s
		}
	}
	if d == "" {
		return []*document.Figure{c}
	}
	vals := map[float64]bool{}
	for _, ix := range r.Runs {
		for _, k := range v.keys(ix) {
			vals[dimOf(k, d)] = true
		}
	}
	sorted := slices.Sorted(maps.Keys(vals))
	per := (len(c.Series) + len(sorted) - 1) / len(sorted) // lines a value
	var out []*document.Figure
	for j, group := range slices.Collect(slices.Chunk(sorted, max(1, maxSeries/per))) {
		if part := ownChart(r, v, f, i, d, group); part != nil {
			part.ID += fmt.Sprintf("_%d", j+1)
			out = append(out, part)
		}
	}
	return out
}

// ownChart draws one figure of a spec over every run. The grid's
// dimensions that are neither x nor a series are held at their largest
// value, which the title names; a point that failed at that value is a
// vertical line at its x, named. A series dimension named by hold draws
// only its values holdAt, and one alone is held as a dimension that is no
// series is (ownCharts).
func ownChart(r *runs.Set, v *ownView, f spec.Figure, i int, hold spec.Dim, holdAt []float64) *document.Figure {
	sp := v.sp
	if len(holdAt) == 1 {
		f.Series = slices.DeleteFunc(slices.Clone(f.Series), func(s spec.Dim) bool { return s == hold })
	}
	c := ownAxes(sp, f)
	c.ID = fmt.Sprintf("own_%s_%d", chartSafe(sp.Name), i+1)
	dims := slices.Clone(f.Series)
	if !slices.Contains(dims, spec.DimImpl) {
		dims = append([]spec.Dim{spec.DimImpl}, dims...)
	}
	fixed := ownHeld(r, v, f, dims, hold, holdAt)
	keep := func(k runs.Key) bool {
		for d, v := range fixed {
			if dimOf(k, d) != v {
				return false
			}
		}
		return hold == "" || slices.Contains(holdAt, dimOf(k, hold))
	}
	c.Title = ownTitle(f, slices.Min(sp.WorkersOr()), fixed, hold, holdAt)
	// Series are named for their machine where more than one run holds
	// the experiment.
	ran := 0
	for _, ix := range r.Runs {
		if len(v.keys(ix)) > 0 {
			ran++
		}
	}
	marks := map[float64][]string{}
	for _, ix := range r.Runs {
		bySeries := map[string]*document.FigureSeries{}
		var order []string
		// With series by implementation and more (workers, say), an
		// implementation keeps one hue and each of the rest its shade,
		// line and symbol, in the order first drawn: "ed_omp, 1 worker"
		// and "ed_omp, 2 workers" read as one program. With several
		// machines the machine takes that place (groupSeries).
		variants := map[string]int{}
		for _, k := range v.keys(ix) {
			if !keep(k) {
				continue
			}
			var rest []string
			for _, d := range dims[1:] {
				rest = append(rest, dimLabel(d, dimOf(k, d)))
			}
			for _, d := range v.vary {
				rest = append(rest, d+" "+ownExtra(k, d))
			}
			name := strings.Join(append([]string{k.Algorithm}, rest...), ", ")
			if ran > 1 {
				name = ix.Name + ": " + name
			}
			x := dimOf(k, f.X)
			if _, failed := ix.Tally.Failed[k]; failed {
				if !slices.Contains(marks[x], name) {
					marks[x] = append(marks[x], name)
				}
				continue
			}
			st, ok := ix.Stats[k]
			if !ok {
				continue
			}
			p, ok := ownChartPoint(ix, v, f, k, st, c.YLog)
			if !ok {
				continue
			}
			p.X = x
			se := bySeries[name]
			if se == nil {
				se = &document.FigureSeries{Name: name}
				if ran <= 1 && len(rest) > 0 {
					of := strings.Join(rest, ", ")
					if _, ok := variants[of]; !ok {
						variants[of] = len(variants)
					}
					se.Group, se.Machine = k.Algorithm, variants[of]
				}
				bySeries[name] = se
				order = append(order, name)
			}
			se.Points = append(se.Points, p)
		}
		for _, name := range order {
			se := bySeries[name]
			sortPts(se.Points)
			c.Series = append(c.Series, *se)
		}
	}
	if len(c.Series) == 0 && len(marks) == 0 {
		return nil
	}
	for _, x := range slices.Sorted(maps.Keys(marks)) {
		c.Failed = append(c.Failed, document.FigureMark{X: x, Name: "failed: " + strings.Join(marks[x], "; ")})
	}
	if f.Y == spec.YTime && f.LogY == nil && spansTenfold(c.Series, func(p document.FigurePoint) float64 { return p.Y }) {
		// Times more than 10× apart on a log axis, so that the slower
		// lines do not pin the faster to zero (the spec's log_y wins).
		c.YLog = true
	}
	if f.Y == spec.YSpeedup || f.Y == spec.YEfficiency {
		c.MarkY, c.MarkName = 1, "1×: as fast as the baseline"
		if f.Y == spec.YEfficiency {
			c.MarkName = "1: perfect scaling"
		}
	}
	return c
}

// ownAxes is a chart of figure f of spec sp with its axes named and
// scaled: lengths on a log axis, workers that double on a base-2 one, a
// time on a log axis where x is one (and, ownChart adds, where its lines
// span more than 10×); the spec's log_x and log_y win.
func ownAxes(sp *spec.Spec, f spec.Figure) *document.Figure {
	c := &document.Figure{XName: ownXNames[f.X], YName: ownYNames[f.Y]}
	c.XLog = f.X == spec.DimN || f.X == spec.DimM
	c.XFit, c.XWhole = true, f.X == spec.DimWorkers || f.X == spec.DimTile
	c.YLog = f.Y == spec.YTime && c.XLog
	if f.X == spec.DimWorkers {
		// Workers that double (1, 2, 4 …) on a base-2 axis, ticked at
		// their own counts; a linear one would tick 3, where nothing ran.
		ws := sp.WorkersOr()
		c.XLog = len(ws) >= 3 && powersOfTwo(ws)
		c.XBase2 = c.XLog
	}
	if f.LogX != nil {
		c.XLog = *f.LogX
		c.XBase2 = c.XBase2 && c.XLog
	}
	if f.LogY != nil {
		c.YLog = *f.LogY
	}
	return c
}

// ownHeld is the dimensions figure f holds fixed, by name, beside its x
// and its series' dims: hold at holdAt's one value, and every other at
// its largest value over the runs where a point was measured (and, for a
// ratio to the baseline, the baseline too), so that a size at which
// everything failed draws nothing.
func ownHeld(r *runs.Set, v *ownView, f spec.Figure, dims []spec.Dim, hold spec.Dim, holdAt []float64) map[spec.Dim]float64 {
	measured := func(ix *runs.Index, k runs.Key) bool {
		if _, ok := ix.Stats[k]; !ok {
			return false
		}
		return (f.Y != spec.YSpeedup && f.Y != spec.YEfficiency) || k.Algorithm == f.Baseline
	}
	fixed := map[spec.Dim]float64{}
	if len(holdAt) == 1 {
		fixed[hold] = holdAt[0]
	}
	for _, d := range spec.XValues {
		if d == hold || d == f.X || slices.Contains(dims, d) || (d == spec.DimM && f.X == spec.DimN) || (d == spec.DimN && f.X == spec.DimM) {
			continue
		}
		if d == spec.DimM && len(v.sp.Inputs.M) == 0 {
			continue // m = n
		}
		vals, all := map[float64]bool{}, map[float64]bool{}
		for _, ix := range r.Runs {
			for _, k := range v.keys(ix) {
				all[dimOf(k, d)] = true
				if measured(ix, k) {
					vals[dimOf(k, d)] = true
				}
			}
		}
		if len(vals) == 0 {
			vals = all
		}
		if len(all) > 1 {
			top := math.Inf(-1)
			for v := range vals {
				top = max(top, v)
			}
			fixed[d] = top
		}
	}
	return fixed
}

// ownTitle is figure f's title, the spec's or what it draws by what,
// with the values it holds (fixed; hold's several, holdAt) after it; a
// speedup's baseline is named with its w0 workers, which every series
// divides.
func ownTitle(f spec.Figure, w0 int, fixed map[spec.Dim]float64, hold spec.Dim, holdAt []float64) string {
	title := f.Title
	if title == "" {
		base := fmt.Sprintf("%s on %d worker%s", f.Baseline, w0, plural(w0))
		what := map[spec.Quantity]string{spec.YTime: "Time", spec.YSpeedup: "Speedup over " + base, spec.YEfficiency: "Parallel efficiency over " + base,
			spec.YGCUPS: "Cells of the matrix a second", spec.YMemory: "Memory"}[f.Y]
		title = what + " by " + ownXNames[f.X]
	}
	var held []string
	for _, d := range spec.XValues {
		if v, ok := fixed[d]; ok {
			held = append(held, dimLabel(d, v))
		}
	}
	if len(holdAt) > 1 {
		var each []string
		for _, x := range holdAt {
			each = append(each, dimLabel(hold, x))
		}
		held = append(held, document.JoinAnd(each))
	}
	switch {
	case len(held) > 0 && strings.HasSuffix(title, ")"):
		// Not two brackets in a row: "Time by length n (symbols): 1
		// worker and 2 workers".
		title += ": " + strings.Join(held, ", ")
	case len(held) > 0:
		title += " (" + strings.Join(held, ", ") + ")"
	}
	return title
}

// ownChartPoint is point k of run ix as figure f draws it (its y, with the
// repetitions' range or the speedup's interval), x left to the caller;
// false where it draws none: no baseline or speedup, or memory of 0 on a
// log axis.
func ownChartPoint(ix *runs.Index, v *ownView, f spec.Figure, k runs.Key, st runs.Stat, yLog bool) (document.FigurePoint, bool) {
	var p document.FigurePoint
	switch f.Y {
	case spec.YTime:
		p.Y, p.Lo, p.Hi = st.Med, st.Min, st.Max
	case spec.YGCUPS:
		p.Y, p.Lo, p.Hi = st.GCUPS, st.GCUPS, st.GCUPS
	case spec.YMemory:
		if st.Alloc <= 0 && yLog {
			return p, false
		}
		p.Y, p.Lo, p.Hi = st.Alloc, st.Alloc, st.Alloc
	case spec.YSpeedup, spec.YEfficiency:
		b0, ok := baselineOf(ix, v, f.Baseline, k)
		if !ok {
			return p, false
		}
		q, ok := ix.SpeedupOf(b0, k)
		if !ok {
			return p, false
		}
		p.Y, p.Lo, p.Hi = q.X, q.X, q.X
		if q.CIKnown {
			p.Lo, p.Hi = q.Lo, q.Hi
		}
		if f.Y == spec.YEfficiency && k.Workers > 0 {
			w := float64(k.Workers) / float64(max(1, b0.Workers))
			p.Y, p.Lo, p.Hi = p.Y/w, p.Lo/w, p.Hi/w
		}
	}
	return p, true
}

// compareKeys orders points by the spec's implementations (Go functions
// run beside them after), then as runs.Less does.
func (v *ownView) compareKeys(a, b runs.Key) int {
	order := v.sp.ImplNames()
	rank := func(name string) int {
		if i := slices.Index(order, name); i >= 0 {
			return i
		}
		return len(order)
	}
	if ra, rb := rank(a.Algorithm), rank(b.Algorithm); ra != rb {
		return ra - rb
	}
	if runs.Less(a, b) {
		return -1
	}
	if runs.Less(b, a) {
		return 1
	}
	return 0
}

// ownTimes is the table of every point of a run: a row per
// implementation and parameters, a column per length pair; a failed
// point says why in its cell.
func ownTimes(r *runs.Set, ix *runs.Index, v *ownView, ks []runs.Key) *document.Table {
	// A row is a point without its lengths, which are the columns.
	type rowKey = runs.Key
	var rows []rowKey
	var cols [][2]int
	for _, k := range ks {
		rk := k
		rk.LenA, rk.LenB = 0, 0
		if !slices.Contains(rows, rk) {
			rows = append(rows, rk)
		}
		if c := [2]int{k.LenA, k.LenB}; !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	slices.SortStableFunc(rows, v.compareKeys)
	slices.SortFunc(cols, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	t := &document.Table{Caption: "Every point: median time, and below it min–max, or why it failed" + onName(r, ix), Head: []string{"implementation"}}
	t.Head = append(append(t.Head, v.vary...), "workers", "tile")
	for _, c := range cols {
		t.Head = append(t.Head, lengths(runs.Key{LenA: c[0], LenB: c[1]}))
	}
	for _, rk := range rows {
		tile := "—"
		if rk.Tile != 0 {
			tile = document.Count(rk.Tile)
		}
		row := []string{rk.Algorithm}
		for _, d := range v.vary {
			row = append(row, ownExtra(rk, d))
		}
		row = append(row, document.Count(rk.Workers), tile)
		for _, c := range cols {
			k := rk
			k.LenA, k.LenB = c[0], c[1]
			cell := "—"
			if why, ok := ix.Tally.Failed[k]; ok {
				cell = "FAILED\n" + strings.TrimPrefix(why, "failed: ")
			} else if st, ok := ix.Stats[k]; ok {
				cell = document.Dur(st.Med) + "\n" + document.Dur(st.Min) + "–" + document.Dur(st.Max)
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// ownSpeedups is the table of every speedup over the baseline, with its
// confidence interval and test.
func ownSpeedups(r *runs.Set, ix *runs.Index, v *ownView, base string, ks []runs.Key) *document.Table {
	w0 := slices.Min(v.sp.WorkersOr())
	t := &document.Table{Caption: fmt.Sprintf("Speedup over %s at %d %s, with its 95%% confidence interval and the Mann–Whitney U test%s", base, w0, "worker"+plural(w0), onName(r, ix)),
		Head: []string{"implementation", "lengths", "speedup", "95% CI", "p", "significant"},
		// Folded (not printed on paper): the findings give the best, the
		// spec's figures draw them, and the table over each one's own one
		// worker says how each scales.
		Folded: true}
	for _, k := range ks {
		b0, ok := baselineOf(ix, v, base, k)
		if !ok || b0 == k {
			continue
		}
		if _, failed := ix.Tally.Failed[k]; failed {
			t.Rows = append(t.Rows, []string{v.pointName(k), lengths(k), "failed", "—", "—", "—"})
			continue
		}
		q, ok := ix.SpeedupOf(b0, k)
		if !ok {
			continue
		}
		ci := fmt.Sprintf("needs ≥ %d reps", runs.BootMin)
		if q.CIKnown {
			ci = document.CI(q.Lo, q.Hi)
		}
		sig := "yes"
		if !q.Significant {
			sig = "no"
		}
		t.Rows = append(t.Rows, []string{v.pointName(k), lengths(k), document.Times(q.X), ci, document.Num(q.P), sig})
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// bandedAlgos are levlab's algorithms that skip most of the matrix (a
// band, bit-parallel columns) where a plain DP computes every cell.
var bandedAlgos = []string{records.AlgMyers, records.AlgMyersParallel, records.AlgAuto}

// unlike says what differs between a speedup's two implementations
// beyond their workers — the algorithm family, the clock — as a clause
// to end its sentence; "" where nothing known does.
func (v *ownView) unlike(base, that string) string {
	if !v.kept {
		return ""
	}
	algo := func(name string) string {
		if i := slices.IndexFunc(v.sp.Impl, func(im spec.Impl) bool { return im.Name == name }); i >= 0 {
			return v.sp.Impl[i].Algo
		}
		return ""
	}
	var says []string
	if a := algo(that); slices.Contains(bandedAlgos, a) && !slices.Contains(bandedAlgos, algo(base)) {
		says = append(says, fmt.Sprintf("algorithmic, not parallel: %s is the algorithm %s, bit-parallel columns in a band that skips most cells, against %s's DP of every cell", that, a, base))
	}
	clk := map[string]string{"own": "the time it printed itself", "wall": "its wall time from start to exit", "call": "a call timed inside levlab"}
	if cb, ct := v.ownClock(base), v.ownClock(that); cb != ct && clk[cb] != "" && clk[ct] != "" {
		says = append(says, fmt.Sprintf("and timed differently: %s by %s, %s by %s", that, clk[ct], base, clk[cb]))
	}
	if len(says) == 0 {
		return ""
	}
	return " — " + strings.Join(says, "; ")
}
