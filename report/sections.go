package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

func sortFloats(xs []float64) { sort.Float64s(xs) }

// Report files of the published numbers.
const (
	src000 = "000_f95d38889c436586.txt"
	src001 = "001_8b686fade13c5d8b.txt"
	src002 = "002_3ec02276a69ac2d5.txt"
	src003 = "003_422d252da101b2d8.txt"
	src004 = "004_d35d496d9e84808f.txt"
)

func build(d *data) *doc {
	ix := aggregate(d)
	doc := &doc{title: "levlab: the course reports beside our measurements"}
	doc.sections = append(doc.sections,
		sectionSources(ix),
		section000(ix), section001(ix), section002(ix), section003(ix), section004(ix),
		sectionBeyond(ix), sectionGPU(ix), sectionMethod(ix))
	return doc
}

// sectionSources says what was read and what is missing.
func sectionSources(ix *index) section {
	s := section{id: "sources", title: "What this report read"}
	d := ix.d
	if len(d.folders) == 0 {
		s.p("Measured: none — no <machine>/<scale>/ folder of results was found, so every \"ours\" below is missing; run levlab run or levlab reproduce first.")
	} else {
		s.p("Measured results read from: %s (%d records).", strings.Join(d.folders, ", "), d.rows)
	}
	if len(d.leftOut) > 0 {
		s.p("Left out: %d of the %d records, named below; every median, table and chart uses the other %d.", len(d.leftOut), d.rows, len(d.records))
		t := &table{caption: "Records left out", head: []string{"where", "why"}}
		for _, p := range d.leftOut {
			t.rows = append(t.rows, []string{p.File + ":" + strconv.Itoa(p.Line), p.Why})
		}
		s.add(t)
	}
	for _, f := range d.ignored {
		s.p("Not read: %s.", f)
	}
	if d.noPublish != "" {
		s.p("Published: %s; the reports' columns below are missing.", d.noPublish)
	} else {
		s.p("Published numbers: %d, from results/published.", len(d.published))
	}
	for _, p := range d.problems {
		s.p("Could not use: %s", p)
	}
	if len(d.records) == 0 {
		s.p("Missing: no measured records at all.")
	}
	var absent []string
	for _, e := range knownExperiments {
		if !ix.has(e) && len(ix.skipsOf(e)) == 0 {
			absent = append(absent, e)
		}
	}
	if len(absent) > 0 {
		s.p("Missing experiments (no record, run or skipped): %s.", strings.Join(absent, ", "))
	}
	if len(ix.unknown) > 0 {
		s.p("Not recognised, so not drawn: %s.", strings.Join(ix.unknown, "; "))
	}
	return s
}

// pubCores reads the core count from a report's machine description.
func pubCores(machine string) int {
	m := strings.ToLower(machine)
	switch {
	case strings.Contains(m, "quad core"), strings.Contains(m, "4-core"):
		return 4
	}
	return 0
}

func (ix *index) cores() int { return ix.machine().cores }

// skipTable lists skipped points grouped by experiment, algorithm and
// note: how many, and the lengths and block sizes they span.
func skipTable(caption string, sk []skip) *table {
	t := &table{caption: caption, head: []string{"experiment", "algorithm", "cases", "points", "lengths", "blocks", "not run here"}}
	type group struct {
		exp, alg, note string
		cases          []string
		n              int
		lens, blocks   []int
	}
	var groups []*group
	for _, s := range sk {
		var g *group
		for _, h := range groups {
			if h.exp == s.k.Experiment && h.alg == s.k.Algorithm && h.note == s.note {
				g = h
			}
		}
		if g == nil {
			g = &group{exp: s.k.Experiment, alg: s.k.Algorithm, note: s.note}
			groups = append(groups, g)
		}
		g.n++
		if !slices.Contains(g.cases, s.k.Case) {
			g.cases = append(g.cases, s.k.Case)
		}
		if !slices.Contains(g.lens, s.k.LenA) {
			g.lens = append(g.lens, s.k.LenA)
		}
		if !slices.Contains(g.blocks, s.k.Block) {
			g.blocks = append(g.blocks, s.k.Block)
		}
	}
	ints := func(xs []int) string {
		sort.Ints(xs)
		var p []string
		for _, x := range xs {
			p = append(p, strconv.Itoa(x))
		}
		return strings.Join(p, ", ")
	}
	for _, g := range groups {
		sort.Strings(g.cases)
		t.rows = append(t.rows, []string{g.exp, g.alg, strings.Join(g.cases, ", "), strconv.Itoa(g.n), ints(g.lens), ints(g.blocks), g.note})
	}
	return t
}

func missing(s *section, what string) { s.p("Missing: %s.", what) }

// speedup is base/that at the same case and lengths, min–max from that's
// spread.
func speedup(base, that stat) pt {
	return pt{y: base.med / that.med, lo: base.med / that.max, hi: base.med / that.min}
}

// speedupSeries: speedup of (alg, workers, any tile) over (baseAlg, 1) in
// exps, x chosen by xOf; only points where match holds.
func (ix *index) speedupSeries(name string, exps []string, baseAlg, alg string, workers int, match func(key) bool, xOf func(key) float64) series {
	s := series{name: name}
	for _, e := range exps {
		for _, k := range ix.find(e, func(k key) bool {
			return k.Algorithm == alg && (workers < 0 || k.Workers == workers) && (match == nil || match(k))
		}) {
			b, ok := ix.get(e, baseAlg, 1, 0, k.LenA, k.LenB)
			if !ok {
				continue
			}
			p := speedup(b, ix.stats[k])
			p.x = xOf(k)
			s.pts = append(s.pts, p)
		}
	}
	sort.Slice(s.pts, func(i, j int) bool { return s.pts[i].x < s.pts[j].x })
	// The same x from two experiments: keep the first.
	s.pts = slices.CompactFunc(s.pts, func(a, b pt) bool { return a.x == b.x })
	return s
}

func lenX(k key) float64 { return float64(k.LenA) }

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

func pubMachine(pub []records.Published) string {
	if len(pub) == 0 {
		return "a machine not known here"
	}
	return pub[0].Machine
}

func uniqInts(ps []records.Published, f func(records.Published) int) []int {
	var out []int
	for _, p := range ps {
		if v := f(p); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}
