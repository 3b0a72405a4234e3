package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/levlab/levlab/records"
)

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
