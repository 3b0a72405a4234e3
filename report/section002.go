package report

import (
	"fmt"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// partialPercent is the share of positions s002-cases' partial case
// substitutes (experiments.PartialPercent; a test holds the two equal, as
// report does not link experiments).
const partialPercent = 2

// section002 is report 002: the sequential CPU against its CUDA kernel on
// identical, partly and completely different strings.
func section002(r *runs.Set) document.Section {
	s := document.Section{ID: SectionR002, Title: "Report 002 — CUDA with unified memory on three cases (Yang, 2018)", Source: records.Seed002}
	pub := r.Pub(func(p records.Published) bool { return p.Source == records.Seed002 })
	cases := []string{records.CaseIdentical, records.CasePartial, records.CaseDifferent}
	pv := func(c, alg, metric string) string {
		for _, p := range pub {
			if p.Case == c && p.Algorithm == alg && p.Metric == metric {
				if strings.HasPrefix(metric, "speedup") {
					return document.PubNum(p.Value) + "×"
				}
				return document.PubNum(p.Value) + " s"
			}
		}
		return "—"
	}
	t := &document.Table{Caption: "CPU and GPU by case — the report's (length not stated; its runs taken in its demo's order of cases, our reading) beside ours (median; spread below; ours: a copy, " + fmt.Sprint(partialPercent) + " % of positions substituted, no symbol in common)", Head: append([]string{""}, cases...)}
	for _, row := range []struct{ name, alg, metric string }{
		{"report: CPU", records.AlgFullMatrix, "seconds"}, {"report: GPU", records.AlgCUDAMatrix, "seconds"}, {"report: speedup of the GPU over the CPU (as the report prints it)", records.AlgCUDAMatrix, "speedup"},
	} {
		line := []string{row.name}
		for _, c := range cases {
			line = append(line, pv(c, row.alg, row.metric))
		}
		t.Rows = append(t.Rows, line)
	}
	gpuRan := false
	for _, ix := range r.Runs {
		var lens []int
		for _, k := range ix.Find(records.ExpS002Cases, func(k runs.Key) bool { return k.Algorithm == records.AlgFullMatrix }) {
			lens = append(lens, k.LenA)
		}
		for _, n := range runs.SortedInts(lens) {
			line := []string{named(r, ix, "ours: CPU full matrix, n = "+document.Size(n))}
			for _, c := range cases {
				cell := "—"
				for _, k := range ix.Find(records.ExpS002Cases, func(k runs.Key) bool { return k.Algorithm == records.AlgFullMatrix && k.Case == c && k.LenA == n }) {
					cell = secs(ix.Stats[k])
				}
				line = append(line, cell)
			}
			t.Rows = append(t.Rows, line)
		}
		for _, alg := range []string{records.AlgCUDAMatrix, records.AlgCUDADiagonal, records.AlgCUDAFast} {
			ks := ix.Find(records.ExpS002Cases, func(k runs.Key) bool { return k.Algorithm == alg })
			if len(ks) == 0 {
				continue
			}
			gpuRan = true
			line := []string{named(r, ix, "ours: GPU "+alg+", n = "+document.Size(ks[len(ks)-1].LenA))}
			for _, c := range cases {
				cell := "—"
				for _, k := range ks {
					if k.Case == c && k.LenA == ks[len(ks)-1].LenA {
						cell = secs(ix.Stats[k])
					}
				}
				line = append(line, cell)
			}
			t.Rows = append(t.Rows, line)
		}
	}
	s.Add(t)
	if len(pub) == 0 {
		s.P("The report's numbers are not among the published numbers read.")
	}
	// Excluding allocation, length 10000.
	t2 := &document.Table{Caption: "Length 10,000, allocation and initialisation left out: the report's, then ours (full matrix on the CPU; our GPU times hold the device's allocation, so none is shown here)", Head: []string{"", "CPU", "GPU", "speedup of the GPU over the CPU (the report's as it prints it)"}}
	t2.Rows = [][]string{{"report", pv("", records.AlgFullMatrix, "seconds_excl_alloc"), pv("", records.AlgCUDAMatrix, "seconds_excl_alloc"), pv("", records.AlgCUDAMatrix, "speedup_excl_alloc")}}
	for _, ix := range r.Runs {
		for _, k := range ix.Find(records.ExpS002Cases, func(k runs.Key) bool {
			return k.Algorithm == records.AlgFullMatrix && k.Case == records.CaseDifferent && k.LenA == 10000
		}) {
			row := []string{named(r, ix, "ours (different strings; time less allocation)"), document.Dur(ix.Stats[k].Compute), "—", "—"}
			t2.Rows = append(t2.Rows, row)
		}
	}
	s.Add(t2)
	// The report's CPU said once, each machine's time after it.
	for _, p := range pub {
		if p.Case != records.CaseDifferent || p.Algorithm != records.AlgFullMatrix || p.Metric != "seconds" {
			continue
		}
		var ctxs, vals []string
		for _, ix := range r.Runs {
			for _, k := range ix.Find(records.ExpS002Cases, func(k runs.Key) bool {
				return k.Algorithm == records.AlgFullMatrix && k.Case == records.CaseDifferent && k.LenA == 10000
			}) {
				v := ix.Stats[k].Med
				ctxs = append(ctxs, fmt.Sprintf("at n = %s took", document.Size(k.LenA)))
				// No ratio: the cases are alike in name only (below).
				vals = append(vals, document.Dur(v)+onName(r, ix))
			}
		}
		if len(vals) > 0 {
			s.P("Where ours differ and why: the report's results slide gives three runs by their Score, the distance, 0, 85 and 1621, in the order of its demo's three cases (identical, partially and completely different strings); we take the runs to be those cases in that order, which the slide does not say. For the third the report's CPU took %s s; ours %s. The length is not stated beside the runs: 181 s is within 1%% of the 182 s a later slide gives at length 10,000, and the slowest CPU time is 11,600× the fastest, where a full DP's time depends mostly on the lengths (ours differ at most about 2× between the three cases at one length), so the runs most likely differ in length too (about 100, 1,000 and 10,000 by the square law; our reading), and its speedups may be by length as much as by case. A distance of 1,621 at length 10,000 is far from completely different: strings with no symbol in common, as ours are, are at distance 10,000, so the report's third case is alike in name, not in distance. Its CPU version walks the matrix by antidiagonals (its Algorithm 1); its host language is not stated, nor what makes a gap this large; ours is compiled Go, row by row. Its strings are its own and not published; ours are random strings of our making. The report's speedups are of its GPU over its CPU.",
				document.PubNum(p.Value), shared(ctxs, vals))
		}
	}
	if says := gpuOverCPU002(r, pv(records.CaseDifferent, records.AlgCUDAMatrix, "speedup")); says != "" {
		s.P("%s", says)
	}
	if !gpuRan {
		s.P("Our GPU rows are absent: no GPU point ran in the runs read.")
	}
	notRun(r, &s, records.ExpS002Cases)
	return s
}

// gpuOverCPU002 is our GPU's speedup over our CPU's full matrix on
// completely different strings at the largest length both ran, machine by
// machine, beside theirs, the report's own; "" where no run has both.
func gpuOverCPU002(r *runs.Set, theirs string) string {
	var says []string
	for _, ix := range r.Runs {
		cpu := ix.Find(records.ExpS002Cases, func(k runs.Key) bool { return k.Algorithm == records.AlgFullMatrix && k.Case == records.CaseDifferent })
		if len(cpu) == 0 {
			continue
		}
		var parts []string
		for _, alg := range []string{records.AlgCUDAMatrix, records.AlgCUDADiagonal, records.AlgCUDAFast} {
			for i := len(cpu) - 1; i >= 0; i-- {
				c := cpu[i]
				gs := ix.Find(records.ExpS002Cases, func(k runs.Key) bool {
					return k.Algorithm == alg && k.Case == records.CaseDifferent && k.LenA == c.LenA && k.LenB == c.LenB
				})
				if len(gs) == 0 {
					continue
				}
				parts = append(parts, fmt.Sprintf("%s %s%s at n = %s", alg, document.Times(ix.Stats[c].Med/ix.Stats[gs[0]].Med), ciOf(ix, c, gs[0]), document.Size(c.LenA)))
				break
			}
		}
		if len(parts) > 0 {
			says = append(says, "on "+ix.Name+", "+strings.Join(parts, "; "))
		}
	}
	if len(says) == 0 {
		return ""
	}
	return "Our GPU over our CPU's full matrix, on completely different strings, each with its allocation inside its time (the report's, on its own such strings, is " + theirs + "): " + strings.Join(says, "; ") + ". Of ours, cuda-matrix and cuda-diagonal compute every cell, as the report's kernel does; cuda-fast is bit-parallel, so its ratio is algorithmic as well as parallel."
}
