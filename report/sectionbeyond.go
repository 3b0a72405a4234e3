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

// sectionBeyond sets every algorithm and the peers side by side: time,
// GCUPS and memory by length.
func sectionBeyond(r *runs.Set) document.Section {
	s := document.Section{ID: SectionBeyond, Title: "Beyond the reports: every algorithm and the peers"}
	// The rates are drawn in two charts, the full DPs and the bit-parallel
	// algorithms, so that neither passes the lines a reader can tell apart
	// (splitCharts then splits a chart by machine). Time needs no chart of
	// its own: at one length a rate is the cells over the time, and the
	// tables give both. Memory is drawn for the first machine alone: the
	// same code allocates the same bytes on every machine.
	cg := &document.Figure{ID: "beyondgcups", Title: "Cells of the matrix a second by string length: bit-parallel algorithms and the peers", XName: "string length (characters)", YName: matrixRateAxis, XLog: true, YLog: true}
	cdp := &document.Figure{ID: "beyonddp", Title: "Cells of the matrix a second by string length: full dynamic programs (Wagner–Fischer), every cell computed (fullmatrix and diagonal run to 10,000 only, by the experiment's design)", XName: "string length (characters)", YName: matrixRateAxis, XLog: true, YLog: true}
	// Memory, split as the rates are: the bit-parallel algorithms and
	// the peers, then the full dynamic programs.
	cmem := &document.Figure{ID: "beyondmem", Title: "Memory allocated per call, by string length: bit-parallel algorithms", XName: "string length (characters)", YName: "bytes allocated", XLog: true, YLog: true}
	cmemdp := &document.Figure{ID: "beyondmemdp", Title: "Memory allocated per call, by string length: full dynamic programs", XName: "string length (characters)", YName: "bytes allocated", XLog: true, YLog: true}
	var tables []*document.Table
	var lead []string // each machine's fastest point, said before the charts
	// The workers each chart's lines ran on, said in its title: the
	// parallel ones' count, the others on one.
	workersOf := map[*document.Figure]map[string]int{cg: {}, cdp: {}}
	for _, ix := range r.Runs {
		ks := ix.Find(records.ExpPeers, nil)
		if len(ks) == 0 {
			continue
		}
		var algs []string
		var lens []int
		for _, k := range ks {
			if !slices.Contains(algs, k.Algorithm) {
				algs = append(algs, k.Algorithm)
			}
			lens = append(lens, k.LenA)
		}
		lens = runs.SortedInts(lens)
		t := &document.Table{Caption: "Time (median) and, below it, the rate and memory per call" + onName(r, ix), Head: []string{"algorithm", "workers"}}
		for _, n := range lens {
			t.Head = append(t.Head, document.Size(n))
		}
		var noHeap []string
		var best runs.Key
		var bestG float64
		for _, a := range algs {
			sg, sm := document.FigureSeries{Name: named(r, ix, a)}, document.FigureSeries{Name: named(r, ix, a)}
			// The rate and memory charts a's lines go to.
			rate, mem := cdp, cmemdp
			if bitParallel(a) {
				rate, mem = cg, cmem
			}
			row := []string{a, ""}
			for _, n := range lens {
				i := slices.IndexFunc(ks, func(k runs.Key) bool { return k.Algorithm == a && k.LenA == n })
				if i < 0 {
					row = append(row, "—")
					continue
				}
				k := ks[i]
				v := ix.Stats[k]
				sg.Points = append(sg.Points, document.FigurePoint{X: float64(n), Y: v.GCUPS, Lo: v.GCUPS, Hi: v.GCUPS})
				if v.Alloc > 0 { // a log axis has no 0
					sm.Points = append(sm.Points, document.FigurePoint{X: float64(n), Y: v.Alloc, Lo: v.Alloc, Hi: v.Alloc})
				} else if !slices.Contains(noHeap, a) {
					noHeap = append(noHeap, a)
				}
				if v.GCUPS > bestG {
					best, bestG = k, v.GCUPS
				}
				row[1] = document.Count(k.Workers)
				workersOf[rate][a] = max(workersOf[rate][a], k.Workers)
				row = append(row, document.Dur(v.Med)+"\n"+rateText(v)+", "+document.BytesStr(v.Alloc))
			}
			rate.Series = append(rate.Series, sg)
			if len(tables) == 0 {
				mem.Series = append(mem.Series, sm)
				on := onName(r, ix)
				cmem.Title = "Memory allocated per call, by string length" + on + ": bit-parallel algorithms"
				cmemdp.Title = "Memory allocated per call, by string length" + on + ": full dynamic programs (fullmatrix and diagonal to 10,000 only)"
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
		if bestG > 0 {
			lead = append(lead, fastestPeer(r, ix, best, bestG, len(lead) == 0))
		}
		if len(noHeap) > 0 {
			verb := "allocate"
			if len(noHeap) == 1 {
				verb = "allocates"
			}
			note := fmt.Sprintf("Memory 0 (not drawn on the log axis): %s %s outside Go's heap, which is all that is counted here.", strings.Join(noHeap, ", "), verb)
			// Under the memory chart that would draw them.
			c := cmemdp
			if slices.ContainsFunc(noHeap, bitParallel) {
				c = cmem
			}
			if !slices.Contains(c.Notes, note) {
				c.Notes = append(c.Notes, note)
			}
		}
	}
	if len(tables) == 0 {
		s.P("Ours: not measured in the runs read (experiment peers).")
		beyondBenchmarks(r, &s)
		return s
	}
	for _, c := range []*document.Figure{cg, cdp} {
		c.Title += workersTitle(workersOf[c])
	}
	// What the charts find first, then the charts.
	for _, l := range lead {
		s.P("%s", l)
	}
	s.Add(cg, cdp)
	for _, t := range tables {
		// The charts above draw every point's rate and memory: the
		// table is their detail, a click away in HTML and left off paper.
		t.Folded = true
		s.Add(t)
	}
	s.Add(cmem, cmemdp)
	notRun(r, &s, records.ExpPeers)
	beyondBenchmarks(r, &s)
	return s
}

// fastestPeer says run ix's fastest point best of the peers experiment
// (matrix rate bestG), set beside the two-row DP at its length, and where
// a larger matrix elsewhere reaches more; first says what kind of ratio
// that is, the later machines' lines refer to it.
func fastestPeer(r *runs.Set, ix *runs.Index, best runs.Key, bestG float64, first bool) string {
	line := fmt.Sprintf("This experiment's fastest point%s: %s at n = %s, %s", onName(r, ix), best.Algorithm, document.Size(best.LenA), rateText(ix.Stats[best]))
	if v, ok := ix.Get(records.ExpPeers, records.AlgTwoRow, 1, 0, best.LenA, best.LenA); ok && v.GCUPS > 0 {
		// Workers against one said, and one worker's ratio beside
		// it: the algorithm's own, else myers' (its one-worker twin).
		one := ""
		if best.Workers > 1 {
			for _, a := range []string{best.Algorithm, records.AlgMyers} {
				if v1, ok := ix.Get(records.ExpPeers, a, 1, 0, best.LenA, best.LenA); ok && v1.GCUPS > 0 {
					one = fmt.Sprintf("; %s on one worker (%s)", document.Times(v1.GCUPS/v.GCUPS), a)
					break
				}
			}
		}
		line += fmt.Sprintf(", %s as fast as the two-row DP of report 004 in this experiment's strings at that length (%s, every cell computed; %s against one%s)", document.Times(bestG/v.GCUPS), document.Num(v.GCUPS)+" "+matrixRate, workersN(best.Workers), one)
	}
	if first {
		line += ": a ratio of matrix rates, algorithmic rather than parallel, as myers-parallel skips most cells"
	} else {
		line += ": as above, a ratio of matrix rates, algorithmic rather than parallel"
	}
	// The same code on a larger matrix, in the GPU section's
	// experiment, reaches more: say where, so that the two
	// figures read as two sizes, not two claims.
	if k, ok := fastestCPU(ix, 0); ok && k.Experiment != records.ExpPeers && ix.Stats[k].GCUPS > bestG {
		where := "GPU section" + gpuRowNote(r, ix, "its table")
		line += fmt.Sprintf(". This experiment stops at n = %s; at n = %s (experiment %s, %s) %s reaches %s", document.Size(best.LenA), document.Size(k.LenA), k.Experiment, where, k.Algorithm, document.Num(ix.Stats[k].GCUPS)+" "+matrixRate)
		// Why, where the records counted the cells: the share of the
		// matrix computed, and the rate of the cells computed.
		// Like for like: against that experiment's own point at this
		// length where it has one, so that the spread between runs does
		// not enter the why.
		b, at := ix.Stats[best], "here"
		if same, ok := ix.GetKey(k.Experiment, k.Algorithm, k.Workers, k.Tile, best.LenA, best.LenB); ok && ix.Stats[same].CCUPS > 0 {
			b, at = ix.Stats[same], fmt.Sprintf("at n = %s in that experiment", document.Size(best.LenA))
		}
		if o := ix.Stats[k]; b.CCUPS > 0 && o.CCUPS > 0 {
			more := "the faster rate than the fewer cells"
			if o.CCUPS/b.CCUPS < (b.CCUPS/b.GCUPS)/(o.CCUPS/o.GCUPS) {
				more = "the fewer cells than the faster rate"
			}
			line += fmt.Sprintf(", computing %s%% of the matrix's cells against %s%% %s, at %s %s against %s: more of the gain is %s",
				document.Num(100*o.CCUPS/o.GCUPS), document.Num(100*b.CCUPS/b.GCUPS), at, document.Num(o.CCUPS), computedRate, document.Num(b.CCUPS), more)
		}
	}
	return line + "."
}

// bitParallel reports whether algorithm a of the peers experiment computes
// a column of the matrix as bit-vectors (and, but for ka-weihe, in a band)
// rather than cell by cell.
func bitParallel(a string) bool {
	switch a {
	case records.AlgMyers, records.AlgMyersParallel, records.AlgEdlib, records.AlgKaWeihe:
		return true
	}
	return false
}

// beyondBenchmarks adds to s what make bench-results measured beyond the
// reports: one pair and the kernel, similar pairs, many patterns, the
// matrix command, and beyond one machine.
func beyondBenchmarks(r *runs.Set, s *document.Section) {
	onePair(r, s)
	similarPairs(r, s)
	manyPatterns(r, s)
	matrixCommand(r, s)
	scaleOut(r, s)
}

// workersTitle says which of the algorithms of a chart, by the most
// workers each ran on, ran on more than one: " (myers-parallel on 2
// workers, the rest on 1)"; "" where none did.
func workersTitle(w map[string]int) string {
	byCount := map[int][]string{}
	rest := false
	for a, n := range w {
		if n > 1 {
			byCount[n] = append(byCount[n], a)
		} else {
			rest = true
		}
	}
	if len(byCount) == 0 {
		return ""
	}
	var says []string
	for _, n := range slices.Sorted(maps.Keys(byCount)) {
		slices.Sort(byCount[n])
		says = append(says, document.JoinAnd(byCount[n])+" on "+workersN(n))
	}
	if rest {
		says = append(says, "the rest on 1")
	}
	return " (" + strings.Join(says, ", ") + ")"
}
