package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// sectionGPU shows the gpu-fast experiment: cuda-fast at report 000's
// Table 2 sizes and 1M beside cuda-diagonal and the CPU's best run.
func sectionGPU(r *runs.Set) document.Section {
	s := document.Section{ID: SectionGPU, Title: "GPU: cuda-fast beside report 000's kernel and the best CPU run"}
	s.P("Three programs are compared: levlab's kernel cuda-fast, bit-parallel Myers/Hyyrö in one persistent launch, each warp lane holding 32 rows (carries pass between lanes by shuffles, and each band of rows hands its column chunks to the band below through progress counters); cuda-diagonal, our implementation of report 000's design, one launch per antidiagonal; and, on every core of the same machine, myers-parallel, the CPU's best.")
	c := &document.Figure{ID: "gputime", Title: "Time by string length (cuda-diagonal to 150,000 only, by the experiment's design: a launch per antidiagonal)", XName: "string length (characters)", YName: document.TimeAxis, XLog: true, YLog: true}
	// The chart, filled below, is their summary: it comes first, what
	// the tables find beside it (on paper the text flows around a
	// half-width chart), then the tables.
	s.Add(c)
	var tables []*document.Table
	gpuRan := false
	// A machine without a GPU ran the CPU's line alone: its rows join
	// the first GPU machine's table, named for their machine, so that
	// every rate Key results quotes from gpu-fast is in print.
	type cpuOnly struct {
		ix    *runs.Index
		ks    []runs.Key
		lines []setting
	}
	var cpus []cpuOnly
	var gpuTable *document.Table
	var gpuIx *runs.Index
	var gpuLens []int
	padded := false
	var everyCell []string // the algorithms whose cells said "every cell computed", said once
	// row is the table row of line l of ix at lens, name its first
	// cell, drawing its points in c as well with draw.
	row := func(ix *runs.Index, ks []runs.Key, l setting, lens []int, name string, draw bool) []string {
		sname := l.alg
		if l.workers > 0 {
			sname = l.alg + ", " + workersN(l.workers)
		}
		sr := document.FigureSeries{Name: named(r, ix, sname)}
		w := document.Count(l.workers)
		if strings.HasPrefix(l.alg, "cuda") {
			w = "GPU"
		}
		cells := []string{name, w}
		for _, n := range lens {
			i := slices.IndexFunc(ks, func(k runs.Key) bool { return k.Algorithm == l.alg && k.Workers == l.workers && k.LenA == n })
			if i < 0 {
				cells = append(cells, "—")
				continue
			}
			st := ix.Stats[ks[i]]
			// cuda-fast's padding is said once, in the caption.
			rate := rateText(st)
			padded = padded || rateTextOf(l.alg, st) != rate
			if r, ok := strings.CutSuffix(rate, ", every cell computed"); ok {
				rate = r
				if !slices.Contains(everyCell, l.alg) {
					everyCell = append(everyCell, l.alg)
				}
			}
			cell := document.Dur(st.Med) + "\n" + rate
			if l.workers > 1 && st.Cores > 0 {
				cell += "\n" + document.Num(st.Cores) + " cores busy"
			}
			cells = append(cells, cell)
			sr.Points = append(sr.Points, document.FigurePoint{X: float64(n), Y: st.Med, Lo: st.Min, Hi: st.Max})
		}
		if draw {
			c.Series = append(c.Series, sr)
		}
		return cells
	}
	for _, ix := range r.Runs {
		ks := ix.Find(records.ExpGPUFast, nil)
		if len(ks) == 0 {
			continue
		}
		lines, lens := settingsOf(ks)
		onGPU := false
		for _, l := range lines {
			onGPU = onGPU || strings.HasPrefix(l.alg, "cuda")
		}
		gpuRan = gpuRan || onGPU
		t := &document.Table{Caption: "Experiment gpu-fast: time (median) and, below it, the rate" + onName(r, ix), Head: []string{"algorithm", "workers"}}
		for _, n := range lens {
			t.Head = append(t.Head, document.Size(n))
		}
		if !onGPU {
			cpus = append(cpus, cpuOnly{ix, ks, lines})
			// Drawn here, in the order of the runs; its rows wait for a
			// GPU machine's table.
			for _, l := range lines {
				t.Rows = append(t.Rows, row(ix, ks, l, lens, l.alg, true))
			}
			t.Folded = true
			t.Caption += " (no GPU here; in the HTML, folded, Markdown and TeX versions, not in print)"
		} else {
			for _, l := range lines {
				t.Rows = append(t.Rows, row(ix, ks, l, lens, l.alg, true))
			}
			if gpuTable == nil {
				gpuTable, gpuIx, gpuLens = t, ix, lens
			}
		}
		tables = append(tables, t)
		if v := gpuVersusCPU(ix, ks); v != "" {
			s.P("%s", v+onName(r, ix)+".")
		}
		if v := diagonalElsewhere(r, ix, ks); v != "" {
			s.P("%s", v)
		}
	}
	if gpuTable != nil && len(cpus) > 0 {
		// The machines without a GPU, in print beside it: their folded
		// tables give way to rows here.
		for _, cp := range cpus {
			for _, l := range cp.lines {
				gpuTable.Rows = append(gpuTable.Rows, row(cp.ix, cp.ks, l, gpuLens, named(r, cp.ix, l.alg), false))
			}
		}
		tables = slices.DeleteFunc(tables, func(t *document.Table) bool { return t.Folded })
		gpuTable.Caption = "Experiment gpu-fast: time (median) and, below it, the rate; a row named for a machine ran there, without a GPU, the rest" + onName(r, gpuIx)
	}
	if gpuTable != nil && len(everyCell) > 0 {
		note := document.JoinAnd(everyCell) + " compute every cell, their matrix rate their computed one"
		if len(everyCell) == 1 {
			note = everyCell[0] + " computes every cell, its matrix rate its computed one"
		}
		if padded {
			note += "; cuda-fast's rows padding a string to whole words not counted"
		}
		gpuTable.Caption += " (" + note + ")"
	} else if padded && gpuTable != nil {
		gpuTable.Caption += " (cuda-fast: the rows padding a string to whole words not counted)"
	}
	if v := fewerWorkersFaster(r); v != "" {
		s.P("%s", v)
	}
	if v := busyCores(r); v != "" {
		s.P("%s", v)
	}
	for _, t := range tables {
		s.Add(t)
	}
	if c.Empty() {
		s.Blocks = slices.DeleteFunc(s.Blocks, func(b any) bool { return b == any(c) })
	}
	if !gpuRan {
		s.P("No GPU point ran in the runs read: the CPU side is shown alone.")
	}
	notRun(r, &s, records.ExpGPUFast)
	return s
}

// gpuTableRuns reports whether some run has gpu-fast points on a GPU, so
// that the GPU section prints a table, where the machines without a GPU
// have rows of their own.
func gpuTableRuns(r *runs.Set) bool {
	for _, ix := range r.Runs {
		if len(ix.Find(records.ExpGPUFast, func(k runs.Key) bool { return strings.HasPrefix(k.Algorithm, "cuda") })) > 0 {
			return true
		}
	}
	return false
}

// gpuRowNote is what a citation of ix's gpu-fast point adds: where a
// machine without a GPU has its row in the GPU section's table, ", a row
// of " and table, the citation's name for that table; else where its
// table is folded, that it is not in print.
func gpuRowNote(r *runs.Set, ix *runs.Index, table string) string {
	switch {
	case ix.Machine().GPU != "none":
		return ""
	case gpuTableRuns(r):
		return ", a row of " + table
	}
	return "; without a GPU here, its table is not in print"
}

// fewerWorkersFaster says where, in gpu-fast, myers-parallel on one
// machine's fewer workers is faster than on another's more by more than
// runs of one point lie apart on either machine, where the two are not
// told apart and where it is slower, and why that
// compares machines and code rather than workers: which run is of earlier
// code, and which machine's vector extensions are not recorded; "" where
// more workers are faster throughout.
func fewerWorkersFaster(r *runs.Set) string {
	type at struct {
		ix  *runs.Index
		w   int
		sec map[int]float64
	}
	var all []at
	for _, ix := range r.Runs {
		a := at{ix: ix, sec: map[int]float64{}}
		for _, k := range ix.Find(records.ExpGPUFast, func(k runs.Key) bool { return k.Algorithm == records.AlgMyersParallel }) {
			if k.Workers >= a.w {
				if k.Workers > a.w {
					a.sec = map[int]float64{}
				}
				a.w, a.sec[k.LenA] = k.Workers, ix.Stats[k].Med
			}
		}
		if a.w > 0 {
			all = append(all, a)
		}
	}
	var says []string
	involved := map[*runs.Index]bool{}
	for _, few := range all {
		for _, many := range all {
			if few.w >= many.w {
				continue
			}
			// A length counts only where the ratio passes how far runs
			// of one point lie apart on either machine (betweenRuns).
			spread, where := spreadOver(r, few.ix, many.ix)
			var faster, within, slower []string
			for _, n := range slices.Sorted(maps.Keys(few.sec)) {
				m, ok := many.sec[n]
				if !ok {
					continue
				}
				x := m / few.sec[n]
				switch at := fmt.Sprintf("%s (%s, %s against %s)", document.Size(n), document.Times(x), document.Dur(few.sec[n]), document.Dur(m)); {
				case x > spread:
					faster = append(faster, at)
				case 1/x > spread:
					slower = append(slower, at)
				default:
					within = append(within, at)
				}
			}
			if len(faster) == 0 {
				continue
			}
			involved[few.ix], involved[many.ix] = true, true
			w := fmt.Sprintf("in gpu-fast, myers-parallel on %s's %s is faster than on %s's %s at %d of %d lengths by more than runs of one point lie apart %s (up to %s): at %s",
				few.ix.Name, workersN(few.w), many.ix.Name, document.Count(many.w), len(faster), len(faster)+len(within)+len(slower), where, document.Times(spread), document.JoinAnd(faster))
			if len(within) > 0 {
				w += "; indistinguishable within that spread at " + document.JoinAnd(within)
			}
			if len(slower) > 0 {
				w += "; slower at " + document.JoinAnd(slower)
			}
			says = append(says, w)
		}
	}
	if len(says) == 0 {
		return ""
	}
	var why []string
	for _, a := range all {
		if !involved[a.ix] {
			continue
		}
		var of []string
		for _, o := range r.Staleness() {
			if o.Machine == a.ix.Name && o.Exp == records.ExpGPUFast && slices.Contains(o.Algs, records.AlgMyersParallel) {
				of = append(of, "earlier code, "+o.Made.String()+" (†)")
			}
		}
		if a.ix.Host == nil {
			of = append(of, "vector extensions and clock not recorded")
		}
		if len(of) > 0 {
			why = append(why, a.ix.Name+": "+strings.Join(of, "; "))
		}
	}
	text := upperFirst(strings.Join(says, "; ")) + ". This compares machines and code versions, not worker counts"
	if len(why) > 0 {
		text += " (" + strings.Join(why, "; ") + ")"
	}
	return text + "."
}

// spreadOver is how far runs of one point lie apart (betweenRuns) on
// machines a and b, the larger of the two, and where that was measured:
// "on either machine"; where either measured no point twice, the largest
// on any machine of r, as nothing says its own is smaller: "on any of
// our machines".
func spreadOver(r *runs.Set, a, b *runs.Index) (spread float64, where string) {
	na, wa, _, _ := betweenRuns(a)
	nb, wb, _, _ := betweenRuns(b)
	if na > 0 && nb > 0 {
		return max(1, wa, wb), "on either machine"
	}
	return mostSpread(r), "on any of our machines"
}

// mostSpread is the most that runs of one point lie apart on any machine
// of r (betweenRuns), 1 where none measured a point twice.
func mostSpread(r *runs.Set) float64 {
	spread := 1.0
	for _, ix := range r.Runs {
		if n, worst, _, _ := betweenRuns(ix); n > 0 {
			spread = max(spread, worst)
		}
	}
	return spread
}

// gpuVersusCPU says, size by size, how cuda-fast's median time compares
// with the CPU's best run (myers-parallel on the most workers) in ks:
// "Against myers-parallel on 16 workers, cuda-fast is 0.313× as fast at
// 10,000, …, 1.61× as fast at 1,000,000"; "" without both.
func gpuVersusCPU(ix *runs.Index, ks []runs.Key) string {
	cpuW := 0
	for _, k := range ks {
		if k.Algorithm == records.AlgMyersParallel {
			cpuW = max(cpuW, k.Workers)
		}
	}
	var parts []string
	for _, k := range ks {
		if k.Algorithm != records.AlgCUDAFast {
			continue
		}
		ck, ok := ix.GetKey(records.ExpGPUFast, records.AlgMyersParallel, cpuW, 0, k.LenA, k.LenB)
		if !ok {
			continue
		}
		c, g := ix.Stats[ck], ix.Stats[k]
		ci := ciOf(ix, ck, k) // ", 95% CI …" or ""
		x := c.Med / g.Med
		if x > 1/1.05 && x < 1.05 {
			// Within a few per cent, which runs of one point differ by
			// (Method): level, whatever its interval.
			within := "within the spread between runs"
			if n, worst, _, _ := betweenRuns(ix); n > 0 && ci != "" {
				// The test and the interval see one run's repetitions:
				// said, and set against how far runs lie apart.
				test := "one run's repetitions,"
				if q, ok := ix.SpeedupOf(ck, k); ok {
					test = fmt.Sprintf("over one run's repetitions (Mann–Whitney p = %.2g),", q.P)
					if q.Significant {
						test = fmt.Sprintf("significant over one run's repetitions (Mann–Whitney p = %.2g), yet", q.P)
					}
				}
				within = fmt.Sprintf("%s well inside the %s runs lie apart here: no finding", test, document.Times(worst))
			}
			parts = append(parts, fmt.Sprintf("level at %s (%s as fast%s; %s)", document.Size(k.LenA), document.Times(x), ci, within))
			continue
		}
		if ci != "" {
			ci = " (" + strings.TrimPrefix(ci, ", ") + ")"
		}
		parts = append(parts, fmt.Sprintf("%s as fast at %s%s", document.Times(x), document.Size(k.LenA), ci))
	}
	if len(parts) == 0 {
		return ""
	}
	// The two differ in work, not only in hardware: cuda-fast computes
	// every cell (its bands are of rows), myers-parallel the diagonal
	// band a path of the distance's cost can reach.
	return fmt.Sprintf("Against myers-parallel on %s, cuda-fast is %s: times to the same answer, cuda-fast computing every cell of the matrix and myers-parallel only a band of it, so the ratio is of algorithms and hardware together", workersN(cpuW), strings.Join(parts, ", "))
}

// diagonalElsewhere says, for cuda-diagonal at the largest length of
// gpu-fast's points ks, every other measurement of that one point on the
// same machine (the same lengths and block, any strings: every cell is
// computed) — another experiment's at the same block, and the
// benchmark's — so that a reader who meets it in several sections reads
// one point measured in several runs; "" where it was measured once.
func diagonalElsewhere(r *runs.Set, ix *runs.Index, ks []runs.Key) string {
	var k runs.Key
	for _, c := range ks {
		if c.Algorithm == records.AlgCUDADiagonal && c.LenA >= k.LenA {
			k = c
		}
	}
	if k.Algorithm == "" {
		return ""
	}
	block := runs.BlockOf(k)
	var others []string
	lo, hi := ix.Stats[k].Med, ix.Stats[k].Med
	seen := func(sec float64) {
		lo, hi = min(lo, sec), max(hi, sec)
	}
	// Each measurement names its commits, as What was read does on
	// screen (it is left out on paper).
	var commits []string // every commit the measurements name
	note := func(cs ...string) {
		for _, c := range cs {
			if !slices.Contains(commits, c) {
				commits = append(commits, c)
			}
		}
	}
	at := func(exp string) string {
		cs := runs.Commits(ix, exp)
		if len(cs) == 0 {
			return ""
		}
		note(cs...)
		return " at " + strings.Join(cs, ", ")
	}
	for o := range ix.Stats {
		// Every cell is computed whatever the strings hold, so another
		// case of input is the same work; it is named all the same.
		if o.Experiment != k.Experiment && o.Algorithm == k.Algorithm && runs.BlockOf(o) == block && o.LenA == k.LenA && o.LenB == k.LenB {
			w := fmt.Sprintf("%s in experiment %s%s", document.Dur(ix.Stats[o].Med), o.Experiment, at(o.Experiment))
			if o.Case != k.Case {
				w += fmt.Sprintf(" (strings of case %s, not %s: the same cells)", o.Case, k.Case)
			}
			others = append(others, w)
			seen(ix.Stats[o].Med)
		}
	}
	slices.Sort(others)
	med := benchMedians(r.Bench[ix.Run.Machine], []string{"gpu.txt"})
	if ns := med[fmt.Sprintf("GPU/alg=%s/n=%d/block=%d", k.Algorithm, k.LenA, block)]["ns/op"]; ns > 0 {
		w := document.Dur(ns/1e9) + " in the benchmarks (make bench-results"
		for _, f := range benchFilesNamed(r.Bench[ix.Run.Machine], []string{"gpu.txt"}) {
			if c := f.Config["commit"]; c != "" {
				w += ", at " + c
				note(c)
			}
		}
		others = append(others, w+")")
		seen(ns / 1e9)
	}
	if len(others) == 0 {
		return ""
	}
	runsBlock := fmt.Sprintf("runs %d threads a block", block)
	if k.Block == 0 {
		runsBlock = fmt.Sprintf("runs its default block, %d threads (its records say 0, the default)", block)
	}
	first := at(k.Experiment)
	spread := "between runs (Method)"
	if len(commits) > 1 {
		spread += " and code versions"
	}
	return fmt.Sprintf("Here cuda-diagonal %s; at n = %s it took %s%s, and the same point took %s: one point and one setting measured in %d runs, %s apart, so the spread is %s. Key results quotes report 000's Table 2 experiment at its fastest block.",
		runsBlock, document.Size(k.LenA), document.Dur(ix.Stats[k].Med), first, strings.Join(others, ", "), len(others)+1, document.Times(hi/lo), spread)
}

// busyCores says, for gpu-fast's myers-parallel on each machine's most
// workers, how many cores it kept busy (CPU time over wall time, the
// tables' "cores busy") and the computed cells a busy core at the
// largest length every such machine ran up to 150,000 (report 000's
// largest), so that machines whose workers differ are read for what their
// cores did; and why a busy core may do little: a worker waiting on its
// neighbour's strip spins, and spinning is CPU time. "" where fewer than
// two machines recorded their CPU time there.
func busyCores(r *runs.Set) string {
	type busy struct {
		ix *runs.Index
		w  int
		at map[int]runs.Stat
	}
	var all []busy
	for _, ix := range r.Runs {
		b := busy{ix: ix, at: map[int]runs.Stat{}}
		ks := ix.Find(records.ExpGPUFast, func(k runs.Key) bool { return k.Algorithm == records.AlgMyersParallel })
		for _, k := range ks {
			b.w = max(b.w, k.Workers)
		}
		for _, k := range ks {
			if st := ix.Stats[k]; k.Workers == b.w && st.Cores > 0 && st.CCUPS > 0 {
				b.at[k.LenA] = st
			}
		}
		if len(b.at) > 0 {
			all = append(all, b)
		}
	}
	if len(all) < 2 {
		return ""
	}
	n := 0
	for l := range all[0].at {
		common := l <= 150_000
		for _, b := range all[1:] {
			_, ok := b.at[l]
			common = common && ok
		}
		if common {
			n = max(n, l)
		}
	}
	if n == 0 {
		return ""
	}
	perCore := func(b busy) float64 { return b.at[n].CCUPS / b.at[n].Cores }
	var says []string
	for _, b := range all {
		says = append(says, fmt.Sprintf("%s on %s kept %s cores busy, %s %s a busy core", workersN(b.w), b.ix.Name, document.Num(b.at[n].Cores), document.Num(perCore(b)), computedRate))
	}
	text := fmt.Sprintf("Workers against cores (cores busy: myers-parallel's CPU time over its wall time): at n = %s, %s.", document.Size(n), strings.Join(says, "; "))
	// Of the gap a busy core, how much one worker against one explains
	// (many-pairs: auto on 1 worker, the same code on both machines),
	// and what is left for waiting.
	slow, fast := all[0], all[len(all)-1]
	if perCore(slow) > perCore(fast) {
		slow, fast = fast, slow
	}
	gap := perCore(fast) / perCore(slow)
	if one, at, ok := oneWorkerRatio(fast.ix, slow.ix); ok && one > 1 {
		text += fmt.Sprintf(" One worker against one, %s's core is the slower: lev auto on 1 worker in many-pairs (N = %s; the same lev, another kernel, the pairs' lanes) ran %s as fast on %s (the cause, core generation or the VM, not measured). Of the %s gap between their busy cores, that accounts for %s.", slow.ix.Name, document.Count(at), document.Times(one), fast.ix.Name, document.Times(gap), document.Times(one))
		gap /= one
	}
	return text + fmt.Sprintf(" The rest, %s, we read as waiting on the wavefront of strips: a worker that waits for its neighbour's strip spins, and spinning counts as CPU time; that was not measured directly.", document.Times(gap))
}

// oneWorkerRatio is how many times fast's lev auto on one worker ran as
// fast as slow's in many-pairs, at the largest N both measured, by their
// computed rates; false where either lacks such a point.
func oneWorkerRatio(fast, slow *runs.Index) (ratio float64, n int, ok bool) {
	for _, k := range fast.Find(records.ExpManyPairs, func(k runs.Key) bool { return k.Algorithm == records.AlgAuto && k.Workers == 1 }) {
		s, have := slow.Stats[k]
		f := fast.Stats[k]
		if have && s.CCUPS > 0 && f.CCUPS > 0 && k.LenA > n {
			ratio, n, ok = f.CCUPS/s.CCUPS, k.LenA, true
		}
	}
	return ratio, n, ok
}
