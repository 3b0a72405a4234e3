package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// section003 is report 003: approximate pattern matching by the share of
// work sent to the GPU (Figures 2–3) and by MPI ranks (Figures 4–7).
func section003(r *runs.Set) document.Section {
	s := document.Section{ID: SectionR003, Title: "Report 003 — approximate pattern matching over MPI, OpenMP and CUDA (Benbaki and Mammadov, 2021)", Source: records.Seed003}
	pub := r.Pub(func(p records.Published) bool { return p.Source == records.Seed003 })
	t := &document.Table{Caption: "The report's speedups: its sequential time over its parallel time plus transfers", Head: []string{"", "minimum", "maximum"}}
	byPair := map[string][2]string{}
	var pairs []string
	for _, p := range pub {
		pair, _, _ := strings.Cut(p.Note, ";")
		// A cut inside a parenthesis closes it.
		if strings.Count(pair, "(") > strings.Count(pair, ")") {
			pair += ")"
		}
		if !slices.Contains(pairs, pair) {
			pairs = append(pairs, pair)
		}
		v := byPair[pair]
		switch p.Metric {
		case "speedup_min":
			v[0] = document.PubNum(p.Value) + "×"
		case "speedup_max":
			v[1] = document.PubNum(p.Value) + "×"
		}
		byPair[pair] = v
	}
	printed := false // the report's unlabelled pairs are among them
	for _, pair := range pairs {
		label := pair
		switch pair {
		case "first pair":
			label, printed = "first pair printed (by its order perhaps Figure 4, small data)", true
		case "second pair":
			label, printed = "second pair printed (perhaps Figure 5, medium data)", true
		}
		t.Rows = append(t.Rows, []string{label, byPair[pair][0], byPair[pair][1]})
	}
	if len(pub) == 0 {
		s.P("The report's speedups are not among the published numbers read.")
	} else {
		s.Add(t)
		if printed {
			s.P("The report prints two pairs of minimum and maximum speedups just before Figure 4's caption, without saying which figure or file each belongs to; the table keeps them in the order printed, and which figure each is remains a guess.")
		}
	}
	section003Ratio(r, &s)
	section003Ranks(r, &s, pub)
	notRun(r, &s, records.ExpS003Ratio, records.ExpS003Ranks)
	return s
}

// section003Ratio is Figures 2–3: runtime by the share of the work sent
// to the GPU.
func section003Ratio(r *runs.Set, s *document.Section) {
	c := &document.Figure{ID: "r003ratio", Title: "Time by the share of positions sent to the GPU, one process on every core (report 003, Figures 2–3)", XName: "share of positions sent to the GPU", YName: document.TimeAxis, YLog: true}
	t := &document.Table{Caption: "Time by the share sent to the GPU, median with the spread below (report 003, Figures 2–3)", Head: []string{"", "text", "share to the GPU", "workers", "time", "matches"}}
	for _, ix := range r.Runs {
		sr := document.FigureSeries{Name: named(r, ix, "ours")}
		for _, k := range ix.Find(records.ExpS003Ratio, nil) {
			st := ix.Stats[k]
			sr.Points = append(sr.Points, document.FigurePoint{X: k.GPURatio, Y: st.Med, Lo: st.Min, Hi: st.Max})
			t.Rows = append(t.Rows, []string{named(r, ix, "ours"), document.Size(k.LenA) + " bytes", document.Num(k.GPURatio), document.Count(k.Workers), secs(st), document.Count(ix.Matches[k])})
		}
		sortPts(sr.Points)
		c.Series = append(c.Series, sr)
	}
	if len(t.Rows) == 0 {
		s.P("Figures 2–3, ours: not measured in the runs read (experiment s003-ratio).")
		return
	}
	if !c.Empty() {
		// The chart draws these points: the table is their detail, a
		// click away in HTML and left off paper.
		t.Folded = true
	}
	s.Add(t)
	if c.Empty() {
		s.P("Only the CPU share (0) ran: every share above 0 goes to the GPU, and no GPU was found (see What did not run), so there is no curve to draw. The report's Figures 2–3 print no numbers, only curves: runtime falling from about 100 to 40 (read off the figure, whose axis names no unit; we take it as seconds) with 4 OpenMP threads and 6.9 million CUDA threads on 136,473,378 bytes.")
		return
	}
	// The words on the figure before it, and our point at the report's
	// length after: on paper a half-width chart has text beside it.
	s.P("The report's Figures 2–3 print no numbers, only curves (runtime falling from about 100 to 40, read off the figure, whose axis names no unit; we take it as seconds, with 4 OpenMP threads and 6.9 million CUDA threads on 136,473,378 bytes); ours are drawn alone in the chart by share of positions.%s", shareShape(r, c))
	s.Add(c)
	if says := ownAtReportSize003(r); says != "" {
		s.P("%s", says)
	}
}

// shareShape says, for each run whose series of c has points at more than
// one share, how its time moves from the CPU alone to the largest share
// sent to the GPU, set against the report's falling curve; "" without
// such a run.
func shareShape(r *runs.Set, c *document.Figure) string {
	var rise, fall, overlap []string
	cpuBest := true // every rise's CPU-alone point is its fastest
	for i, ix := range r.Runs {
		if i >= len(c.Series) || len(c.Series[i].Points) < 2 {
			continue
		}
		pts := c.Series[i].Points
		a, b := pts[0], pts[len(pts)-1]
		share := "a share of " + document.Num(b.X)
		if b.X == 1 {
			share = "all of it"
		}
		w := fmt.Sprintf("on %s from %s with no share on the GPU to %s with %s", ix.Name, document.Dur(a.Y), document.Dur(b.Y), share)
		if b.Y > a.Y {
			rise = append(rise, w)
			for _, p := range pts[1:] {
				cpuBest = cpuBest && p.Y > a.Y
				// Slower, but not in every repetition: the ranges
				// overlap, and no test is read here.
				if p.Lo <= a.Hi {
					overlap = append(overlap, document.Num(p.X)+" on "+ix.Name)
				}
			}
		} else {
			fall = append(fall, w)
		}
	}
	var says []string
	if len(rise) > 0 {
		w := " Ours rise with the share sent to the GPU, " + strings.Join(rise, "; ") + ", where the report's fall"
		switch {
		case cpuBest && len(overlap) == 0:
			w += ": here the CPU alone is faster than with any share of the work sent to the GPU, in every repetition"
		case cpuBest:
			w += fmt.Sprintf(": here the CPU alone is faster at the median than with any share sent to the GPU; at a share of %s the repetitions' ranges overlap", strings.Join(overlap, " and "))
		}
		w += ". This sets algorithms side by side, not only processors: the CPU's share runs apm-fast, whose q-gram filter rules out most windows, and the GPU's computes the DP of every window it is sent"
		says = append(says, w)
	}
	if len(fall) > 0 {
		says = append(says, " Ours fall with the share sent to the GPU, as the report's do, "+strings.Join(fall, "; "))
	}
	if len(says) == 0 {
		return ""
	}
	return strings.Join(says, ".") + "."
}

// section003Ranks is Figures 4–7: time and speedup by ranks.
func section003Ranks(r *runs.Set, s *document.Section, pub []records.Published) {
	ct := &document.Figure{ID: "r003ranktime", Title: "Time by ranks (report 003, Figures 4–7)", XName: "ranks (one worker each)", YName: document.TimeAxis, YLog: true, XLog: true, XBase2: true, XWhole: true}
	cs := &document.Figure{ID: "r003ranks", Title: "Speedup over one process on one worker, by ranks (report 003, Figures 4–7)", XName: "ranks (one worker each)", YName: "speedup (×)", XLog: true, XBase2: true, XWhole: true, MarkY: 1, MarkName: "1×: as fast as one process on one worker"}
	any := false
	for _, ix := range r.Runs {
		ks := ix.Find(records.ExpS003Ranks, nil)
		if len(ks) == 0 {
			continue
		}
		any = true
		var sizes []int
		for _, k := range ks {
			sizes = append(sizes, k.LenA)
		}
		sizes = runs.SortedInts(sizes)
		t := &document.Table{Caption: "Time by ranks (median), and below it the speedup over one process on one worker, its 95% CI, n.s. where not significant" + onName(r, ix), Head: []string{""}}
		for _, n := range sizes {
			t.Head = append(t.Head, document.Size(n)+" bytes")
		}
		type cfg struct {
			name         string
			ranks, works int
		}
		var cfgs []cfg
		for _, k := range ks {
			c := cfg{ranks: k.Ranks, works: k.Workers}
			switch {
			case k.Ranks == 0 && k.Workers == 1:
				c.name = "1 process, 1 worker"
			case k.Ranks == 0:
				c.name = "1 process, " + workersN(k.Workers)
			case k.Ranks == 1:
				c.name = "1 rank"
			default:
				c.name = fmt.Sprintf("%d ranks", k.Ranks)
			}
			if !slices.ContainsFunc(cfgs, func(o cfg) bool { return o.ranks == c.ranks && o.works == c.works }) {
				cfgs = append(cfgs, c)
			}
		}
		slices.SortStableFunc(cfgs, func(a, b cfg) int {
			if a.ranks != b.ranks {
				return a.ranks - b.ranks
			}
			return a.works - b.works
		})
		base := map[int]runs.Key{}
		for _, k := range ks {
			if k.Ranks == 0 && k.Workers == 1 {
				base[k.LenA] = k
			}
		}
		for _, c := range cfgs {
			row := []string{c.name}
			for _, n := range sizes {
				cell := "—"
				for _, k := range ks {
					if k.LenA == n && k.Ranks == c.ranks && k.Workers == c.works {
						v := ix.Stats[k]
						cell = document.Dur(v.Med)
						if b, ok := base[n]; ok && !(c.ranks == 0 && c.works == 1) {
							cell += "\n" + speedupText(ix, b, k)
						}
					}
				}
				row = append(row, cell)
			}
			t.Rows = append(t.Rows, row)
		}
		// The two charts below draw these times and speedups but one
		// process on 2 workers: the table is their detail, a click away
		// in HTML and left off paper.
		t.Folded = true
		s.Add(t)
		for i, n := range sizes {
			label := document.Size(n) + " bytes"
			if len(sizes) == 4 {
				label = []string{"small", "medium", "large", "very large"}[i] + ", " + label
			}
			st, ss := document.FigureSeries{Name: named(r, ix, label)}, document.FigureSeries{Name: named(r, ix, label)}
			for _, k := range ks {
				if k.LenA != n || k.Ranks == 0 || k.Workers != 1 {
					continue
				}
				v := ix.Stats[k]
				st.Points = append(st.Points, document.FigurePoint{X: float64(k.Ranks), Y: v.Med, Lo: v.Min, Hi: v.Max})
				if b, ok := base[n]; ok {
					p := speedupPt(ix, b, k)
					p.X = float64(k.Ranks)
					ss.Points = append(ss.Points, p)
				}
			}
			sortPts(st.Points)
			sortPts(ss.Points)
			ct.Series, cs.Series = append(ct.Series, st), append(cs.Series, ss)
		}
	}
	if !any {
		s.P("Figures 4–7, ours: not measured in the runs read (experiment s003-ranks).")
		return
	}
	s.Add(ct, cs)
	var cores []string
	for _, ix := range r.Runs {
		if ix.Has(records.ExpS003Ranks) {
			cores = append(cores, fmt.Sprintf("%d on %s", ix.Cores(), ix.Name))
		}
	}
	s.P("How ours were measured: the ranks are simulated in one process: the text is cut into as many parts as ranks, each with the shadow bytes its last windows need, each part copied into its own buffer as each rank's read of the file does, and counted by its own group of workers, all at once, the counts summed. Cores: %s, so 4 and 8 ranks oversubscribe them. The command levlab match under mpirun does the same with real MPI processes and gives the same counts (tested).", strings.Join(cores, "; "))
	var pubMin, pubMax []string
	for _, p := range pub {
		switch p.Metric {
		case "speedup_min":
			pubMin = append(pubMin, document.PubNum(p.Value)+"×")
		case "speedup_max":
			pubMax = append(pubMax, document.PubNum(p.Value)+"×")
		}
	}
	if len(pubMin) > 0 || len(pubMax) > 0 {
		// The report prints minimum–maximum pairs, then its best on the
		// large files: each pair together, the best after them.
		var said []string
		for i, lo := range pubMin {
			if i < len(pubMax) {
				said = append(said, lo+" to "+pubMax[i])
			}
		}
		says := strings.Join(said, " and ")
		if len(said) > 0 {
			says += ", each a minimum and maximum as printed"
		}
		if len(pubMax) > len(pubMin) {
			if says != "" {
				says += "; "
			}
			says += "up to " + strings.Join(pubMax[len(pubMin):], ", ") + " on the large files"
		}
		s.P("Beside the report's: its speedups (%s) are of MPI processes, with ten times fewer GPUs than processes, running its per-position DP, over its sequential program; ours of ranks on one machine running apm-fast (bit-parallel) on the CPU alone, over one process on one worker.%s%s",
			says, oneRankCost(r), smallTextCost(r))
	}
}

// oneRankCost says how one simulated rank of one worker compares with one
// process of one worker over s003-ranks' texts, across the runs: the rank
// copies its part of the text into a buffer of its own (countRanks, as
// reading it from the file does under mpirun), inside the time, which the
// process does not; "" where no run has both.
func oneRankCost(r *runs.Set) string {
	var each []string
	for _, ix := range r.Runs {
		lo, hi := math.Inf(1), 0.0
		for _, k := range ix.Find(records.ExpS003Ranks, func(k runs.Key) bool { return k.Ranks == 1 && k.Workers == 1 }) {
			pk := k
			pk.Ranks = 0
			one, ok := ix.Stats[pk]
			if rk := ix.Stats[k]; ok && rk.Med > 0 {
				lo, hi = min(lo, one.Med/rk.Med), max(hi, one.Med/rk.Med)
			}
		}
		if hi > 0 {
			each = append(each, fmt.Sprintf("%s–%s on %s", document.Num(lo), document.Times(hi), ix.Name))
		}
	}
	if len(each) == 0 {
		return ""
	}
	return fmt.Sprintf(" One rank is %s as fast as one process at the sizes run: a rank copies its part of the text into a buffer of its own, as reading its part from the file does under mpirun, and that copy is inside its time; every speedup over ranks carries it.", document.JoinAnd(each))
}

// smallTextCost says how long one process on one worker counts the
// smallest text of s003-ranks, across the runs, where a speedup below 1
// is the split's cost against so short a count; "" without such points.
func smallTextCost(r *runs.Set) string {
	lo, hi, n := 0.0, 0.0, 0
	for _, ix := range r.Runs {
		ks := ix.Find(records.ExpS003Ranks, nil)
		if len(ks) == 0 {
			continue
		}
		small := ks[0].LenA
		for _, k := range ks {
			small = min(small, k.LenA)
		}
		for _, k := range ks {
			if k.LenA == small && k.Ranks == 0 && k.Workers == 1 {
				med := ix.Stats[k].Med
				if lo == 0 || med < lo {
					lo = med
				}
				hi, n = max(hi, med), small
			}
		}
	}
	if n == 0 {
		return ""
	}
	t := document.Dur(lo)
	if hi > lo {
		t += " to " + document.Dur(hi)
	}
	return fmt.Sprintf(" On the smallest text (%s bytes) the whole count takes %s on one worker, so what a split costs weighs as much as the count, and some of ours fall below 1×; which of the report's figures its 0.619× belongs to, and so whether it is such a case, its text does not say.", document.Size(n), t)
}

// text003 is the length in bytes of report 003's text in Figures 2–3.
const text003 = 136473378

// ownAtReportSize003 sets our all-CPU point at report 003's own text
// length beside the end of its curve, with what differs said; "" where no
// run has that point.
func ownAtReportSize003(r *runs.Set) string {
	var vals []string
	for _, ix := range r.Runs {
		for _, k := range ix.Find(records.ExpS003Ratio, func(k runs.Key) bool { return k.LenA == text003 && k.GPURatio == 0 }) {
			vals = append(vals, fmt.Sprintf("%s on %s (%s, %s)", document.Dur(ix.Stats[k].Med), ix.Name, k.Algorithm, workersN(k.Workers)))
		}
	}
	if len(vals) == 0 {
		return ""
	}
	// No ratio over the report's figure: read off an axis with no unit,
	// over inputs not ours, it would carry no more than its words do.
	return fmt.Sprintf("At the report's own length, %s bytes, with no share on a GPU, ours took %s. The report's curve ends at about 40 (seconds, our reading, as above); we set no ratio over it: the gap is algorithmic, not parallel, as apm-fast's q-gram filter rules out nearly every window of a random text before any distance is computed, where the report's DP visits every position, and the report's text, pattern and k are its own (k = 2 is ours; the report does not state it), so the sizes match and the inputs do not.",
		document.Count(text003), strings.Join(vals, ", "))
}
