package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

func sectionBeyond(ix *index) section {
	s := section{id: "beyond", title: "Beyond the reports: every algorithm and the peers"}
	ks := ix.find("peers", nil)
	if len(ks) == 0 {
		missing(&s, "our points of the peers experiment")
		return s
	}
	var algs []string
	lens := map[int]bool{}
	for _, k := range ks {
		if len(algs) == 0 || algs[len(algs)-1] != k.Algorithm {
			algs = append(algs, k.Algorithm)
		}
		lens[k.LenA] = true
	}
	var ls []int
	for n := range lens {
		ls = append(ls, n)
	}
	sort.Ints(ls)
	cg := &chart{id: "beyondgcups", title: "GCUPS of every algorithm", xName: "string length (characters)", yName: "GCUPS (10⁹ cells/s)", xLog: true, yLog: true}
	ctm := &chart{id: "beyondtime", title: "Time vs size (log–log)", xName: "string length (characters)", yName: "time (s)", xLog: true, yLog: true}
	cmem := &chart{id: "beyondmem", title: "Memory vs size (log–log)", xName: "string length (characters)", yName: "bytes allocated", xLog: true, yLog: true}
	t := &table{caption: "Peers: median seconds [min–max], GCUPS and memory per call", head: []string{"algorithm", "workers"}}
	for _, n := range ls {
		t.head = append(t.head, fmt.Sprintf("n=%d s", n), fmt.Sprintf("n=%d GCUPS", n), fmt.Sprintf("n=%d memory", n))
	}
	var noHeap []string
	var best string
	var bestG float64
	var bestN int
	for _, a := range algs {
		sg, st, sm := series{name: a}, series{name: a}, series{name: a}
		row := []string{a, ""}
		for _, n := range ls {
			var found bool
			for _, k := range ks {
				if k.Algorithm == a && k.LenA == n {
					v := ix.stats[k]
					sg.pts = append(sg.pts, pt{x: float64(n), y: v.gcups, lo: v.gcups, hi: v.gcups})
					st.pts = append(st.pts, pt{x: float64(n), y: v.med, lo: v.min, hi: v.max})
					if v.alloc > 0 { // a log axis has no 0
						sm.pts = append(sm.pts, pt{x: float64(n), y: v.alloc, lo: v.alloc, hi: v.alloc})
					} else if !slices.Contains(noHeap, a) {
						noHeap = append(noHeap, a)
					}
					if best == "" || v.gcups > bestG {
						best, bestG, bestN = a, v.gcups, n
					}
					row[1] = strconv.Itoa(k.Workers)
					row = append(row, secs(v), num(v.gcups), bytesStr(v.alloc))
					found = true
					break
				}
			}
			if !found {
				row = append(row, "not run", "", "")
			}
		}
		cg.series, ctm.series, cmem.series = append(cg.series, sg), append(ctm.series, st), append(cmem.series, sm)
		t.rows = append(t.rows, row)
	}
	s.add(cg, ctm, t, cmem)
	if best != "" {
		line := fmt.Sprintf("The fastest point: %s at n=%d, %s GCUPS", best, bestN, num(bestG))
		if v, ok := ix.get("peers", "tworow", 1, 0, bestN, bestN); ok && v.gcups > 0 {
			line += fmt.Sprintf(", %s× the two-row DP of report 004 (%s GCUPS)", num(bestG/v.gcups), num(v.gcups))
		}
		s.p("%s. GCUPS counts the m×n cells of the DP matrix per second, whether or not an algorithm visits them all.", line)
	}
	if len(noHeap) > 0 {
		verb := "allocate"
		if len(noHeap) == 1 {
			verb = "allocates"
		}
		s.p("Memory 0 (not drawn on the log axis): %s %s outside Go's heap, which is all that is counted here.", strings.Join(noHeap, ", "), verb)
	}
	if sk := ix.skipsOf("peers"); len(sk) > 0 {
		s.add(skipTable("Points not run here", sk))
	}
	return s
}
