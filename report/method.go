package report

import (
	"strconv"
	"strings"
)

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
