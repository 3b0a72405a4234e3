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

	"github.com/levlab/levlab/records"
)

// section001 is report 001: speedup by length, tile side and threads
// (Figures 4–7) against its stated bound, and the diagonal approach.
func section001(r *runs.Set) document.Section {
	s := document.Section{ID: SectionR001, Title: "Report 001 — OpenMP and C++ threads over diagonals and tiles (Carkaxhija)", Source: records.Seed001}
	bound := 0.0
	var pubM string
	for _, p := range r.Pub(func(p records.Published) bool { return p.Source == records.Seed001 && p.Metric == "speedup_min" }) {
		bound, pubM = max(bound, p.Value), p.Machine
	}
	// each adds, for every run, the named series of the chart.
	each := func(c *document.Figure, add func(ix *runs.Index, name func(string) string)) {
		for _, ix := range r.Runs {
			add(ix, func(n string) string { return named(r, ix, n) })
		}
	}
	c := &document.Figure{ID: "r001len", Title: "Speedup over the sequential full matrix, by string length, on every core (report 001, Figures 4–5)", XName: "string length (characters)", YName: "speedup (×)", XLog: true}
	each(c, func(ix *runs.Index, name func(string) string) {
		c.Series = append(c.Series,
			speedupSeries(ix, name("tiled (OpenMP-like)"), []string{records.ExpS001Length}, records.AlgFullMatrix, records.AlgTiled, -1, nil, lenX),
			speedupSeries(ix, name("tiled-barrier (C++ threads)"), []string{records.ExpS001Length}, records.AlgFullMatrix, records.AlgTiledBarrier, -1, nil, lenX))
	})
	// The bound is drawn on the length chart alone and named with the
	// lengths and tiles it was stated for: the tile and thread charts
	// range outside them.
	if bound > 0 && len(r.Runs) > 0 {
		c.MarkY, c.MarkName, c.MarkFromX = bound, fmt.Sprintf("report: ≥ %s× (stated around n = %s)", document.PubNum(bound), document.Size(claimN001)), claimN001
		c.Title += fmt.Sprintf("; the report's bound, ≥ %s×, is stated \"for sufficient numerous points (around 10.000) and tile size between 128 and 1024\", and drawn from n = %s on, as we read it", document.PubNum(bound), document.Size(claimN001))
	}
	s.Add(c)
	if bound == 0 {
		s.P("The report's stated bound is not among the published numbers read.")
	}
	// One paragraph for every machine: the report's claim said once, each
	// machine's best after it.
	var at, best, coreCtx, coreOn []string
	for i, ix := range r.Runs {
		a, b := c.Series[2*i], c.Series[2*i+1]
		if len(a.Points) == 0 {
			continue
		}
		on := onName(r, ix)
		// The length the claim names first, then the best past it.
		if pa, pb := ptAt(a, claimN001), ptAt(b, claimN001); pa.Y > 0 && pb.Y > 0 {
			at = append(at, fmt.Sprintf("tiled %s and tiled-barrier %s%s", ptTimes(pa), ptTimes(pb), on))
		}
		ta, tb := maxPtFrom(a, claimN001), maxPtFrom(b, claimN001)
		best = append(best, fmt.Sprintf("%s at n = %s (tiled%s) and %s at n = %s (tiled-barrier%s)%s",
			ptTimes(ta), document.Count(int(ta.X)), fig6Same(ix, records.AlgTiled, ta), ptTimes(tb), document.Count(int(tb.X)), fig6Same(ix, records.AlgTiledBarrier, tb), on))
		coreCtx, coreOn = append(coreCtx, strconv.Itoa(ix.Cores())), append(coreOn, on)
	}
	if len(best) > 0 {
		cores := fmt.Sprintf("%s cores, where parallelism alone gives at most %s×", coreCtx[0], coreCtx[0])
		if !allSame(coreCtx) {
			for i := range coreCtx {
				coreCtx[i] += coreOn[i]
			}
			cores = strings.Join(coreCtx, " and ") + " cores, where parallelism alone gives at most that many times"
		}
		atN := ""
		if len(at) > 0 {
			atN = fmt.Sprintf("at n = %s ours is %s; ", document.Size(claimN001), strings.Join(at, "; "))
		}
		s.P("Where ours differ and why: the report states at least %s× on %s for lengths around 10,000 and tiles of 128 to 1,024; %sour best at those lengths and more (tile %d, inside its range, on every core; chosen after looking) is %s, on %s.%s Beyond that, the baseline — the full matrix, as the report's — loses to the tiled versions' small working set: over two rows the gain is smaller (see report 000's section).",
			document.PubNum(bound), orUnknown(pubM), atN, defaultTile001, strings.Join(best, "; "), cores, fig7Most(r, bound))
	}
	if !r.Measured(records.ExpS001Length) {
		s.P("Ours: not measured in the runs read (experiment s001-length).")
	}
	ct := &document.Figure{ID: "r001tile", Title: "Speedup over the sequential full matrix, by tile side (report 001, Figure 6" + heldIn(r, records.ExpS001Tile, "tile") + ")", XName: "tile side (cells)", YName: "speedup (×)", XLog: true}
	tileX := func(k runs.Key) float64 { return float64(k.Tile) }
	pos := func(k runs.Key) bool { return k.Tile > 0 }
	each(ct, func(ix *runs.Index, name func(string) string) {
		ct.Series = append(ct.Series,
			speedupSeries(ix, name(records.AlgTiled), []string{records.ExpS001Tile}, records.AlgFullMatrix, records.AlgTiled, -1, pos, tileX),
			speedupSeries(ix, name(records.AlgTiledBarrier), []string{records.ExpS001Tile}, records.AlgFullMatrix, records.AlgTiledBarrier, -1, pos, tileX))
	})
	s.Add(ct)
	cw := &document.Figure{ID: "r001threads", Title: "Speedup over the sequential full matrix, by threads (report 001, Figure 7" + heldIn(r, records.ExpS001Threads, "workers") + ")", XName: "workers (threads)", YName: "speedup (×)", XLog: true, XBase2: true, XWhole: true}
	wX := func(k runs.Key) float64 { return float64(k.Workers) }
	each(cw, func(ix *runs.Index, name func(string) string) {
		cw.Series = append(cw.Series,
			speedupSeries(ix, name(records.AlgTiled), []string{records.ExpS001Threads}, records.AlgFullMatrix, records.AlgTiled, -1, nil, wX),
			speedupSeries(ix, name(records.AlgTiledBarrier), []string{records.ExpS001Threads}, records.AlgFullMatrix, records.AlgTiledBarrier, -1, nil, wX))
	})
	s.Add(cw)
	// One sentence for every machine of the same core count.
	byCores := map[int][]string{}
	var coreCounts []int
	for _, ix := range r.Runs {
		if ix.Has(records.ExpS001Threads) {
			if byCores[ix.Cores()] == nil {
				coreCounts = append(coreCounts, ix.Cores())
			}
			byCores[ix.Cores()] = append(byCores[ix.Cores()], ix.Name)
		}
	}
	for _, c := range coreCounts {
		s.P("Beyond %s our threads share %d cores on %s, where parallelism alone gains nothing more; %s.", workersN(c), c, strings.Join(byCores[c], " and "), pastTheCores(r, c))
	}
	// heldIn's n is len_a here, the length held; len_b shrinks with the
	// ratio, which the title says (ratioClaim says what follows of it).
	held := strings.TrimPrefix(heldIn(r, records.ExpS001Ratio, "m"), "; ")
	if n, rest, ok := strings.Cut(held, ", "); ok && strings.HasPrefix(n, "n = ") {
		held = "len_a = " + strings.TrimPrefix(n, "n = ") + ", len_b = len_a ÷ ratio, " + rest
	}
	cr := &document.Figure{ID: "r001ratio", Title: "Section 4: speedup over two rows, by length ratio (" + held + ")", XName: "length ratio len_a/len_b", YName: "speedup (×)", XLog: true}
	ratioX := lengthRatio
	for _, ix := range r.Runs {
		cr.Series = append(cr.Series,
			speedupSeries(ix, named(r, ix, records.AlgDiagonal), []string{records.ExpS001Ratio}, records.AlgTwoRow, records.AlgDiagonal, -1, nil, ratioX),
			speedupSeries(ix, named(r, ix, records.AlgTiled), []string{records.ExpS001Ratio}, records.AlgTwoRow, records.AlgTiled, -1, nil, ratioX))
	}
	s.Add(cr)
	if says := ratioClaim(r, cr); says != "" {
		s.P("%s", says)
	}
	cd := &document.Figure{ID: "r001diag", Title: "Sections 3–4: the diagonal approach — speedup over two rows, by string length", XName: "string length (characters)", YName: "speedup (×)", XLog: true}
	for _, ix := range r.Runs {
		for _, a := range []string{records.AlgDiagonal, records.AlgTiled, records.AlgTiledBarrier} {
			for _, w := range []int{1, 2} {
				cd.Series = append(cd.Series, speedupSeries(ix, named(r, ix, a+", "+workersN(w)), []string{records.ExpS001Diagonal}, records.AlgTwoRow, a, w, nil, lenX))
			}
		}
	}
	s.Add(cd)
	s.P("The report gives Figures 4–7 as plots without printed values; only its stated bound is drawn beside ours (the horizontal line of the chart by string length).")
	notRun(r, &s, records.ExpS001Length, records.ExpS001Tile, records.ExpS001Threads, records.ExpS001Ratio, records.ExpS001Diagonal)
	return s
}

// defaultTile001 is the tile side of tiled and tiled-barrier where a
// record names none (lev.DefaultTile; a test holds the two equal, as
// report does not link lev).
const defaultTile001 = 512

// ratioClaim sets report 001's words on unequal lengths (Section 4: the
// diagonal approach gains slightly more on strings of significantly
// different lengths, then falls back toward the sequential time as the
// ratio grows) beside the diagonal series of cr, one per run in r.Runs
// order; "" without them. Whether the speedup rises or falls is the
// quotient of two speedups and its bootstrap interval (GainOf), not
// whether the points' intervals overlap.
func ratioClaim(r *runs.Set, cr *document.Figure) string {
	var says []string
	for i, ix := range r.Runs {
		if 2*i >= len(cr.Series) {
			break
		}
		d := cr.Series[2*i]
		if len(d.Points) < 3 || d.Points[0].X != 1 {
			continue
		}
		eq, top := d.Points[0], d.Points[1]
		for _, p := range d.Points[1:] {
			if p.Y > top.Y {
				top = p
			}
		}
		last := d.Points[len(d.Points)-1]
		diag := ix.Find(records.ExpS001Ratio, func(k runs.Key) bool { return k.Algorithm == records.AlgDiagonal })
		// The highest of k ratios is chosen after looking: its interval
		// is Bonferroni's, 1 − 0.05/k. The largest ratio, where the
		// report says the gain falls back, is chosen before.
		k := len(d.Points) - 1
		up := ratioGain(ix, diag, 1-0.05/float64(k), eq.X, top.X)
		// Where the equal-length baseline ran slow: the equal-length
		// speedup over its other runs, fastest to slowest, and the
		// quotients over it; flips where against every other run ratio
		// top's speedup is a gain that this run's shows none of.
		slow, flips := "", false
		if len(diag) > 0 {
			if b, ok := ix.GetKey(records.ExpS001Ratio, records.AlgTwoRow, 1, 0, diag[0].LenA, diag[0].LenA); ok {
				if note := slowBaseline(ix, b); note != "" {
					lo, hi, _ := medsElsewhere(ix, b)
					med := ix.Stats[b].Med
					eqLo, eqHi := eq.Y*lo/med, eq.Y*hi/med
					span := func(a, b float64) string {
						if document.Num(a) == document.Num(b) {
							return document.Times(a)
						}
						return document.Num(min(a, b)) + "–" + document.Times(max(a, b))
					}
					flips = top.Y > eqHi && !(up.Significant && up.X > 1)
					slow = fmt.Sprintf("; at equal lengths its baseline ran slow (%s), which raises the speedup there: over those other runs it would be %s, ratio %s's %s that",
						note, span(eqLo, eqHi), ratioNum(top.X), span(top.Y/eqLo, top.Y/eqHi))
					if flips {
						slow += ", a gain of the kind the report describes"
					}
					if last.X != top.X {
						slow += fmt.Sprintf(" (ratio %s's %s)", ratioNum(last.X), span(last.Y/eqLo, last.Y/eqHi))
					}
					if flips {
						slow += ": whether unequal lengths gain is undecided"
					}
				}
			}
		}
		w := ratioShape(eq, top, last, up, ratioGain(ix, diag, 0.95, eq.X, last.X), k, flips)
		if len(diag) > 0 {
			w = workersN(diag[0].Workers) + ": " + w + slow
		}
		says = append(says, "On "+ix.Name+", "+w+".")
	}
	if len(says) == 0 {
		return ""
	}
	shape := ""
	if la, lb := ratioLengths(r); la > 0 && lb < la {
		shape = fmt.Sprintf("Our experiment holds len_a at %s and shortens len_b to len_a ÷ ratio (%s at the largest ratio), so the matrix shrinks as the ratio grows: ratio and size change together, and a fall of the speedup may come of either. ", document.Size(la), document.Size(lb))
	}
	return "Report 001 (Section 4, First results) finds the diagonal approach gaining slightly more on strings of significantly different lengths, and falling back toward the sequential time as the ratio grows; it prints no numbers for this. Ours is our diagonal's speedup over our sequential two rows (the report's baseline is its sequential full matrix, so the levels differ; the shape is what is compared). " + shape + strings.Join(says, " ")
}

// ratioLengths is the length len_a that s001-ratio holds and the
// shortest len_b it pairs with it, over every run in r; 0, 0 where it
// ran nowhere.
func ratioLengths(r *runs.Set) (la, lb int) {
	for _, ix := range r.Runs {
		for _, k := range ix.Find(records.ExpS001Ratio, nil) {
			la = max(la, k.LenA)
			if lb == 0 || k.LenB < lb {
				lb = k.LenB
			}
		}
	}
	return la, lb
}

// ratioGain is how many times the diagonal's speedup over two rows at
// length ratio x is its speedup at ratio x0 (GainOf, its interval at
// level), from its keys diag in s001-ratio; zero where a point or its
// base is missing.
func ratioGain(ix *runs.Index, diag []runs.Key, level, x0, x float64) runs.Ratio {
	pair := func(x float64) (b, k runs.Key, ok bool) {
		for _, k := range diag {
			if lengthRatio(k) == x {
				b, ok := ix.GetKey(records.ExpS001Ratio, records.AlgTwoRow, 1, 0, k.LenA, k.LenB)
				return b, k, ok
			}
		}
		return runs.Key{}, runs.Key{}, false
	}
	b0, k0, ok0 := pair(x0)
	b, k, ok := pair(x)
	if !ok0 || !ok {
		return runs.Ratio{}
	}
	q, _ := ix.GainOf(level, b0, k0, b, k)
	return q
}

// lengthRatio is k's length ratio as the experiment names it: len_b is
// len_a ÷ ratio rounded down (20,000 ÷ 128 = 156), so the quotient back,
// 128.21, is rounded.
func lengthRatio(k runs.Key) float64 {
	return math.Round(float64(k.LenA) / float64(k.LenB))
}

// ratioShape says how a diagonal's speedup by length ratio meets report
// 001's words: eq, top and last are its points at equal lengths, at its
// highest ratio (of the ratios past 1 it was measured at) and at the
// largest; up and down are top's and last's speedups over eq's
// (ratioGain). With ownBaseOnly, "no gain" is said of this run's
// equal-length baseline alone, which the other runs of it would undo.
func ratioShape(eq, top, last document.FigurePoint, up, down runs.Ratio, ratios int, ownBaseOnly bool) string {
	var rise string
	switch {
	case top.Y <= eq.Y:
		rise = fmt.Sprintf("it is highest at equal lengths, %s: no gain from unequal lengths, where the report finds one", ptTimes(eq))
	case up.Significant && up.X > 1:
		rise = fmt.Sprintf("it rises from %s at equal lengths to %s at ratio %s, the highest of its %d ratios past 1: %s, as the report says", ptTimes(eq), ptTimes(top), ratioNum(top.X), ratios, gainText(up))
	default:
		verdict := "so no gain is shown where the report finds one"
		if ownBaseOnly {
			verdict = "so against this run's own baseline no gain is shown"
		}
		rise = fmt.Sprintf("at ratio %s, the highest of its %d ratios past 1, it is %s, %s: indistinguishable from %s at equal lengths, %s", ratioNum(top.X), ratios, ptTimes(top), gainText(up), ptTimes(eq), verdict)
	}
	if last.X == top.X || last.X == eq.X {
		return rise
	}
	at := fmt.Sprintf("at ratio %s it is %s", ratioNum(last.X), ptTimes(last))
	switch {
	case !down.Significant:
		return fmt.Sprintf("%s; %s, %s: indistinguishable from it", rise, at, gainText(down))
	case down.X > 1:
		return fmt.Sprintf("%s; %s, %s: it does not fall back as the report's does", rise, at, gainText(down))
	case eq.Y < 1:
		return fmt.Sprintf("%s; %s, %s: it falls as the report's does, but further below 1×, away from the sequential time rather than toward it", rise, at, gainText(down))
	}
	return fmt.Sprintf("%s; %s, %s: it falls back toward the sequential time, as the report says", rise, at, gainText(down))
}

// gainText writes a quotient of speedups (ratioGain): "1.38× that at
// equal lengths (95% CI 0.902–1.51, n.s.)", that being the speedup.
func gainText(q runs.Ratio) string {
	if q.X <= 0 {
		return "not comparable: a point or its base is missing"
	}
	return ratioWords(q, " that at equal lengths")
}

// claimN001 is the length from which report 001 states its bound
// ("around 10.000" points).
const claimN001 = 10000

// maxYFrom is the highest y of s's points at x ≥ from; 0 without any.
func maxYFrom(s document.FigureSeries, from float64) float64 {
	return maxPtFrom(s, from).Y
}

// maxPtFrom is the point of s with the highest y at x ≥ from (the zero
// point where there is none).
// ptAt returns s's point at x, the zero point where s has none.
func ptAt(s document.FigureSeries, x float64) document.FigurePoint {
	for _, p := range s.Points {
		if p.X == x {
			return p
		}
	}
	return document.FigurePoint{}
}

func maxPtFrom(s document.FigureSeries, from float64) document.FigurePoint {
	var m document.FigurePoint
	for _, p := range s.Points {
		if p.X >= from && p.Y > m.Y {
			m = p
		}
	}
	return m
}

// fig7Most gives Figure 7's tiled versions on the most workers (the
// report's own thread count where it ran 4) whose interval reaches the
// report's bound, or every one where none does, as a sentence: " On 4
// workers (Figure 7, …), tiled 3.72× (95% CI 2.87–4.04) on AMD EPYC:
// intervals that reach 4×, yet no support for the bound: …";
// "" where Figure 7 was not run.
func fig7Most(r *runs.Set, bound float64) string {
	var says, reaching, baseNotes []string
	workers, n := 0, 0
	for _, ix := range r.Runs {
		noted := false
		for _, alg := range []string{records.AlgTiled, records.AlgTiledBarrier} {
			_, most, ok := pastCoresKeys(ix, alg)
			if !ok {
				continue
			}
			b, ok := ix.GetKey(records.ExpS001Threads, records.AlgFullMatrix, 1, 0, most.LenA, most.LenB)
			if !ok {
				continue
			}
			p := speedupPt(ix, b, most)
			w := fmt.Sprintf("%s %s%s", alg, ptTimes(p), onName(r, ix))
			says = append(says, w)
			if bound > 0 && p.Hi >= bound {
				reaching = append(reaching, w)
				if note := baseElsewhere(ix, b); note != "" && !noted {
					baseNotes, noted = append(baseNotes, note+onName(r, ix)), true
				}
			}
			workers, n = most.Workers, most.LenA
		}
	}
	if len(says) == 0 {
		return ""
	}
	on := fmt.Sprintf("On %s (report 001's Figure 7, n = %s, more workers than cores)", workersN(workers), document.Size(n))
	if len(reaching) > 0 {
		text := fmt.Sprintf(" %s, %s: intervals that reach %s×, yet no support for the bound, with more workers than cores", on, strings.Join(reaching, "; "), document.PubNum(bound))
		if len(baseNotes) > 0 {
			text += ", and a baseline that varies between experiments: " + strings.Join(baseNotes, "; ")
		}
		return text + "."
	}
	return fmt.Sprintf(" %s: %s, every interval below %s×.", on, strings.Join(says, "; "), document.PubNum(bound))
}

// baseElsewhere compares baseline point b's median with the same point
// (algorithm, workers, lengths) in ix's other experiments: "its
// fullmatrix took 704 ms there and 545 ms–704 ms in 4 other
// experiments"; "" where no other experiment measured it.
func baseElsewhere(ix *runs.Index, b runs.Key) string {
	lo, hi, others := medsElsewhere(ix, b)
	here := ix.Stats[b].Med
	if others == 0 {
		return ""
	}
	span := document.Dur(lo)
	if document.Dur(hi) != span {
		span += "–" + document.Dur(hi)
	}
	return fmt.Sprintf("its %s took %s there and %s in %d other experiment%s", b.Algorithm, document.Dur(here), span, others, plural(others))
}

// slowBaseline says, where baseline point b ran more than 1.1× as long
// (the gap the report takes for more than noise) as its fastest median in
// other experiments, how far: "its fullmatrix took 3.89 s there and
// 3.33 s–3.35 s in 2 other experiments, 1.17× the fastest of them". A
// speedup over a slow run of its baseline is the higher for it. "" where
// not.
func slowBaseline(ix *runs.Index, b runs.Key) string {
	lo, _, others := medsElsewhere(ix, b)
	if others == 0 || ix.Stats[b].Med <= 1.1*lo {
		return ""
	}
	return baseElsewhere(ix, b) + ", " + document.Times(ix.Stats[b].Med/lo) + " the fastest of them"
}

// fig6Same is how Figure 6's experiment (s001-tile) measured best, a
// point of s001-length at the default tile on every core, where it
// measured that length too: "; Figure 6's run of this point: 3.22× (95%
// CI 2.83–3.28)"; "" where it did not, or reads the same. The two are
// runs of one point, as far apart as the summary's between-run spread.
func fig6Same(ix *runs.Index, alg string, best document.FigurePoint) string {
	for _, k := range ix.Find(records.ExpS001Tile, func(k runs.Key) bool {
		return k.Algorithm == alg && k.Tile == defaultTile001 && float64(k.LenA) == best.X && k.Workers == ix.Cores()
	}) {
		b, ok := ix.GetKey(records.ExpS001Tile, records.AlgFullMatrix, 1, 0, k.LenA, k.LenB)
		if !ok {
			continue
		}
		if p := ptTimes(speedupPt(ix, b, k)); p != ptTimes(best) {
			return "; " + p + " in the tile-side run (report 001's Figure 6)"
		}
	}
	return ""
}

// ptTimes writes a speedup point as the text quotes it, with its interval
// (the 95% bootstrap one, or the repetitions' range where too few, as
// Method says), each named: "2.97× (95% CI 2.80–3.10)".
func ptTimes(p document.FigurePoint) string {
	s := document.Times(p.Y)
	if lo, hi := document.Num(p.Lo), document.Num(p.Hi); p.Lo > 0 && p.Hi > p.Lo && lo != hi {
		what := "range "
		if p.CI {
			what = "95% CI "
		}
		s += " (" + what + lo + "–" + hi + ")"
	}
	return s
}

// ratioNum writes a length ratio: whole ratios as counts ("32", not
// "32.0"), others as num does.
func ratioNum(x float64) string {
	if x == math.Trunc(x) && x < 1e15 {
		return document.Count(int(x))
	}
	return document.Num(x)
}

// pastTheCores says, for each run of c cores in s001-threads and each
// tiled version, whether its time on the most workers differs from its
// time on c, by the U test and the interval: no difference where no test tells
// them apart, else how far it moved, so that the text says what Figure 7
// shows rather than what two cores would suggest.
func pastTheCores(r *runs.Set, c int) string {
	var says []string
	rose := false
	for _, ix := range r.Runs {
		if ix.Cores() != c || !ix.Has(records.ExpS001Threads) {
			continue
		}
		for _, alg := range []string{records.AlgTiled, records.AlgTiledBarrier} {
			atCores, most, ok := pastCoresKeys(ix, alg)
			if !ok {
				continue
			}
			q, ok := ix.SpeedupOf(atCores, most)
			if !ok {
				continue
			}
			name := alg + onName(r, ix)
			if !q.Significant {
				says = append(says, fmt.Sprintf("%s on %d workers is indistinguishable from %d (%s as fast, n.s.)", name, most.Workers, c, document.Times(q.X)))
				continue
			}
			says = append(says, fmt.Sprintf("%s is %s as fast on %d workers as on %d (95%% CI %s)", name, document.Times(q.X), most.Workers, c, document.CI(q.Lo, q.Hi)))
			rose = rose || q.X > 1
		}
	}
	if len(says) == 0 {
		return "Figure 7 flattens there rather than at the report's core count"
	}
	if rose {
		// Said once: a rise past the cores is not parallelism.
		says = append(says, fmt.Sprintf("a rise past %d workers is more than %d cores can give by running in parallel, and the records do not say where it comes from", c, c))
	}
	return strings.Join(says, "; ")
}

// heldIn says what the parallel points of experiment exp hold fixed
// beside the chart's x (one of "tile", "workers", "m"): "; n = 20,000,
// tile 512, every core" — each dimension whose value is one over every
// run, workers as "every core" where each run's equal its cores; "" where
// nothing is held.
func heldIn(r *runs.Set, exp, x string) string {
	ns, ms, tiles := map[int]bool{}, map[int]bool{}, map[int]bool{}
	everyCore, seen := true, false
	for _, ix := range r.Runs {
		for _, k := range ix.Find(exp, func(k runs.Key) bool { return k.Workers > 1 }) {
			seen = true
			ns[k.LenA], ms[k.LenB], tiles[k.Tile] = true, true, true
			everyCore = everyCore && k.Workers == ix.Cores()
		}
	}
	if !seen {
		return ""
	}
	var held []string
	if len(ns) == 1 {
		for n := range ns {
			held = append(held, "n = "+document.Size(n))
		}
	}
	if x != "m" && len(ms) == 1 && !maps.Equal(ms, ns) {
		for m := range ms {
			held = append(held, "m = "+document.Size(m))
		}
	}
	if x != "tile" && len(tiles) == 1 {
		for t := range tiles {
			if t > 0 {
				held = append(held, "tile "+document.Count(t))
			}
		}
	}
	if x != "workers" && everyCore {
		held = append(held, "every core")
	}
	if len(held) == 0 {
		return ""
	}
	return "; " + strings.Join(held, ", ")
}

// pastCoresKeys is alg's point of s001-threads on run ix's cores, and its
// point on the most workers past them at the same length; false where
// either is missing.
func pastCoresKeys(ix *runs.Index, alg string) (atCores, most runs.Key, ok bool) {
	ks := ix.Find(records.ExpS001Threads, func(k runs.Key) bool { return k.Algorithm == alg })
	at := slices.IndexFunc(ks, func(k runs.Key) bool { return k.Workers == ix.Cores() })
	if at < 0 {
		return runs.Key{}, runs.Key{}, false
	}
	atCores, most = ks[at], ks[at]
	for _, k := range ks {
		if k.LenA == most.LenA && k.Workers > most.Workers {
			most = k
		}
	}
	return atCores, most, most != atCores
}
