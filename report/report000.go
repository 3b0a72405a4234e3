package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

func section000(ix *index) section {
	s := section{id: "r000", title: "Report 000 (" + src000 + "): OpenMP and CUDA, antidiagonals"}
	pub := ix.pub(func(p records.Published) bool { return p.Source == src000 && p.Table == "Table 1" })
	sizes := []int{10000, 30000, 50000}
	t := &table{caption: "Table 1: seconds, sequential and parallel; published (mean of 10) beside ours (median [min–max])",
		head: []string{"size", "published seq", "published 4 thr", "published 8 thr", "ours fullmatrix", "ours tiled 4", "ours tiled 8", "ours tworow"}}
	pubVal := func(alg string, w, n int, metric string) (float64, bool) {
		for _, p := range pub {
			if p.Algorithm == alg && p.Workers == w && p.LenA == n && p.Metric == metric {
				return p.Value, true
			}
		}
		return 0, false
	}
	cell := func(v float64, ok bool) string {
		if !ok {
			return "missing"
		}
		return pubNum(v)
	}
	ours := func(alg string, w, n int) string {
		st, ok := ix.get("s000-table1", alg, w, 0, n, n)
		if !ok {
			return "missing"
		}
		return secs(st)
	}
	for _, n := range sizes {
		a, okA := pubVal("fullmatrix", 1, n, "seconds")
		b, okB := pubVal("tiled", 4, n, "seconds")
		c, okC := pubVal("tiled", 8, n, "seconds")
		t.rows = append(t.rows, []string{strconv.Itoa(n), cell(a, okA), cell(b, okB), cell(c, okC),
			ours("fullmatrix", 1, n), ours("tiled", 4, n), ours("tiled", 8, n), ours("tworow", 1, n)})
	}
	s.add(t)

	// Figure 3: speedup vs size, 4 and 8 workers.
	c := &chart{id: "r000fig3", title: "Figure 3: speedup vs size", xName: "string length (characters)", yName: "speedup (×)"}
	exps := []string{"s000-table1", "s000-fig3"}
	for _, w := range []int{4, 8} {
		c.series = append(c.series, ix.speedupSeries(fmt.Sprintf("ours, %d workers", w), exps, "fullmatrix", "tiled", w, nil, lenX))
		ps := series{name: fmt.Sprintf("published, %d threads", w), published: true}
		for _, n := range sizes {
			seq, ok1 := pubVal("fullmatrix", 1, n, "seconds")
			par, ok2 := pubVal("tiled", w, n, "seconds")
			if ok1 && ok2 {
				v := seq / par
				ps.pts = append(ps.pts, pt{x: float64(n), y: v, lo: v, hi: v})
			}
		}
		c.series = append(c.series, ps)
	}
	s.add(c)
	cores, pc := ix.cores(), 0
	if len(pub) > 0 {
		pc = pubCores(pub[0].Machine)
	}
	best := func(si int) float64 {
		m := 0.0
		for _, p := range c.series[si].pts {
			m = max(m, p.y)
		}
		return m
	}
	if len(c.series[0].pts) == 0 && len(c.series[2].pts) == 0 {
		missing(&s, "our Table 1 and Figure 3 points (experiments s000-table1, s000-fig3)")
	} else {
		pcs := "cores not stated"
		if pc > 0 {
			pcs = fmt.Sprintf("%d cores", pc)
		}
		s.p("Where ours differ and why: the report ran on %s (%s); ours on %d cores, so 4 and 8 workers share %d cores here. "+
			"Our best speedup over the full-matrix sequential version (as the report's is over its Listing 2) is %s× with 4 workers and %s× with 8, against the report's best %s× and %s×.",
			pubMachine(pub), pcs, cores, cores, num(best(0)), num(best(2)), num(best(1)), num(best(3)))
		if n := sizes[len(sizes)-1]; cores > 0 && max(best(0), best(2)) > float64(cores) {
			tw, ok1 := ix.get("s000-table1", "tworow", 1, 0, n, n)
			t8, ok2 := ix.get("s000-table1", "tiled", 8, 0, n, n)
			fm, ok3 := ix.get("s000-table1", "fullmatrix", 1, 0, n, n)
			if ok1 && ok2 && ok3 {
				s.p("More than %d× on %d cores is not parallelism alone: the baseline fills the whole matrix (%s allocated at n=%d) while the tiled version keeps only tile borders; "+
					"against our two-row sequential version the 8-worker speedup at n=%d is %s×.", cores, cores, bytesStr(fm.alloc), n, n, num(tw.med/t8.med))
			}
		}
	}

	// Table 2 and Figure 4: CUDA.
	pub2 := ix.pub(func(p records.Published) bool { return p.Source == src000 && p.Table == "Table 2" })
	blocks, lens := uniqInts(pub2, func(p records.Published) int { return p.Block }), uniqInts(pub2, func(p records.Published) int { return p.LenA })
	t2 := &table{caption: "Table 2: CUDA seconds per block size, published; ours", head: []string{"size"}}
	for _, b := range blocks {
		t2.head = append(t2.head, fmt.Sprintf("published block %d", b))
	}
	t2.head = append(t2.head, "ours (cuda-diagonal)")
	c4 := &chart{id: "r000fig4", title: "Figure 4: CUDA time vs size per block size", xName: "string length (characters)", yName: "time (s)"}
	for _, b := range blocks {
		ps := series{name: fmt.Sprintf("published, block %d", b), published: true}
		for _, p := range pub2 {
			if p.Block == b {
				ps.pts = append(ps.pts, pt{x: float64(p.LenA), y: p.Value, lo: p.Value, hi: p.Value})
			}
		}
		c4.series = append(c4.series, ps)
	}
	for _, n := range lens {
		row := []string{strconv.Itoa(n)}
		for _, b := range blocks {
			v := "missing"
			for _, p := range pub2 {
				if p.Block == b && p.LenA == n {
					v = pubNum(p.Value)
				}
			}
			row = append(row, v)
		}
		oursCUDA := "not run"
		ks := ix.find("s000-table2", func(k key) bool { return k.LenA == n })
		if len(ks) > 0 {
			var parts []string
			for _, k := range ks {
				parts = append(parts, fmt.Sprintf("block %d: %s", k.Block, secs(ix.stats[k])))
			}
			oursCUDA = strings.Join(parts, "; ")
		}
		row = append(row, oursCUDA)
		t2.rows = append(t2.rows, row)
	}
	if len(pub2) == 0 {
		missing(&s, "the published Table 2 (results/published)")
	}
	s.add(t2)
	cpu := series{name: "ours, CPU tworow (for scale)"}
	for _, k := range ix.find("s000-fig4", func(k key) bool { return k.Algorithm == "tworow" }) {
		st := ix.stats[k]
		cpu.pts = append(cpu.pts, pt{x: float64(k.LenA), y: st.med, lo: st.min, hi: st.max})
	}
	c4.series = append(c4.series, cpu)
	c4.series = append(c4.series, ix.cudaSeries("s000-table2")...)
	s.add(c4)
	sk := ix.skipsOf("s000-table2", "s000-fig4", "s000-table1", "s000-fig3")
	if len(sk) > 0 {
		s.p("Where ours differ and why: %d CUDA points were not run here (%s), so Table 2 and Figure 4 show the report's numbers alone, with our single-core CPU time for scale.", len(sk), sk[0].note)
		s.add(skipTable("Points not run here", sk))
	}
	return s
}

func (ix *index) cudaSeries(exp string) []series {
	byBlock := map[int]*series{}
	var order []int
	for _, k := range ix.find(exp, func(k key) bool { return strings.HasPrefix(k.Algorithm, "cuda") }) {
		sr := byBlock[k.Block]
		if sr == nil {
			sr = &series{name: fmt.Sprintf("ours, block %d", k.Block)}
			byBlock[k.Block] = sr
			order = append(order, k.Block)
		}
		st := ix.stats[k]
		sr.pts = append(sr.pts, pt{x: float64(k.LenA), y: st.med, lo: st.min, hi: st.max})
	}
	sort.Ints(order)
	var out []series
	for _, b := range order {
		sr := byBlock[b]
		sort.Slice(sr.pts, func(i, j int) bool { return sr.pts[i].x < sr.pts[j].x })
		out = append(out, *sr)
	}
	return out
}
