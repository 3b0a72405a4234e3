package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// section000 is report 000: Table 1 (sequential against OpenMP tiles),
// Figure 3 (speedup by size), Table 2 and Figure 4 (the CUDA antidiagonal
// kernel by block size).
func section000(r *runs.Set) document.Section {
	s := document.Section{ID: SectionR000, Title: "Report 000 — OpenMP tiles and a CUDA antidiagonal kernel (Ceccherelli, 2023)", Source: records.Seed000}
	t1 := readTable1(r)
	table1(r, &s, t1)
	figure3(r, &s, t1)
	if !r.Measured(records.ExpS000Table1, records.ExpS000Fig3) {
		s.P("Ours: not measured in the runs read (experiments s000-table1 and s000-fig3).")
	}
	table2(r, &s)
	return s
}

// table1Pub is report 000's Table 1 as published: its rows, and the
// lengths it times (10,000, 30,000 and 50,000 where none were read).
type table1Pub struct {
	pub   []records.Published
	sizes []int
}

// readTable1 reads report 000's Table 1 from the published numbers.
func readTable1(r *runs.Set) table1Pub {
	pub := r.Pub(func(p records.Published) bool { return p.Source == records.Seed000 && p.Table == "Table 1" })
	sizes := uniqInts(pub, func(p records.Published) int { return p.LenA })
	if len(sizes) == 0 {
		sizes = []int{10000, 30000, 50000}
	}
	return table1Pub{pub, sizes}
}

// val is the published time of alg on w threads at length n.
func (t1 table1Pub) val(alg string, w, n int) (float64, bool) {
	for _, p := range t1.pub {
		if p.Algorithm == alg && p.Workers == w && p.LenA == n && p.Metric == "seconds" {
			return p.Value, true
		}
	}
	return 0, false
}

// table1 adds report 000's Table 1 to s: the report's times beside ours,
// by length.
func table1(r *runs.Set, s *document.Section, t1 table1Pub) {
	pub, sizes, pubVal := t1.pub, t1.sizes, t1.val
	// The report prints every time of Table 1 with two decimals ("1.30s").
	dec := 0
	for _, p := range pub {
		dec = max(dec, document.Decimals(p.Value))
	}
	t := &document.Table{Caption: "Time by string length, the report's (mean of 10 runs) beside ours (median; the spread of the repetitions below it) (report 000, Table 1)", Head: []string{""}}
	for _, n := range sizes {
		t.Head = append(t.Head, document.Size(n))
	}
	for _, row := range []struct {
		name string
		alg  string
		w    int
	}{{"report: sequential (full matrix)", records.AlgFullMatrix, 1}, {"report: 4 threads", records.AlgTiled, 4}, {"report: 8 threads", records.AlgTiled, 8}} {
		line := []string{row.name}
		for _, n := range sizes {
			if v, ok := pubVal(row.alg, row.w, n); ok {
				line = append(line, document.PubFixed(v, dec)+" s")
			} else {
				line = append(line, "—")
			}
		}
		t.Rows = append(t.Rows, line)
	}
	notAtSize := false
	for _, ix := range r.Runs {
		if len(ix.Find(records.ExpS000Table1, nil)) == 0 {
			continue // not in this run: "What was read" says so
		}
		for _, row := range []struct {
			name string
			alg  string
			w    int
		}{{"full matrix", records.AlgFullMatrix, 1}, {"two rows", records.AlgTwoRow, 1}, {"tiled, 4 workers", records.AlgTiled, 4}, {"tiled, 8 workers", records.AlgTiled, 8}} {
			line := []string{named(r, ix, row.name)}
			for _, n := range sizes {
				if st, ok := ix.Get(records.ExpS000Table1, row.alg, row.w, 0, n, n); ok {
					line = append(line, secs(st))
				} else {
					line = append(line, "—")
					notAtSize = true
				}
			}
			t.Rows = append(t.Rows, line)
		}
	}
	s.Add(t)
	if notAtSize && r.Measured(records.ExpS000Table1) {
		why := ""
		if r.Quick() {
			why = " (the quick scale stops at 10,000; levlab run --scale paper times them all)"
		}
		s.P("A dash: not measured at that length in the run read%s.", why)
	}
}

// figure3 adds report 000's Figure 3 to s, the tiled version's speedup
// by length on 4 and 8 workers, and what differs from the report's.
func figure3(r *runs.Set, s *document.Section, t1 table1Pub) {
	pub, sizes, pubVal := t1.pub, t1.sizes, t1.val
	// Figure 3: speedup vs size, 4 and 8 workers.
	c := &document.Figure{ID: "r000fig3", Title: "Speedup of the tiled version over the sequential full matrix, by string length (report 000, Figure 3)", XName: "string length (characters)", YName: "speedup (×)", XLog: true}
	exps := []string{records.ExpS000Table1, records.ExpS000Fig3}
	for _, w := range []int{4, 8} {
		ps := document.FigureSeries{Name: fmt.Sprintf("report, %d threads", w), Published: true}
		for _, n := range sizes {
			seq, ok1 := pubVal(records.AlgFullMatrix, 1, n)
			par, ok2 := pubVal(records.AlgTiled, w, n)
			if ok1 && ok2 {
				v := seq / par
				ps.Points = append(ps.Points, document.FigurePoint{X: float64(n), Y: v, Lo: v, Hi: v})
			}
		}
		c.Series = append(c.Series, ps)
	}
	for _, ix := range r.Runs {
		for _, w := range []int{4, 8} {
			c.Series = append(c.Series, speedupSeries(ix, named(r, ix, "ours, "+workersN(w)), exps, records.AlgFullMatrix, records.AlgTiled, w, nil, lenX))
		}
	}
	s.Add(c)
	if from := lengthsByExp(r, exps, records.AlgTiled); len(from) > 1 {
		s.P("Our lines join the medians of %d experiments, run apart: %s.", len(from), strings.Join(from, "; "))
	}
	pcs := "cores not stated"
	if len(pub) > 0 && pubCores(pub[0].Machine) > 0 {
		pcs = fmt.Sprintf("%d cores", pubCores(pub[0].Machine))
	}
	// The report's best point: its speedup, length and threads (4, then
	// 8: the series' order), where ours is set beside it.
	bestPub, bestX, bestW := 0.0, 0.0, 0
	for i, sr := range c.Series[:2] {
		if p := maxPtFrom(sr, 0); p.Y > bestPub {
			bestPub, bestX, bestW = p.Y, p.X, 4*(i+1)
		}
	}
	// One paragraph for every machine: the report's machine said once,
	// each machine's numbers after it.
	var coreCtx, coreVals, best, trafficCtx, traffic []string
	var aboveCores []pastCore
	over := 0 // the fewest cores a machine's best speedup exceeds
	for i, ix := range r.Runs {
		s4, s8 := c.Series[2+2*i], c.Series[3+2*i]
		if len(s4.Points) == 0 && len(s8.Points) == 0 {
			continue
		}
		n := ix.Cores()
		on := ""
		if len(r.Runs) > 1 {
			on = " on " + ix.Name
		}
		coreCtx, coreVals = append(coreCtx, fmt.Sprintf("%d cores", n)), append(coreVals, strings.TrimPrefix(on, " "))
		b4, b8 := maxPtFrom(s4, 0), maxPtFrom(s8, 0)
		say := fmt.Sprintf("%s with 4 workers (n = %s%s) and %s with 8 (n = %s%s)", ptTimes(b4), document.Size(int(b4.X)), fig3Base(ix, int(b4.X), b4.Y), ptTimes(b8), document.Size(int(b8.X)), fig3Base(ix, int(b8.X), b8.Y))
		if b4.X == b8.X {
			// One length, one baseline: its note once.
			say = fmt.Sprintf("%s with 4 workers and %s with 8 (both at n = %s%s)", ptTimes(b4), ptTimes(b8), document.Size(int(b4.X)), fig3Base(ix, int(b4.X), b4.Y, b8.Y))
		}
		if sw := map[int]document.FigureSeries{4: s4, 8: s8}[bestW]; bestX > 0 {
			if i := slices.IndexFunc(sw.Points, func(p document.FigurePoint) bool { return p.X == bestX }); i >= 0 {
				say += fmt.Sprintf(", and %s with %d at the report's best point", ptTimes(sw.Points[i]), bestW)
			}
		}
		if on != "" {
			say = "On " + ix.Name + ", " + say
		} else {
			say = "Ours: " + say
		}
		best = append(best, say+".")
		if top := max(maxY(s4), maxY(s8)); n > 0 && top > float64(n) {
			ks := ix.Find(records.ExpS000Table1, func(k runs.Key) bool { return k.Algorithm == records.AlgTiled && k.Workers == 8 })
			if len(ks) == 0 {
				continue
			}
			at := ks[len(ks)-1].LenA
			twk, ok1 := ix.GetKey(records.ExpS000Table1, records.AlgTwoRow, 1, 0, at, at)
			t8k, ok2 := ix.GetKey(records.ExpS000Table1, records.AlgTiled, 8, 0, at, at)
			fm, ok3 := ix.Get(records.ExpS000Table1, records.AlgFullMatrix, 1, 0, at, at)
			if ok1 && ok2 && ok3 {
				tw, t8 := ix.Stats[twk], ix.Stats[t8k]
				trafficCtx = append(trafficCtx, fmt.Sprintf("at n = %s (beside a matrix of %s) is", document.Size(at), document.BytesStr(fm.Alloc)))
				traffic = append(traffic, fmt.Sprintf("%s (two rows: %s)%s", document.Times(tw.Med/t8.Med), document.Dur(tw.Med), on))
				if tw.Med/t8.Med > float64(n) {
					aboveCores = append(aboveCores, pastCores(ix, twk, t8k, on, n))
				}
				if over == 0 || n < over {
					over = n
				}
			}
		}
	}
	if len(best) > 0 {
		ours := coreCtx[0]
		if !allSame(coreCtx) {
			ours = shared(coreCtx, coreVals)
		}
		s.P("Where ours differ and why: the report ran on \"%s\" (%s); ours on %s, so 4 and 8 workers share them. The report's best speedup is %s (n = %s, %d threads). Ours below are the best over the sequential full matrix (the report's baseline, its Listing 2), the highest over the lengths and so chosen after looking (their intervals not corrected for the choice; the report's own point is chosen before). %s",
			pubMachine(pub), pcs, ours, document.Times(bestPub), document.Size(int(bestX)), bestW, strings.Join(best, " "))
	}
	if len(traffic) > 0 {
		s.P("More than %d× on %d cores is not parallelism alone: the baseline fills the whole matrix, whose memory traffic we take to be most of its time (no memory counter was read), where the tiled version keeps only tile borders. Over our sequential two-row version, the 8-worker speedup %s.%s",
			over, over, shared(trafficCtx, traffic), pastCoresText(aboveCores))
	}
}

// fig3Base says, where the full matrix that a speedup of Figure 3's chart
// at length n divides (s000-table1's, else s000-fig3's) ran slower than
// elsewhere (slowBaseline), how far. "" where not.
func fig3Base(ix *runs.Index, n int, speedups ...float64) string {
	for _, exp := range []string{records.ExpS000Table1, records.ExpS000Fig3} {
		if b, ok := ix.GetKey(exp, records.AlgFullMatrix, 1, 0, n, n); ok {
			note := slowBaseline(ix, b)
			if note == "" {
				return ""
			}
			// Each speedup over the fastest run of its baseline instead.
			lo, _, _ := medsElsewhere(ix, b)
			var over []string
			for _, y := range speedups {
				over = append(over, document.Times(y*lo/ix.Stats[b].Med))
			}
			if len(over) > 0 {
				note += "; over the fastest, " + document.JoinAnd(over)
			}
			return "; " + note
		}
	}
	return ""
}

// table2 is report 000's Table 2 and Figure 4: the CUDA antidiagonal
// kernel's time by block size, with our CPU's two rows for scale.
func table2(r *runs.Set, s *document.Section) {
	pub2 := r.Pub(func(p records.Published) bool { return p.Source == records.Seed000 && p.Table == "Table 2" })
	blocks, lens := uniqInts(pub2, func(p records.Published) int { return p.Block }), uniqInts(pub2, func(p records.Published) int { return p.LenA })
	if len(pub2) == 0 {
		s.P("The report's Table 2 is not among the published numbers read.")
		return
	}
	t2 := &document.Table{Caption: "The CUDA antidiagonal kernel's time by string length and threads per block, the report's beside ours (report 000, Table 2)", Head: []string{""}}
	for _, n := range lens {
		t2.Head = append(t2.Head, document.Size(n))
	}
	for _, b := range blocks {
		row := []string{fmt.Sprintf("report: block %d", b)}
		for _, n := range lens {
			v := "—"
			for _, p := range pub2 {
				if p.Block == b && p.LenA == n {
					v = document.PubNum(p.Value) + " s"
				}
			}
			row = append(row, v)
		}
		t2.Rows = append(t2.Rows, row)
	}
	// The chart draws the smallest and the largest block alone: the
	// blocks' lines coincide but at the largest sizes, and all of them
	// would pass the lines a reader can tell apart; Table 2 holds the rest.
	drawn := []int{blocks[0], blocks[len(blocks)-1]}
	c4 := &document.Figure{ID: "r000fig4", Title: fmt.Sprintf("CUDA time by string length, blocks of %s and %s threads, and our CPU's two rows for scale (report 000, Table 2)", document.Count(drawn[0]), document.Count(drawn[1])), XName: "string length (characters)", YName: document.TimeAxis, XLog: true, YLog: true}
	for _, b := range slices.Compact(drawn) {
		ps := document.FigureSeries{Name: fmt.Sprintf("report, block %d", b), Published: true}
		for _, p := range pub2 {
			if p.Block == b {
				ps.Points = append(ps.Points, document.FigurePoint{X: float64(p.LenA), Y: p.Value, Lo: p.Value, Hi: p.Value})
			}
		}
		c4.Series = append(c4.Series, ps)
	}
	for _, ix := range r.Runs {
		for _, sr := range cudaSeries(ix, records.ExpS000Table2) {
			row := []string{named(r, ix, sr.Name)}
			for _, n := range lens {
				v := "—"
				for _, p := range sr.Points {
					if int(p.X) == n {
						v = document.Dur(p.Y)
					}
				}
				row = append(row, v)
			}
			t2.Rows = append(t2.Rows, row)
			if !slices.ContainsFunc(drawn, func(b int) bool { return strings.HasSuffix(sr.Name, fmt.Sprintf(" block %d", b)) }) {
				continue
			}
			sr.Name = named(r, ix, sr.Name)
			c4.Series = append(c4.Series, sr)
		}
		cpu := document.FigureSeries{Name: named(r, ix, "ours, CPU two rows (one core)")}
		for _, k := range ix.Find(records.ExpS000Fig4, func(k runs.Key) bool { return k.Algorithm == records.AlgTwoRow }) {
			st := ix.Stats[k]
			cpu.Points = append(cpu.Points, document.FigurePoint{X: float64(k.LenA), Y: st.Med, Lo: st.Min, Hi: st.Max})
		}
		for _, k := range ix.Find(records.ExpS000Table1, func(k runs.Key) bool { return k.Algorithm == records.AlgTwoRow }) {
			st := ix.Stats[k]
			cpu.Points = append(cpu.Points, document.FigurePoint{X: float64(k.LenA), Y: st.Med, Lo: st.Min, Hi: st.Max})
		}
		sortPts(cpu.Points)
		if len(cpu.Points) > 0 {
			c4.Series = append(c4.Series, cpu)
		}
	}
	s.Add(t2, c4)
	s.P("The report's Figure 4 plots the speedup of its CUDA version, with no values printed; the chart draws the times of its Table 2 instead, the figure's source, beside ours.")
	notRun(r, s, records.ExpS000Table1, records.ExpS000Fig3, records.ExpS000Fig4, records.ExpS000Table2)
}

func cudaSeries(ix *runs.Index, exp string) []document.FigureSeries {
	byBlock := map[int]*document.FigureSeries{}
	var order []int
	for _, k := range ix.Find(exp, func(k runs.Key) bool { return strings.HasPrefix(k.Algorithm, "cuda") }) {
		sr := byBlock[k.Block]
		if sr == nil {
			sr = &document.FigureSeries{Name: fmt.Sprintf("ours, block %d", k.Block)}
			byBlock[k.Block] = sr
			order = append(order, k.Block)
		}
		st := ix.Stats[k]
		sr.Points = append(sr.Points, document.FigurePoint{X: float64(k.LenA), Y: st.Med, Lo: st.Min, Hi: st.Max})
	}
	var out []document.FigureSeries
	for _, b := range runs.SortedInts(order) {
		sr := byBlock[b]
		sortPts(sr.Points)
		out = append(out, *sr)
	}
	return out
}

// lengthsByExp says, for each experiment of exps that measured alg on any
// run, the lengths it measured: "s000-fig3 at n = 1,000, 2,000, 5,000".
// A chart whose line joins several experiments' points says so with it.
func lengthsByExp(r *runs.Set, exps []string, alg string) []string {
	var out []string
	for _, e := range exps {
		var ns []int
		for _, ix := range r.Runs {
			for _, k := range ix.Find(e, func(k runs.Key) bool { return k.Algorithm == alg }) {
				if !slices.Contains(ns, k.LenA) {
					ns = append(ns, k.LenA)
				}
			}
		}
		if len(ns) == 0 {
			continue
		}
		var ss []string
		for _, n := range runs.SortedInts(ns) {
			ss = append(ss, document.Count(n))
		}
		out = append(out, e+" at n = "+strings.Join(ss, ", "))
	}
	return out
}

// pastCore is how one machine's speedup above its n cores stands, for
// pastCoresText to say beside the others of its kind.
type pastCore struct {
	kind int // pastNoCI, pastBeyond, pastWithin
	n    int
	what string // "the 2.12× on AMD EPYC (95% CI 1.85–2.28)"
}

const (
	pastNoCI = iota
	pastBeyond
	pastWithin
)

// pastCores says how a speedup of that over base above the n cores
// stands: past them only where its interval lies above n, and then not
// parallelism alone (the two loops differ, by how much a cell is not
// measured at this size); else above them only within its interval.
func pastCores(ix *runs.Index, base, that runs.Key, on string, n int) pastCore {
	q, ok := ix.SpeedupOf(base, that)
	x := ix.Stats[base].Med / ix.Stats[that].Med
	if !ok || !q.CIKnown {
		return pastCore{pastNoCI, n, fmt.Sprintf("the %s%s", document.Times(x), on)}
	}
	what := fmt.Sprintf("the %s%s (95%% CI %s)", document.Times(x), on, document.CI(q.Lo, q.Hi))
	if q.Lo > float64(n) {
		return pastCore{pastBeyond, n, what}
	}
	return pastCore{pastWithin, n, what}
}

// pastCoresText says pcs as one sentence a kind and core count, so
// that two machines alike are said once: "" without any.
func pastCoresText(pcs []pastCore) string {
	type group struct{ kind, n int }
	var order []group
	whats := map[group][]string{}
	for _, pc := range pcs {
		g := group{pc.kind, pc.n}
		if whats[g] == nil {
			order = append(order, g)
		}
		whats[g] = append(whats[g], pc.what)
	}
	var says []string
	for _, g := range order {
		w := whats[g]
		subj := upperFirst(document.JoinAnd(w))
		one := len(w) == 1
		switch g.kind {
		case pastNoCI:
			says = append(says, fmt.Sprintf("%s %s above %d cores, with no interval to tell %s from them", subj, pick(one, "is", "are"), g.n, pick(one, "it", "them")))
		case pastBeyond:
			says = append(says, fmt.Sprintf("%s %s more than %d cores give: the two loops differ, and how much faster a cell the tiled one computes is not measured at this size", subj, pick(one, "is", "are"), g.n))
		default:
			if one {
				says = append(says, fmt.Sprintf("%s is above %d cores in the median, but its interval reaches below %d×: not shown to be more than the cores give", subj, g.n, g.n))
			} else {
				says = append(says, fmt.Sprintf("%s are above %d cores in the median, but %s excludes %d×: not shown to be more than the cores give", subj, g.n, pick(len(w) == 2, "neither interval", "no interval"), g.n))
			}
		}
	}
	return aboveText(says)
}

// pick is a when one, else b.
func pick(one bool, a, b string) string {
	if one {
		return a
	}
	return b
}

// aboveText says each of says as a sentence of its own, after a space;
// "" without any.
func aboveText(says []string) string {
	var b strings.Builder
	for _, w := range says {
		b.WriteString(" ")
		b.WriteString(w)
		b.WriteString(".")
	}
	return b.String()
}
