package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

// sectionSummary opens the report: the machines, what was found (each
// finding with the reports' number beside ours), what did not run and
// why, said once, and what was read.
func sectionSummary(r *rep) []section {
	s := section{id: "summary", title: "Key results"}
	d := r.d
	if len(r.runs) == 0 {
		s.p("Measured: none. No <machine>/<scale>/ folder of results was found, so only the reports' own numbers are shown; run levlab reproduce (about a minute) or levlab run first.")
	} else {
		var on []string
		for _, ix := range r.runs {
			m := ix.machine()
			on = append(on, fmt.Sprintf("%s, %d cores, %s scale, %d repetitions a point (%s)", ix.name, m.cores, ix.rd.run.Scale, m.reps, ix.rd.where))
		}
		s.p("Measured on %s.", strings.Join(on, "; and "))
	}
	if r.quick() {
		s.p("Quick scale: sizes below the reports' (to 10,000 characters where they go to 50,000 or more, and 2·10⁶ bytes for pattern matching where they use 1.4·10⁸), so that the whole set runs in about a minute. The reports' sizes: levlab run --scale paper (23 minutes on a 2-core AMD EPYC), then levlab report.")
	}
	for _, f := range keyResults(r) {
		s.p("%s", f)
	}
	if d.noPublish != "" {
		s.p("Published: %s; the reports' columns below are empty.", d.noPublish)
	}
	out := []section{s}
	if nr := notRunSection(r); len(nr.blocks) > 0 {
		out = append(out, nr)
	}
	if rd := readSection(r); len(rd.blocks) > 0 {
		out = append(out, rd)
	}
	return out
}

// keyResults returns the findings, each a sentence with our number and the
// report's beside it.
func keyResults(r *rep) []string {
	var out []string
	// each says a finding on every run: f gives its context (what the runs
	// share, said once when they all share it) and its value.
	each := func(f func(ix *index) (ctx, v string, ok bool)) string {
		var ctxs, vals []string
		for _, ix := range r.runs {
			if c, v, ok := f(ix); ok {
				if len(r.runs) > 1 {
					v += " on " + ix.name
				}
				ctxs, vals = append(ctxs, c), append(vals, v)
			}
		}
		return shared(ctxs, vals)
	}

	// Report 000's Table 1: its OpenMP tiles on 8 threads against ours, on
	// each machine at the largest size both have.
	if pub := r.pub(func(p records.Published) bool {
		return p.Source == src000 && p.Table == "Table 1" && p.Algorithm == records.AlgTiled && p.Workers == 8
	}); len(pub) > 0 {
		if o := each(func(ix *index) (string, string, bool) {
			for _, p := range slices.Backward(pub) {
				if st, ok := ix.get(records.ExpS000Table1, records.AlgTiled, 8, 0, p.LenA, p.LenA); ok {
					return fmt.Sprintf("at n = %s, %s s against", size(p.LenA), pubNum(p.Value)), dur(st.med), true
				}
			}
			return "", "", false
		}); o != "" {
			out = append(out, fmt.Sprintf("Report 000, Table 1: the report's OpenMP tiles on 8 threads (%s) against ours, tiled with 8 workers: %s.", pub[0].Machine, o))
		}
	}

	// The fastest distance here against the reports' best DP rate.
	if base, ok := publishedBestGCUPS(r); ok {
		o := each(func(ix *index) (string, string, bool) {
			var bk key
			var bg float64
			for _, k := range ix.find(records.ExpPeers, nil) {
				if g := ix.stats[k].gcups; g > bg {
					bk, bg = k, g
				}
			}
			if bg == 0 {
				return "", "", false
			}
			return fmt.Sprintf("%s at n = %s:", bk.Algorithm, size(bk.LenA)), fmt.Sprintf("%s GCUPS (%s the report's)", num(bg), times(bg/base.gcups)), true
		})
		if o != "" {
			out = append(out, fmt.Sprintf("Fastest distance, %s. The report's best is %s GCUPS: %s² cells in %s s on 8 threads (report 000, Table 1). GCUPS counts the m×n cells of the matrix per second, whether or not an algorithm visits them all.",
				o, num(base.gcups), size(base.n), pubNum(base.sec)))
		}
	}

	// Report 002's CPU column against ours.
	for _, p := range r.pub(func(p records.Published) bool {
		return p.Source == src002 && p.Case == "different" && p.Algorithm == records.AlgFullMatrix && p.Metric == "seconds"
	}) {
		o := each(func(ix *index) (string, string, bool) {
			st, ok := ix.get(records.ExpS002Cases, records.AlgFullMatrix, 1, 0, 10000, 10000)
			if !ok {
				for _, k := range ix.find(records.ExpS002Cases, func(k key) bool { return k.Algorithm == records.AlgFullMatrix && k.Case == "different" }) {
					st, ok = ix.stats[k], true
				}
			}
			return "", dur(st.med), ok
		})
		if o != "" {
			out = append(out, fmt.Sprintf("Report 002's CPU took %s s for two completely different strings (length not stated; 10,000 on its next slide); our full matrix at 10,000: %s. Its CPU program walks antidiagonals from a Python host; ours is compiled Go, row by row.", pubNum(p.Value), o))
		}
	}

	// Report 000's CUDA kernel (Table 2) at its largest size, beside ours
	// of the same kernel and levlab's cuda-fast, where a GPU ran them.
	if pub := r.pub(func(p records.Published) bool {
		return p.Source == src000 && p.Table == "Table 2" && p.Metric == "seconds"
	}); len(pub) > 0 {
		n := slices.MaxFunc(pub, func(a, b records.Published) int { return a.LenA - b.LenA }).LenA
		best := pub[0]
		for _, p := range pub {
			if p.LenA == n && (best.LenA != n || p.Value < best.Value) {
				best = p
			}
		}
		if o := each(func(ix *index) (string, string, bool) {
			var bk key
			var bs stat
			for _, k := range ix.find(records.ExpS000Table2, func(k key) bool { return k.LenA == n }) {
				if st := ix.stats[k]; bs.n == 0 || st.med < bs.med {
					bk, bs = k, st
				}
			}
			if bs.n == 0 {
				return "", "", false
			}
			v := fmt.Sprintf("%s (block %d)", dur(bs.med), bk.Block)
			if st, ok := ix.get(records.ExpGPUFast, records.AlgCUDAFast, 0, 0, n, n); ok {
				v += fmt.Sprintf(", and levlab's cuda-fast (one persistent, bit-parallel launch) %s", dur(st.med))
				if ks := ix.find(records.ExpGPUFast, func(k key) bool { return k.Algorithm == records.AlgCUDAFast }); len(ks) > 0 && ks[len(ks)-1].LenA > n {
					k := ks[len(ks)-1]
					v += fmt.Sprintf(" (%s at %s × %s)", dur(ix.stats[k].med), size(k.LenA), size(k.LenB))
				}
			}
			return "", v, true
		}); o != "" {
			gpu := best.Machine
			if strings.Contains(gpu, "GPU not named") {
				gpu = "its GPU not named"
			}
			out = append(out, fmt.Sprintf("Report 000's CUDA kernel, a launch per antidiagonal (Table 2): at n = %s the report's best is %s s (block %d, %s); ours, the same kernel, %s.",
				size(n), pubNum(best.Value), best.Block, gpu, o))
		}
	}

	// Report 004's claim: two rows instead of the matrix.
	if o := each(func(ix *index) (string, string, bool) {
		ks := ix.find(records.ExpS004Memory, func(k key) bool { return k.Algorithm == records.AlgTwoRow })
		if len(ks) == 0 {
			return "", "", false
		}
		n := ks[len(ks)-1].LenA
		fm, ok1 := ix.get(records.ExpS004Memory, records.AlgFullMatrix, 1, 0, n, n)
		tr, ok2 := ix.get(records.ExpS004Memory, records.AlgTwoRow, 1, 0, n, n)
		if !ok1 || !ok2 {
			return "", "", false
		}
		return fmt.Sprintf("at n = %s, %s against the matrix's %s, and", size(n), bytesStr(tr.alloc), bytesStr(fm.alloc)), times(fm.med/tr.med) + " as fast", true
	}); o != "" {
		out = append(out, "Two rows instead of the matrix (report 004, which publishes no numbers): "+o+".")
	}

	// Pattern matching against report 003's per-window DP.
	if o := each(func(ix *index) (string, string, bool) {
		ks := ix.find(records.ExpS003Ranks, func(k key) bool { return k.Ranks == 0 && k.Workers > 1 })
		if len(ks) == 0 {
			return "", "", false
		}
		k := ks[len(ks)-1]
		st := ix.stats[k]
		return fmt.Sprintf("on %s bytes with %d workers:", size(k.LenA), k.Workers), num(float64(k.LenA)/st.med/1e6) + " MB/s", true
	}); o != "" {
		out = append(out, "Approximate pattern matching (pattern 22, k = 2, bit-parallel, CPU only) "+o+
			". Report 003's per-window DP took about 40 s for 136,473,378 bytes with 4 OpenMP threads and a GPU (read from its Figure 3's curve, about 3.4 MB/s).")
	}
	return out
}

// shared joins a finding's values, one a machine (each ending "on <machine>"
// where there are several), after their contexts: said once where every
// machine's is the same, else before each value.
func shared(ctxs, vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	if allSame(ctxs) {
		return strings.TrimSpace(ctxs[0] + " " + strings.Join(vals, ", "))
	}
	out := make([]string, len(vals))
	for i := range vals {
		out[i] = strings.TrimSpace(ctxs[i] + " " + vals[i])
	}
	return strings.Join(out, "; ")
}

// allSame reports whether every string of ss is the first.
func allSame(ss []string) bool {
	for _, s := range ss {
		if s != ss[0] {
			return false
		}
	}
	return true
}

// bestRate is the report's best DP rate: n² cells in sec seconds.
type bestRate struct {
	n          int
	sec, gcups float64
}

// publishedBestGCUPS is the best cells per second in report 000's Table 1.
func publishedBestGCUPS(r *rep) (bestRate, bool) {
	var b bestRate
	for _, p := range r.pub(func(p records.Published) bool {
		return p.Source == src000 && p.Table == "Table 1" && p.Metric == "seconds" && p.Value > 0
	}) {
		if g := float64(p.LenA) * float64(p.LenB) / p.Value / 1e9; g > b.gcups {
			b = bestRate{p.LenA, p.Value, g}
		}
	}
	return b, b.gcups > 0
}

// notRunSection says once why points did not run — the GPU's reason once
// for every machine that gave it — then one line per experiment with how
// many, and the points themselves folded.
func notRunSection(r *rep) section {
	s := section{id: "notrun", title: "What did not run"}
	// A reason is said once, with each of its details and the machines
	// that gave them: every GPU point of a machine without CUDA is one
	// reason, "no GPU", whatever layer passed it up.
	type detail struct {
		text     string
		machines []string
	}
	type reason struct {
		note    string
		details []*detail
	}
	var reasons []*reason
	type expCount struct {
		exp string
		on  []string
	}
	var lines []*expCount
	t := &table{caption: "Every point not run", folded: true, head: []string{"machine", "experiment", "algorithm", "points", "lengths", "why"}}
	var withGPU []string // machines where a GPU point ran
	for _, ix := range r.runs {
		for k := range ix.stats {
			if strings.HasPrefix(k.Algorithm, "cuda-") || k.GPURatio > 0 {
				withGPU = append(withGPU, ix.name)
				break
			}
		}
	}
	for _, ix := range r.runs {
		byExp := map[string]int{}
		var exps []string
		for _, sk := range ix.skips {
			if byExp[sk.k.Experiment] == 0 {
				exps = append(exps, sk.k.Experiment)
			}
			byExp[sk.k.Experiment]++
			why, more := records.SkipCause(sk.note)
			i := slices.IndexFunc(reasons, func(x *reason) bool { return x.note == why })
			if i < 0 {
				reasons = append(reasons, &reason{note: why})
				i = len(reasons) - 1
			}
			j := slices.IndexFunc(reasons[i].details, func(d *detail) bool { return d.text == more })
			if j < 0 {
				reasons[i].details = append(reasons[i].details, &detail{text: more})
				j = len(reasons[i].details) - 1
			}
			if d := reasons[i].details[j]; !slices.Contains(d.machines, ix.name) {
				d.machines = append(d.machines, ix.name)
			}
		}
		for _, e := range exps {
			i := slices.IndexFunc(lines, func(l *expCount) bool { return l.exp == e })
			if i < 0 {
				lines = append(lines, &expCount{exp: e})
				i = len(lines) - 1
			}
			lines[i].on = append(lines[i].on, fmt.Sprintf("%d on %s", byExp[e], ix.name))
		}
		for _, row := range skipRows(ix.skips) {
			t.rows = append(t.rows, append([]string{ix.name}, row...))
		}
	}
	if len(reasons) == 0 {
		return s
	}
	for i, rs := range reasons {
		n := ""
		if len(reasons) > 1 {
			n = fmt.Sprintf("(%d) ", i+1)
		}
		var on []string
		for _, d := range rs.details {
			if rs.note == records.NoGPU {
				on = append(on, fmt.Sprintf("on %s (%s)", strings.Join(d.machines, " and "), d.text))
			} else {
				on = append(on, fmt.Sprintf("on %s, %s", strings.Join(d.machines, " and "), d.text))
			}
		}
		if rs.note == records.NoGPU {
			if len(withGPU) == 0 {
				s.p("%sNo GPU, so no GPU point ran. CUDA is unavailable %s.", n, strings.Join(on, "; "))
			} else {
				s.p("%sGPU points ran on %s alone. CUDA is unavailable %s.", n, strings.Join(withGPU, " and "), strings.Join(on, "; "))
			}
		} else {
			s.p("%sNot run %s.", n, strings.Join(on, "; "))
		}
	}
	slices.SortFunc(lines, func(a, b *expCount) int { return strings.Compare(a.exp, b.exp) })
	for _, l := range lines {
		s.p("%s: points not run: %s.", l.exp, strings.Join(l.on, ", "))
	}
	// Each reason is said above; the table names the points.
	for _, row := range t.rows {
		i := slices.IndexFunc(reasons, func(x *reason) bool { return x.note == row[len(row)-1] })
		row[len(row)-1] = "as said above"
		if len(reasons) > 1 {
			row[len(row)-1] = fmt.Sprintf("the reason numbered %d above", i+1)
		}
	}
	s.add(t)
	return s
}

// skipRows groups skipped points by experiment, algorithm and note: how
// many, and the lengths they span.
func skipRows(sk []skip) [][]string {
	type group struct {
		exp, alg, note string
		n              int
		lens           []int
	}
	var groups []*group
	for _, s := range sk {
		why, _ := records.SkipCause(s.note)
		i := slices.IndexFunc(groups, func(g *group) bool {
			return g.exp == s.k.Experiment && g.alg == s.k.Algorithm && g.note == why
		})
		if i < 0 {
			groups = append(groups, &group{exp: s.k.Experiment, alg: s.k.Algorithm, note: why})
			i = len(groups) - 1
		}
		g := groups[i]
		g.n++
		if !slices.Contains(g.lens, s.k.LenA) {
			g.lens = append(g.lens, s.k.LenA)
		}
	}
	var rows [][]string
	for _, g := range groups {
		slices.Sort(g.lens)
		var ls []string
		for _, n := range g.lens {
			ls = append(ls, size(n))
		}
		rows = append(rows, []string{g.exp, g.alg, strconv.Itoa(g.n), strings.Join(ls, ", "), g.note})
	}
	return rows
}

// readSection says what was read, what was left out and why.
func readSection(r *rep) section {
	s := section{id: "read", title: "What was read"}
	d := r.d
	var notes []string
	for _, ix := range r.runs {
		rd := ix.rd
		if out := rd.rows - rd.tally.used; out > 0 {
			named := "named below"
			if out > len(rd.leftOut) {
				named = fmt.Sprintf("the first %d named below", len(rd.leftOut))
			}
			notes = append(notes, fmt.Sprintf("Left out of %s: %s of its %s records, %s; every median, table and chart uses the other %s.",
				rd.where, count(out), count(rd.rows), named, count(rd.tally.used)))
		}
		if rd.tally.used == 0 {
			notes = append(notes, fmt.Sprintf("%s: no measured records at all.", rd.where))
		}
		for _, p := range rd.problems {
			notes = append(notes, "Could not use: "+p)
		}
		var absent []string
		for _, e := range knownExperiments {
			if !ix.has(e) && len(ix.skipsOf(e)) == 0 {
				absent = append(absent, e)
			}
		}
		if len(absent) > 0 && rd.tally.used > 0 {
			notes = append(notes, fmt.Sprintf("Not in %s (no record, run or skipped): %s.", rd.where, strings.Join(absent, ", ")))
		}
		if len(ix.unknown) > 0 {
			notes = append(notes, "Not recognised, so not drawn: "+strings.Join(ix.unknown, "; ")+".")
		}
	}
	for _, p := range d.problems {
		notes = append(notes, "Could not use: "+p)
	}
	for _, f := range d.ignored {
		notes = append(notes, "Not read: "+f+".")
	}
	if len(notes) == 0 {
		return s
	}
	for _, n := range notes {
		s.p("%s", n)
	}
	for _, ix := range r.runs {
		if len(ix.rd.leftOut) == 0 {
			continue
		}
		t := &table{caption: "Records left out of " + ix.rd.where, head: []string{"where", "why"}}
		for _, p := range ix.rd.leftOut {
			t.rows = append(t.rows, []string{p.File + ":" + strconv.Itoa(p.Line), p.Why})
		}
		if more := ix.rd.rows - ix.rd.tally.used - len(ix.rd.leftOut); more > 0 {
			t.rows = append(t.rows, []string{"…", fmt.Sprintf("and %s more", count(more))})
		}
		s.add(t)
	}
	return s
}
