package report

import (
	"strconv"
	"strings"
)

// sectionMethod names each machine as its records do, and how the numbers
// were taken.
func sectionMethod(r *rep) section {
	s := section{id: "method", title: "Machines and method"}
	if len(r.runs) == 0 {
		s.p("No run was read, so no machine is known.")
		return s
	}
	t := &table{caption: "Our machines, from the records", head: []string{""}, prose: true}
	rows := [][]string{{"CPU"}, {"cores"}, {"GPU"}, {"Go"}, {"levlab commit"}, {"repetitions a point (most)"}, {"scale"}, {"folder"}}
	reps := 0
	for _, ix := range r.runs {
		m := ix.machine()
		reps = max(reps, m.reps)
		t.head = append(t.head, ix.name)
		for i, v := range []string{m.cpu, strconv.Itoa(m.cores), m.gpu, m.goVersion, strings.Join(m.commits, ", "), strconv.Itoa(m.reps), ix.rd.run.Scale, ix.rd.where} {
			rows[i] = append(rows[i], v)
		}
	}
	t.rows = rows
	s.add(t)
	s.p("Method: every point was timed up to %d times after a warm-up; tables and charts give the median, with the repetitions' minimum and maximum below it, as whiskers and in each point's tooltip. Every speedup names its baseline; it divides the baseline's median by the point's median, and its whiskers are the 95%% confidence interval of that ratio — each median's interval from the order statistics of its repetitions, divided (golang.org/x/perf/benchmath, no assumption of a distribution) — where both points have the 6 repetitions or more an interval needs, else the range the point's minimum and maximum give. A speedup a table marks 'not significant' is one the Mann–Whitney U test cannot tell from no difference at the 0.05 level. Published numbers are as the reports printed them (means of their runs, where they say), rounded to three significant digits where they printed more.", reps)
	return s
}
