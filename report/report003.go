package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

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
