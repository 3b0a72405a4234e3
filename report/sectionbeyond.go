package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
)

// sectionBeyond sets every algorithm and the peers side by side: time,
// GCUPS and memory by length.
func sectionBeyond(r *rep) section {
	s := section{id: "beyond", title: "Beyond the reports: every algorithm and the peers"}
	cg := &chart{id: "beyondgcups", title: "GCUPS of every algorithm, by string length", xName: "string length (characters)", yName: "GCUPS (10⁹ cells/s)", xLog: true, yLog: true}
	ctm := &chart{id: "beyondtime", title: "Time by string length", xName: "string length (characters)", yName: "time (s)", xLog: true, yLog: true}
	cmem := &chart{id: "beyondmem", title: "Memory allocated per call, by string length", xName: "string length (characters)", yName: "bytes allocated", xLog: true, yLog: true}
	var tables []*table
	var notes []string
	for _, ix := range r.runs {
		ks := ix.find(records.ExpPeers, nil)
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
		lens = sortedInts(lens)
		t := &table{caption: "Time (median) and, below it, GCUPS and memory per call" + onName(r, ix), head: []string{"algorithm", "workers"}}
		for _, n := range lens {
			t.head = append(t.head, size(n))
		}
		var noHeap []string
		var best key
		var bestG float64
		for _, a := range algs {
			sg, st, sm := series{name: r.named(ix, a)}, series{name: r.named(ix, a)}, series{name: r.named(ix, a)}
			row := []string{a, ""}
			for _, n := range lens {
				i := slices.IndexFunc(ks, func(k key) bool { return k.Algorithm == a && k.LenA == n })
				if i < 0 {
					row = append(row, "—")
					continue
				}
				k := ks[i]
				v := ix.stats[k]
				sg.pts = append(sg.pts, pt{x: float64(n), y: v.gcups, lo: v.gcups, hi: v.gcups})
				st.pts = append(st.pts, pt{x: float64(n), y: v.med, lo: v.min, hi: v.max})
				if v.alloc > 0 { // a log axis has no 0
					sm.pts = append(sm.pts, pt{x: float64(n), y: v.alloc, lo: v.alloc, hi: v.alloc})
				} else if !slices.Contains(noHeap, a) {
					noHeap = append(noHeap, a)
				}
				if v.gcups > bestG {
					best, bestG = k, v.gcups
				}
				row[1] = count(k.Workers)
				row = append(row, dur(v.med)+"\n"+num(v.gcups)+" GCUPS, "+bytesStr(v.alloc))
			}
			cg.series, ctm.series, cmem.series = append(cg.series, sg), append(ctm.series, st), append(cmem.series, sm)
			t.rows = append(t.rows, row)
		}
		tables = append(tables, t)
		if bestG > 0 {
			line := fmt.Sprintf("The fastest point%s: %s at n = %s, %s GCUPS", onName(r, ix), best.Algorithm, size(best.LenA), num(bestG))
			if v, ok := ix.get(records.ExpPeers, records.AlgTwoRow, 1, 0, best.LenA, best.LenA); ok && v.gcups > 0 {
				line += fmt.Sprintf(", %s the two-row DP of report 004 (%s GCUPS) at that length", times(bestG/v.gcups), num(v.gcups))
			}
			notes = append(notes, line+". GCUPS counts the m×n cells of the matrix per second, whether or not an algorithm visits them all.")
		}
		if len(noHeap) > 0 {
			verb := "allocate"
			if len(noHeap) == 1 {
				verb = "allocates"
			}
			notes = append(notes, fmt.Sprintf("Memory 0 (not drawn on the log axis): %s %s outside Go's heap, which is all that is counted here.", strings.Join(noHeap, ", "), verb))
		}
	}
	if len(tables) == 0 {
		s.p("Ours: not measured in the runs read (experiment peers).")
		beyondBenchmarks(r, &s)
		return s
	}
	s.add(cg, ctm)
	for _, t := range tables {
		s.add(t)
	}
	s.add(cmem)
	for _, n := range notes {
		s.p("%s", n)
	}
	r.notRun(&s, records.ExpPeers)
	beyondBenchmarks(r, &s)
	return s
}

// beyondBenchmarks adds to s what make bench-results measured beyond the
// reports: one pair and the kernel, similar pairs, many patterns, the
// matrix command, and beyond one machine.
func beyondBenchmarks(r *rep, s *section) {
	onePair(r, s)
	similarPairs(r, s)
	manyPatterns(r, s)
	matrixCommand(r, s)
	scaleOut(r, s)
}
