package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

func maxY(s series) float64 {
	m := 0.0
	for _, p := range s.pts {
		m = max(m, p.y)
	}
	return m
}

func section001(ix *index) section {
	s := section{id: "r001", title: "Report 001 (" + src001 + "): OpenMP and C++ threads, diagonals and tiles"}
	bound := 0.0
	var pubM string
	for _, p := range ix.pub(func(p records.Published) bool { return p.Source == src001 && p.Metric == "speedup_min" }) {
		bound, pubM = max(bound, p.Value), p.Machine
	}
	mark := func(c *chart) {
		if bound > 0 {
			c.markY, c.markName = bound, fmt.Sprintf("stated: at least %s×", pubNum(bound))
		}
	}
	c := &chart{id: "r001len", title: "Figures 4–5: speedup vs string length (tiled, over fullmatrix)", xName: "string length (characters)", yName: "speedup (×)", xLog: true}
	c.series = []series{
		ix.speedupSeries("ours, tiled (OpenMP-like)", []string{"s001-length"}, "fullmatrix", "tiled", -1, nil, lenX),
		ix.speedupSeries("ours, tiled-barrier (C++ threads)", []string{"s001-length"}, "fullmatrix", "tiled-barrier", -1, nil, lenX),
	}
	mark(c)
	s.add(c)
	if bound == 0 {
		missing(&s, "the published bound of report 001 (results/published)")
	}
	cores := ix.cores()
	if len(c.series[0].pts) == 0 {
		missing(&s, "our points of s001-length")
	} else {
		s.p("Where ours differ and why: the report states at least %s× on %s for lengths around 10000 and tiles of 128 to 1024; our best is %s× (tiled) and %s× (tiled-barrier) on %d cores, where parallelism alone gives at most %d×; beyond that our baseline, the full matrix, loses to the tiled versions' smaller working set.",
			pubNum(bound), orUnknown(pubM), num(maxY(c.series[0])), num(maxY(c.series[1])), cores, cores)
	}
	ct := &chart{id: "r001tile", title: "Figure 6: speedup vs tile size (over fullmatrix)", xName: "tile size (cells per side)", yName: "speedup (×)", xLog: true}
	tileX := func(k key) float64 { return float64(k.Tile) }
	pos := func(k key) bool { return k.Tile > 0 }
	ct.series = []series{
		ix.speedupSeries("ours, tiled", []string{"s001-tile"}, "fullmatrix", "tiled", -1, pos, tileX),
		ix.speedupSeries("ours, tiled-barrier", []string{"s001-tile"}, "fullmatrix", "tiled-barrier", -1, pos, tileX),
	}
	mark(ct)
	s.add(ct)
	cw := &chart{id: "r001threads", title: "Figure 7: speedup vs threads (over fullmatrix)", xName: "workers (threads)", yName: "speedup (×)"}
	wX := func(k key) float64 { return float64(k.Workers) }
	cw.series = []series{
		ix.speedupSeries("ours, tiled", []string{"s001-threads"}, "fullmatrix", "tiled", -1, nil, wX),
		ix.speedupSeries("ours, tiled-barrier", []string{"s001-threads"}, "fullmatrix", "tiled-barrier", -1, nil, wX),
	}
	mark(cw)
	s.add(cw)
	if len(cw.series[0].pts) > 0 {
		s.p("Beyond %d workers our threads share %d cores, so Figure 7 flattens there rather than at the report's core count.", cores, cores)
	}
	cr := &chart{id: "r001ratio", title: "Section 4: speedup vs length ratio (over tworow)", xName: "length ratio len_a/len_b", yName: "speedup (×)", xLog: true}
	ratioX := func(k key) float64 { return float64(k.LenA) / float64(k.LenB) }
	cr.series = []series{
		ix.speedupSeries("ours, diagonal", []string{"s001-ratio"}, "tworow", "diagonal", -1, nil, ratioX),
		ix.speedupSeries("ours, tiled", []string{"s001-ratio"}, "tworow", "tiled", -1, nil, ratioX),
	}
	s.add(cr)
	cd := &chart{id: "r001diag", title: "Sections 3–4: the diagonal approach, speedup vs size (over tworow)", xName: "string length (characters)", yName: "speedup (×)", xLog: true}
	for _, a := range []string{"diagonal", "tiled", "tiled-barrier"} {
		for _, w := range []int{1, 2} {
			cd.series = append(cd.series, ix.speedupSeries(fmt.Sprintf("ours, %s, %d workers", a, w), []string{"s001-diagonal"}, "tworow", a, w, nil, lenX))
		}
	}
	s.add(cd)
	s.p("The report gives Figures 4–7 as plots without printed values; only its stated bound is drawn beside ours (the horizontal line).")
	if sk := ix.skipsOf("s001-length", "s001-tile", "s001-threads", "s001-ratio", "s001-diagonal"); len(sk) > 0 {
		s.add(skipTable("Points not run here", sk))
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "a machine not known here"
	}
	return s
}

func section002(ix *index) section {
	s := section{id: "r002", title: "Report 002 (" + src002 + "): CUDA with unified memory, three cases"}
	pub := ix.pub(func(p records.Published) bool { return p.Source == src002 })
	cases := []string{"identical", "partial", "different"}
	lens := map[int]bool{}
	for _, k := range ix.find("s002-cases", func(k key) bool { return k.Algorithm == "fullmatrix" }) {
		lens[k.LenA] = true
	}
	var ls []int
	for n := range lens {
		ls = append(ls, n)
	}
	sort.Ints(ls)
	t := &table{caption: "CPU vs GPU by case: published seconds (length not stated) beside our CPU seconds (fullmatrix, median [min–max])",
		head: []string{"case", "published CPU", "published GPU", "published speedup"}}
	for _, n := range ls {
		t.head = append(t.head, fmt.Sprintf("ours CPU, n=%d", n))
	}
	t.head = append(t.head, "ours GPU")
	pv := func(c, alg, metric string) string {
		for _, p := range pub {
			if p.Case == c && p.Algorithm == alg && p.Metric == metric {
				return pubNum(p.Value)
			}
		}
		return "missing"
	}
	for _, c := range cases {
		row := []string{c, pv(c, "fullmatrix", "seconds"), pv(c, "cuda-matrix", "seconds"), pv(c, "cuda-matrix", "speedup")}
		for _, n := range ls {
			cell := "missing"
			for _, k := range ix.find("s002-cases", func(k key) bool { return k.Algorithm == "fullmatrix" && k.Case == c && k.LenA == n }) {
				cell = secs(ix.stats[k])
			}
			row = append(row, cell)
		}
		gpu := "not run"
		for _, k := range ix.find("s002-cases", func(k key) bool { return strings.HasPrefix(k.Algorithm, "cuda") && k.Case == c }) {
			gpu = secs(ix.stats[k])
		}
		row = append(row, gpu)
		t.rows = append(t.rows, row)
	}
	s.add(t)
	if len(pub) == 0 {
		missing(&s, "the published numbers of report 002 (results/published)")
	}
	// Excluding allocation, length 10000.
	t2 := &table{caption: "Length 10000, allocation and initialisation excluded: seconds", head: []string{"", "published", "ours (fullmatrix, different, seconds − allocation)"}}
	oursEx := "missing"
	for _, k := range ix.find("s002-cases", func(k key) bool {
		return k.Algorithm == "fullmatrix" && k.Case == "different" && k.LenA == 10000
	}) {
		oursEx = num(ix.stats[k].compute)
	}
	t2.rows = [][]string{
		{"CPU", pv("", "fullmatrix", "seconds_excl_alloc"), oursEx},
		{"GPU", pv("", "cuda-matrix", "seconds_excl_alloc"), "not run"},
		{"speedup", pv("", "cuda-matrix", "speedup_excl_alloc"), "—"},
	}
	s.add(t2)
	for _, k := range ix.find("s002-cases", func(k key) bool {
		return k.Algorithm == "fullmatrix" && k.Case == "different" && k.LenA == 10000
	}) {
		for _, p := range pub {
			if p.Case == "different" && p.Algorithm == "fullmatrix" && p.Metric == "seconds" {
				v := ix.stats[k].med
				s.p("For completely different strings the report's CPU took %s s (length not stated; its next slide's length is 10000); ours at n=%d took %s s, %s× less. Its CPU version walks the matrix by antidiagonals (its Algorithm 1) and its slides show a PyCUDA (Python) host program, which may account for a gap this large; ours is compiled Go, row by row.",
					pubNum(p.Value), k.LenA, num(v), num(p.Value/v))
			}
		}
	}
	sk := ix.skipsOf("s002-cases")
	if len(sk) > 0 {
		s.p("Where ours differ and why: the GPU column is empty because %d GPU points were not run here (%s). The report does not state its string lengths, so ours are given at each length we ran; its CPU column is its own sequential diagonal walk over the full matrix (Algorithm 1), ours the row-by-row full matrix.", len(sk), sk[0].note)
		s.add(skipTable("Points not run here", sk))
	}
	return s
}

func section003(ix *index) section {
	s := section{id: "r003", title: "Report 003 (" + src003 + "): approximate pattern matching, MPI + OpenMP + CUDA"}
	pub := ix.pub(func(p records.Published) bool { return p.Source == src003 })
	t := &table{caption: "Published speedups (sequential / (parallel + transfer))", head: []string{"metric", "value", "what the report says"}}
	for _, p := range pub {
		note := p.Note
		if i := strings.Index(note, ";"); i > 0 {
			note = note[:i]
		}
		t.rows = append(t.rows, []string{p.Metric, pubNum(p.Value), note})
	}
	if len(pub) == 0 {
		missing(&s, "the published numbers of report 003 (results/published)")
	} else {
		s.add(t)
	}
	section003Ratio(ix, &s)
	section003Ranks(ix, &s, pub)
	if sk := ix.skipsOf("s003-ratio", "s003-ranks"); len(sk) > 0 {
		s.add(skipTable("Points not run here", sk))
	}
	return s
}

// section003Ratio is Figures 2-3: runtime vs the CUDA workload ratio.
func section003Ratio(ix *index, s *section) {
	ks := ix.find("s003-ratio", nil)
	sk := ix.skipsOf("s003-ratio")
	if len(ks) == 0 && len(sk) == 0 {
		missing(s, "our points of s003-ratio (runtime vs CUDA ratio, Figures 2-3)")
		return
	}
	c := &chart{id: "r003ratio", title: "Runtime vs CUDA workload ratio (Figures 2-3)", xName: "share of positions sent to the GPU", yName: "time (s)"}
	t := &table{caption: "Runtime vs CUDA workload ratio: time (s, median [min–max]), one process on every core", head: []string{"text bytes", "pattern", "ratio", "workers", "time", "matches"}}
	bySize := map[[2]int]*series{}
	var sizes [][2]int
	for _, k := range ks {
		size := [2]int{k.LenA, k.LenB}
		sr := bySize[size]
		if sr == nil {
			sr = &series{name: fmt.Sprintf("ours, %s bytes", xnum(float64(k.LenA)))}
			bySize[size] = sr
			sizes = append(sizes, size)
		}
		st := ix.stats[k]
		sr.pts = append(sr.pts, pt{x: k.GPURatio, y: st.med, lo: st.min, hi: st.max})
		t.rows = append(t.rows, []string{strconv.Itoa(k.LenA), strconv.Itoa(k.LenB), pubNum(k.GPURatio), strconv.Itoa(k.Workers), secs(st), strconv.FormatInt(ix.matches[k], 10)})
	}
	for _, sz := range sizes {
		sort.Slice(bySize[sz].pts, func(i, j int) bool { return bySize[sz].pts[i].x < bySize[sz].pts[j].x })
		c.series = append(c.series, *bySize[sz])
	}
	for _, x := range sk {
		t.rows = append(t.rows, []string{strconv.Itoa(x.k.LenA), strconv.Itoa(x.k.LenB), pubNum(x.k.GPURatio), strconv.Itoa(x.k.Workers), "not run", ""})
	}
	s.add(t, c)
	gpuRan := false
	for _, k := range ks {
		gpuRan = gpuRan || k.GPURatio > 0
	}
	if !gpuRan {
		s.p("Only ratio 0 ran here: every share above 0 goes to the GPU, and this machine has none (the points not run are listed below with the reason), so the curve is one point, the CPU alone. The report's Figures 2-3 print no numbers, only curves (runtime falling from about 100 to 40 s with 4 OpenMP threads and 6.9 million CUDA threads on 136473378 bytes); there is nothing to set beside ours.")
	} else {
		s.p("The report's Figures 2-3 print no numbers, only curves (runtime falling from about 100 to 40 s with 4 OpenMP threads and 6.9 million CUDA threads on 136473378 bytes); ours are drawn alone.")
	}
}

// section003Ranks is Figures 4-7: runtime and speedup vs ranks.
func section003Ranks(ix *index, s *section, pub []records.Published) {
	ks := ix.find("s003-ranks", nil)
	if len(ks) == 0 {
		missing(s, "our points of s003-ranks (runtime and speedup vs ranks, Figures 4-7)")
		return
	}
	var sizes []int
	for _, k := range ks {
		if !slices.Contains(sizes, k.LenA) {
			sizes = append(sizes, k.LenA)
		}
	}
	sort.Ints(sizes)
	names := []string{"small", "medium", "large", "very large"}
	label := func(i, n int) string {
		if len(sizes) == len(names) {
			return fmt.Sprintf("%s, %s bytes", names[i], xnum(float64(n)))
		}
		return xnum(float64(n)) + " bytes"
	}
	ct := &chart{id: "r003ranktime", title: "Runtime vs ranks (Figures 4-7)", xName: "ranks (one worker each)", yName: "time (s)", yLog: true}
	cs := &chart{id: "r003ranks", title: "Speedup vs ranks over one process on one worker (Figures 4-7)", xName: "ranks (one worker each)", yName: "speedup"}
	t := &table{caption: "Time (s, median [min–max]) and speedup over one process on one worker", head: []string{"text", "1 process, 1 worker"}}
	cores := 0
	for _, k := range ks {
		if k.Ranks == 0 && k.Workers > 1 {
			cores = k.Workers
		}
	}
	if cores > 0 {
		t.head = append(t.head, fmt.Sprintf("1 process, %d workers", cores))
	}
	var rankCounts []int
	for _, k := range ks {
		if k.Ranks > 0 && !slices.Contains(rankCounts, k.Ranks) {
			rankCounts = append(rankCounts, k.Ranks)
		}
	}
	sort.Ints(rankCounts)
	for _, r := range rankCounts {
		if r == 1 {
			t.head = append(t.head, "1 rank")
		} else {
			t.head = append(t.head, fmt.Sprintf("%d ranks", r))
		}
	}
	t.head = append(t.head, "speedup min–max over ranks")
	for i, n := range sizes {
		st, ss := series{name: label(i, n)}, series{name: label(i, n)}
		base, okBase := stat{}, false
		row := []string{label(i, n)}
		var other []string
		for _, k := range ks {
			if k.LenA == n && k.Ranks == 0 && k.Workers == 1 {
				base, okBase = ix.stats[k], true
			}
		}
		cell := func(v stat) string {
			if !okBase {
				return secs(v)
			}
			return secs(v) + " (" + num(base.med/v.med) + "×)"
		}
		if okBase {
			row = append(row, secs(base))
		} else {
			row = append(row, "missing")
		}
		if cores > 0 {
			c := "missing"
			for _, k := range ks {
				if k.LenA == n && k.Ranks == 0 && k.Workers == cores {
					c = cell(ix.stats[k])
				}
			}
			row = append(row, c)
		}
		lo, hi := 0.0, 0.0
		for _, r := range rankCounts {
			c := "missing"
			for _, k := range ks {
				if k.LenA == n && k.Ranks == r && k.Workers == 1 {
					v := ix.stats[k]
					c = cell(v)
					st.pts = append(st.pts, pt{x: float64(r), y: v.med, lo: v.min, hi: v.max})
					if okBase {
						sp := speedup(base, v)
						sp.x = float64(r)
						ss.pts = append(ss.pts, sp)
						if lo == 0 || sp.y < lo {
							lo = sp.y
						}
						hi = max(hi, sp.y)
					}
				}
			}
			row = append(row, c)
		}
		if hi > 0 {
			other = append(other, num(lo)+"–"+num(hi))
		} else {
			other = append(other, "—")
		}
		t.rows = append(t.rows, append(row, other...))
		ct.series, cs.series = append(ct.series, st), append(cs.series, ss)
	}
	s.add(t, ct, cs)
	pubMin, pubMax := []string{}, []string{}
	for _, p := range pub {
		switch p.Metric {
		case "speedup_min":
			pubMin = append(pubMin, pubNum(p.Value))
		case "speedup_max":
			pubMax = append(pubMax, pubNum(p.Value))
		}
	}
	s.p("How ours were measured: the ranks are simulated in one process (experiments.countRanks): the text is cut into as many parts as ranks, each with the shadow bytes its last windows need, each part copied into its own buffer as each rank's read of the file does, and counted by its own group of workers, all at once, the counts summed; %d cores here, so 4 and 8 ranks oversubscribe them. levlab match under mpirun does the same with real MPI processes and gives the same counts (tested); its overhead beside one process is measured in the README (Pattern matching).", ix.cores())
	if len(pubMin) > 0 || len(pubMax) > 0 {
		s.p("Beside the report's: its speedups (minimum %s, maximum %s; up to 38 on the large files) come from MPI ranks on a cluster with one GPU per ten ranks and the report's per-position DP, against its sequential program; ours from one 2-core machine, apm-fast (bit-parallel) on the CPU alone, against one worker. A speedup below 1 on the small text, as the report's 0.62, is the cost of the split against a count of a few milliseconds.",
			strings.Join(pubMin, ", "), strings.Join(pubMax, ", "))
	}
}

func section004(ix *index) section {
	s := section{id: "r004", title: "Report 004 (" + src004 + "): two rows instead of the whole matrix"}
	algs := []string{"fullmatrix", "tworow", "myers"}
	ks := ix.find("s004-memory", nil)
	if len(ks) == 0 {
		missing(&s, "our points of s004-memory")
		return s
	}
	lens := map[int]bool{}
	for _, k := range ks {
		lens[k.LenA] = true
	}
	var ls []int
	for n := range lens {
		ls = append(ls, n)
	}
	sort.Ints(ls)
	t := &table{caption: "Time (s, median [min–max]) and memory allocated per call", head: []string{"length"}}
	for _, a := range algs {
		t.head = append(t.head, a+" time", a+" memory")
	}
	ct := &chart{id: "r004time", title: "Time vs length", xName: "string length (characters)", yName: "time (s)", xLog: true, yLog: true}
	cm := &chart{id: "r004mem", title: "Memory vs length", xName: "string length (characters)", yName: "bytes allocated", xLog: true, yLog: true}
	for _, a := range algs {
		st, sm := series{name: a}, series{name: a}
		for _, k := range ks {
			if k.Algorithm == a {
				v := ix.stats[k]
				st.pts = append(st.pts, pt{x: float64(k.LenA), y: v.med, lo: v.min, hi: v.max})
				sm.pts = append(sm.pts, pt{x: float64(k.LenA), y: v.alloc, lo: v.alloc, hi: v.alloc})
			}
		}
		ct.series, cm.series = append(ct.series, st), append(cm.series, sm)
	}
	for _, n := range ls {
		row := []string{strconv.Itoa(n)}
		for _, a := range algs {
			tc, mc := "missing", "missing"
			if v, ok := ix.get("s004-memory", a, 1, 0, n, n); ok {
				tc, mc = secs(v), bytesStr(v.alloc)
			}
			row = append(row, tc, mc)
		}
		t.rows = append(t.rows, row)
	}
	s.add(t, ct, cm)
	s.p("The post publishes no numbers: it argues that two rows of the matrix suffice, so there is nothing of its own to set beside ours; ours measure the claim.")
	n := ls[len(ls)-1]
	fm, ok1 := ix.get("s004-memory", "fullmatrix", 1, 0, n, n)
	tr, ok2 := ix.get("s004-memory", "tworow", 1, 0, n, n)
	if ok1 && ok2 {
		s.p("At n=%d the full matrix allocated %s and took %s s; two rows allocated %s and took %s s (%s× faster, its rows stay in cache).",
			n, bytesStr(fm.alloc), num(fm.med), bytesStr(tr.alloc), num(tr.med), num(fm.med/tr.med))
	}
	if sk := ix.skipsOf("s004-memory"); len(sk) > 0 {
		s.add(skipTable("Points not run here", sk))
	}
	return s
}

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

func sectionMethod(ix *index) section {
	s := section{id: "method", title: "Machine and method"}
	m := ix.machine()
	if len(ix.d.records) == 0 {
		missing(&s, "the machine: no records were read")
		return s
	}
	t := &table{caption: "Our machine, from the records", head: []string{"", ""}}
	t.rows = [][]string{
		{"CPU", m.cpu}, {"cores", strconv.Itoa(m.cores)}, {"GPU", m.gpu}, {"Go", m.goVersion},
		{"levlab commit", strings.Join(m.commits, ", ")}, {"repetitions per point (most)", strconv.Itoa(m.reps)},
		{"folders read", strings.Join(ix.d.folders, ", ")},
	}
	s.add(t)
	s.p("Method: every point was timed %d times; tables and charts give the median, with the minimum and maximum in brackets as whiskers on the charts and in each point's tooltip. Speedups divide the baseline's median by the point's median; their range uses the point's min and max. Published numbers are as the reports printed them (means of their runs, where they say). Points not run here are listed with the reason.", m.reps)
	return s
}
