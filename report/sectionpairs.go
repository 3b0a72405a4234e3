package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// sectionPairs shows the many-pairs experiment: every pair of N random DNA
// strings, lev's block kernel a pair a vector lane on one worker and on
// every core, beside edlib a pair at a time.
func sectionPairs(r *runs.Set) document.Section {
	const exp = records.ExpManyPairs
	s := document.Section{ID: SectionPairs, Title: "Many pairs: every pair of a set beside edlib, spelling suggestions beside the obvious loop"}
	s.P("The library's lev.All computes every pair i < j of a set: each string's match table (a bit mask a symbol of where it occurs) is built once, and the pairs run four or eight at a time in the lanes of a vector register (AVX2, AVX-512), spread over the workers; edlib computes one pair a call, on one thread. The rate counts, for every pair, the product of its two lengths (its matrix's cells), 10⁹ a second: " + matrixRate + ".")
	c := &document.Figure{ID: "pairsgcups", Title: "Cells of the pairs' matrices a second, by number of strings", XName: "strings (every pair)", YName: matrixRateAxis, XLog: true, YLog: true}
	tables := 0
	for _, ix := range r.Runs {
		ks := ix.Find(exp, nil)
		if len(ks) == 0 {
			continue
		}
		tables++
		lines, ns := settingsOf(ks)
		L := ks[0].LenB
		name := func(l setting) string {
			switch {
			case l.alg == records.AlgEdlib:
				return "edlib, one pair per call"
			case strings.HasPrefix(l.alg, "cuda-"):
				return "lev " + l.alg + ", one job on the GPU"
			}
			return "lev " + l.alg + ", " + strconv.Itoa(l.workers) + " worker" + plural(l.workers)
		}
		t := &document.Table{Caption: "Every pair of N strings of " + document.Count(L) + " to " + document.Count(2*L) + " bp: time (median) and, below it, " + matrixRate + onName(r, ix) + " (—: not in the experiment at that N)", Head: []string{""}}
		for _, n := range ns {
			t.Head = append(t.Head, "N = "+document.Count(n))
		}
		for _, l := range lines {
			row := []string{name(l)}
			sr := document.FigureSeries{Name: named(r, ix, name(l))}
			for _, n := range ns {
				v, ok := ix.Get(exp, l.alg, l.workers, 0, n, L)
				if !ok {
					row = append(row, "—")
					continue
				}
				row = append(row, document.Dur(v.Med)+"\n"+document.Num(v.GCUPS))
				sr.Points = append(sr.Points, document.FigurePoint{X: float64(n), Y: v.GCUPS, Lo: v.GCUPS, Hi: v.GCUPS})
			}
			t.Rows = append(t.Rows, row)
			c.Series = append(c.Series, sr)
		}
		if tables > 1 && !slices.ContainsFunc(lines, func(l setting) bool { return strings.HasPrefix(l.alg, "cuda-") }) {
			// The first machine's table in print, and a GPU's, which
			// Key results quotes; the others' rates are in the figure,
			// their times in the other versions.
			t.Folded = true
			t.Caption += " (in the HTML, folded, Markdown and TeX versions, not in print; the figure draws its rates)"
		}
		s.Add(t)
		// The finding: the fastest lev line over edlib at the largest N
		// edlib ran.
		n := ns[len(ns)-1]
		for _, m := range ns {
			if _, ok := ix.Get(exp, records.AlgEdlib, 1, 0, m, L); ok {
				n = m
			}
		}
		ed, okE := ix.Get(exp, records.AlgEdlib, 1, 0, n, L)
		best, bestName, bestLine := runs.Stat{}, "", setting{}
		for _, l := range lines {
			if v, ok := ix.Get(exp, l.alg, l.workers, 0, n, L); ok && l.alg != records.AlgEdlib && v.GCUPS > best.GCUPS {
				best, bestName, bestLine = v, name(l), l
			}
		}
		if okE && bestName != "" && ed.GCUPS > 0 {
			// More workers against edlib's one thread said, with the
			// same algorithm's one worker beside it.
			vs := ""
			if bestLine.workers > 1 {
				one := 0.0
				if v1, ok := ix.Get(exp, bestLine.alg, 1, 0, n, L); ok && v1.GCUPS > 0 {
					one = v1.GCUPS / ed.GCUPS
				}
				vs = " (" + workersText(bestLine.workers, 1, "one thread", best.GCUPS/ed.GCUPS, one) + ")"
			}
			line := fmt.Sprintf("At N = %s%s, %s reached %s, %s edlib's %s one pair per call on one thread%s.", document.Count(n), onName(r, ix), bestName, rateText(best), document.Times(best.GCUPS/ed.GCUPS), document.Num(ed.GCUPS), vs)
			line += beyondCores(ix, exp, bestLine, n, L)
			// The whole command's rate (Benchmarks) is another run of
			// nearly this work: say so where both are read.
			med := benchMedians(r.Bench[ix.Run.Machine], pairsFiles)
			if cmd := med["MatrixCommand/all"]["GCUPS"]; cmd > 0 && n == 800 && L == 500 {
				w := fmt.Sprintf("The whole levlab matrix command on 800 strings of the same lengths reached %s in make bench-results (Beyond), another run", document.Num(cmd)+" "+matrixRate)

				// Faster by more than a tenth, the command needs a word on
				// why; nearer, runs differ that much (Method).
				if cmd > 1.1*best.GCUPS {
					w += fmt.Sprintf(": it does more (reading, printing) yet ran %s as fast. Each of the two is tight within its own repetitions, so the gap is not their noise: both call lev.All, the command with its own defaults and this experiment with its options, on strings made apart, and the records do not say which of those makes it", document.Times(cmd/best.GCUPS))
				} else {
					w += fmt.Sprintf(", %s as fast; it also reads the file and prints every pair, and the gap is within the spread between runs that Method gives, so no finding", document.Times(cmd/best.GCUPS))
				}
				line += " " + w + "."
				// Two edlib rates for one task: say which is which.
				if ed40 := med["ManyPairs/edlib/first40"]["GCUPS"]; ed40 > 0 {
					line += fmt.Sprintf(" Of edlib's two rates, %s here is every pair, in process; %s in Beyond the reports is its first 40 strings against all 800 (first40), another run.", document.Num(ed.GCUPS), document.Num(ed40))
				}
				// lev.Cross of the same sizes (Beyond) beside lev.All.
				if c1 := med["ManyPairs/lev/max=-1/workers=1"]["GCUPS"]; c1 > 0 {
					line += fmt.Sprintf(" In that run lev.Cross of 800 × 800 reached %s on one worker: it sorts all its targets by length, All only 64 at a time.", document.Num(c1)+" "+matrixRate)
				}
			}
			s.P("%s", line)
		}
		if line := gpuPairsFinding(r, ix); line != "" {
			s.P("%s", line)
		}
	}
	if !r.Measured(exp) {
		s.P("Not measured in the runs read (experiment %s).", exp)
	} else {
		// The field's published figure, for scale where a GPU ran: a
		// dashed reference line, not a series of points measured here.
		gpu := false
		for _, ix := range r.Runs {
			for _, k := range ix.Find(exp, nil) {
				gpu = gpu || (k.Algorithm == records.AlgCUDAFast && ix.Stats[k].N > 0)
			}
		}
		if gpu {
			c.MarkY, c.MarkName, c.MarkInNote = stringZillaRate, document.Num(stringZillaRate)+": "+stringZillaName, true
			c.Notes = append(c.Notes, "The dashed line at "+document.Num(stringZillaRate)+" is "+stringZillaName+"; a DP cell by cell over bytes, not like for like.")
		}
		s.Add(c)
		notRun(r, &s, exp)
	}
	suggestTable(r, &s)
	return s
}

// StringZilla's CUDA Levenshtein, as its authors publish it: matrix cells a
// second on an NVIDIA H100 for strings of about 1 kbp (the sectionrefs
// entry names the source). Quoted, not measured here.
const (
	stringZillaRate = 3660.0
	stringZillaName = "StringZilla's published rate, not measured here (CUDA, NVIDIA H100, strings of about 1,000 bytes)"
)

// gpuPairsKeys returns, in run ix's many-pairs records, cuda-fast's point
// at the largest N it was measured with auto on more than one worker, and
// auto's on the most workers at that N: the GPU against every core of its
// machine. ok is false where there is no such pair of points.
func gpuPairsKeys(ix *runs.Index) (gk, ck runs.Key, ok bool) {
	for _, k := range ix.Find(records.ExpManyPairs, func(k runs.Key) bool { return k.Algorithm == records.AlgCUDAFast }) {
		for _, c := range ix.Find(records.ExpManyPairs, func(c runs.Key) bool {
			return c.Algorithm == records.AlgAuto && c.LenA == k.LenA && c.LenB == k.LenB && c.Workers > 1
		}) {
			if ix.Stats[k].Med > 0 && ix.Stats[c].Med > 0 && (k.LenA > gk.LenA || (k.LenA == gk.LenA && c.Workers > ck.Workers)) {
				gk, ck, ok = k, c, true
			}
		}
	}
	return gk, ck, ok
}

// gpuPairsFinding says, where run ix timed many pairs on the GPU, how the
// GPU's one job compares (gpuPairsKeys) with auto on every core of the
// same machine, and with StringZilla's published rate; "" where it did
// not.
func gpuPairsFinding(r *runs.Set, ix *runs.Index) string {
	gk, ck, ok := gpuPairsKeys(ix)
	if !ok {
		return ""
	}
	gpu, cpu, n := ix.Stats[gk], ix.Stats[ck], gk.LenA
	pairs := n * (n - 1) / 2
	return fmt.Sprintf("On the GPU%s, lev.All on cuda-fast is one job (the strings on the device once, a warp a pair): at N = %s (%s pairs) it took %s, %s, against %s for auto on the host's %s (%s, the GPU against every core of its machine). StringZilla publishes %s for its CUDA Levenshtein on an NVIDIA H100 at about 1,000 bytes (the figure's line): a DP cell by cell, a warp a pair, over bytes, against our bit-parallel kernel on DNA, on another card and harness: not like for like, so no ratio is drawn.",
		onName(r, ix), document.Count(n), document.Count(pairs), document.Dur(gpu.Med), rateTextOf(gk.Algorithm, gpu),
		document.Dur(cpu.Med), workersN(ck.Workers), document.Times(cpu.Med/gpu.Med), document.Num(stringZillaRate)+" "+matrixRate)
}

// suggestTable shows the suggest experiment: typos against a word list,
// the words within one edit, with the cap beside the obvious loop.
func suggestTable(r *runs.Set, s *document.Section) {
	const exp = records.ExpSuggest
	for _, ix := range r.Runs {
		ks := ix.Find(exp, nil)
		if len(ks) == 0 {
			continue
		}
		t := &document.Table{Caption: "Spelling suggestions: " + document.Count(ks[0].LenA) + " typos against Debian's word list (wamerican), the words within 1 edit" + onName(r, ix), Head: []string{"", "time (median)", "per typo"}}
		var loop, best, one runs.Stat
		bestW, loopW := 0, 0
		for _, k := range ks {
			v := ix.Stats[k]
			name := "lev.CrossStrings, max 1, " + strconv.Itoa(k.Workers) + " worker" + plural(k.Workers)
			switch {
			case k.Algorithm == records.AlgMyers:
				name, loop, loopW = "the obvious loop: lev.DistanceString on every word", v, k.Workers
			case best.N == 0 || v.Med < best.Med:
				best, bestW = v, k.Workers
			}
			if k.Algorithm != records.AlgMyers && k.Workers == 1 {
				one = v
			}
			t.Rows = append(t.Rows, []string{name, secs(v), document.Dur(v.Med / float64(k.LenA))})
		}
		s.Add(t)
		if loop.N > 0 && best.N > 0 {
			// Worker for worker where the fastest ran on more workers
			// than the loop.
			var r1 float64
			if one.N > 0 {
				r1 = loop.Med / one.Med
			}
			vs := workersText(bestW, loopW, "a loop on "+workersN(loopW), loop.Med/best.Med, r1)
			if vs != "" {
				vs = ", " + vs
			}
			s.P("With max 1%s every pair stops as soon as it is past one edit: %s for the typos, against %s for the loop that computes every distance (%s as fast%s).", onName(r, ix), document.Dur(best.Med), document.Dur(loop.Med), document.Times(loop.Med/best.Med), vs)
		}
	}
}

// workersN says n workers in words: "1 worker", "2 workers".
// beyondCores says, where line's speedup over its own one worker at N =
// n exceeds its workers (no more than the machine's cores), whether the
// interval shows it: " Its 2 workers ran 2.09× as fast as its 1 (95% CI
// …): …". "" where the speedup is within its workers.
func beyondCores(ix *runs.Index, exp string, line setting, n, l int) string {
	c := ix.Cores()
	if line.workers <= 1 || (c > 0 && line.workers > c) {
		return ""
	}
	one, ok1 := ix.GetKey(exp, line.alg, 1, 0, n, l)
	more, ok2 := ix.GetKey(exp, line.alg, line.workers, 0, n, l)
	if !ok1 || !ok2 {
		return ""
	}
	q, ok := ix.SpeedupOf(one, more)
	if !ok || q.X <= float64(line.workers) {
		return ""
	}
	w := float64(line.workers)
	t := fmt.Sprintf(" Its %s ran %s as fast as its 1 worker", workersN(line.workers), document.Times(q.X))
	switch {
	case q.CIKnown && q.Lo > w:
		return t + fmt.Sprintf(" (95%% CI %s), more than %d workers give on cores of their own: the work a worker holds at once is smaller, and fits its cache better, we take it (no cache counter was read).", document.CIFrom(q.Lo, q.Hi, w), line.workers)
	case q.CIKnown:
		return t + fmt.Sprintf(" (95%% CI %s): above %d× in the median, but its interval reaches below %d×, so no gain past its workers is shown.", document.CIFrom(q.Lo, q.Hi, w), line.workers, line.workers)
	}
	return t + fmt.Sprintf(", above %d× in the median, with no interval to tell it from %d× (too few repetitions).", line.workers, line.workers)
}
