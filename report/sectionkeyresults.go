package report

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// finding is a row of Key results: what is claimed, the course report's
// number (or what it lacks), ours on a run ("" where the run lacks it),
// and the section that shows it.
type finding struct {
	claim, theirs, id string
	exps              []string // the experiments (or bench/FILE) it reads
	ours              func(ix *runs.Index) string
	// expsOf, where set, narrows exps to those ours read on run ix (one
	// of several it may choose from), so that † names only their code.
	expsOf func(ix *runs.Index) []string
}

// keyTable is Key results as a table: a row per finding, the reports'
// number beside ours on each run read (scale named), the claim linked to
// its section. Findings no run measured are left out.
func keyTable(r *runs.Set) *document.Table {
	t := &document.Table{Caption: "Key results: the reports' numbers beside ours (median), each row linked to its section", Head: []string{"finding", "the report's"}, Prose: true}
	for _, ix := range r.Runs {
		t.Head = append(t.Head, fmt.Sprintf("ours: %s (%s)", ix.Name, ix.Run.Scale))
	}
	old := false
	// A column all of whose cells are earlier code is history, not a
	// peer of the others: its head says so.
	cells, olds := make([]int, len(r.Runs)), make([]int, len(r.Runs))
	for _, f := range findings(r) {
		row := []string{f.claim, f.theirs}
		any := false
		for i, ix := range r.Runs {
			v := f.ours(ix)
			any = any || v != ""
			exps := f.exps
			if f.expsOf != nil {
				exps = f.expsOf(ix)
			}
			switch {
			case v == "":
				v = "—"
			case r.IsOld(ix, exps...):
				cs := r.OldCommits(ix, exps...)
				for i, c := range cs {
					if runs.DirtyCommit(c) {
						cs[i] = c + ": uncommitted changes, which no commit holds"
					}
				}
				v += " † earlier code (" + strings.Join(cs, ", ") + ")"
				old = true
				olds[i]++
			default:
				if d := runs.DirtyCommits(ix, exps...); len(d) > 0 {
					v += " (from a tree with uncommitted changes: " + strings.Join(d, ", ") + ", which no commit holds)"
				}
			}
			if v != "—" {
				cells[i]++
			}
			row = append(row, v)
		}
		if any {
			t.Rows = append(t.Rows, row)
			t.Links = append(t.Links, f.id)
		}
	}
	for i := range r.Runs {
		if cells[i] > 0 && olds[i] == cells[i] {
			t.Head[2+i] = strings.TrimSuffix(t.Head[2+i], ")") + "; all earlier code †, history)"
		}
	}
	if old {
		t.Caption += "; † earlier code (commit): measured with code older than this report's, before its algorithm's code last changed (What was read), so a column compares code versions as well as machines"
	}
	return t
}

// fastestCPU is the CPU point of run ix with the highest matrix rate in
// the experiments that time one distance at the reports' sizes and
// beyond (peers, gpu-fast), at length n where the run has one there — the
// published best's own size, so that like is set beside like — else at
// any length. Its rate grows with n, as the band is a smaller share of a
// larger matrix, so the size is part of the claim.
func fastestCPU(ix *runs.Index, n int) (runs.Key, bool) {
	var best, atN runs.Key
	for _, exp := range []string{records.ExpPeers, records.ExpGPUFast} {
		for _, k := range ix.Find(exp, func(k runs.Key) bool { return !strings.HasPrefix(k.Algorithm, "cuda") }) {
			g := ix.Stats[k].GCUPS
			if g > ix.Stats[best].GCUPS {
				best = k
			}
			if k.LenA == n && k.LenB == n && g > ix.Stats[atN].GCUPS {
				atN = k
			}
		}
	}
	if ix.Stats[atN].GCUPS > 0 {
		return atN, true
	}
	return best, ix.Stats[best].GCUPS > 0
}

// findings lists Key results' rows, a function each: the reports' claims
// first, like compared with like, then what levlab adds beyond them,
// where the algorithm differs (the fastest distance) or no report
// measured the question.
func findings(r *runs.Set) []finding {
	var out []finding
	for _, row := range []func(*runs.Set) []finding{
		findOpenMPTiles, findCUDA, findFullMatrixCPU, findTwoRows, findMatching,
		findFastest, findOnePair, findManyPairs, findGPUPairs, findAlignment, findSuggest,
	} {
		out = append(out, row(r)...)
	}
	return out
}

// findOpenMPTiles is the row of report 000's Table 1: its OpenMP tiles
// on 8 threads at its largest size.
func findOpenMPTiles(r *runs.Set) (out []finding) {
	if pub := r.Pub(func(p records.Published) bool {
		return p.Source == records.Seed000 && p.Table == "Table 1" && p.Algorithm == records.AlgTiled && p.Workers == 8
	}); len(pub) > 0 {
		p := slices.MaxFunc(pub, func(a, b records.Published) int { return a.LenA - b.LenA })
		out = append(out, finding{
			claim:  fmt.Sprintf("OpenMP tiles, 8 threads, n = %s (report 000, Table 1%s; its tiles fill the whole matrix, ours keep only their borders)", document.Size(p.LenA), pubCoresText(p.Machine)),
			theirs: document.PubNum(p.Value) + " s",
			id:     SectionR000,
			exps:   []string{records.ExpS000Table1},
			ours: func(ix *runs.Index) string {
				// At the largest size the run has; below the report's
				// largest, the report's number at that size beside it.
				for _, q := range slices.Backward(pub) {
					if st, ok := ix.Get(records.ExpS000Table1, records.AlgTiled, 8, 0, q.LenA, q.LenA); ok {
						on := fmt.Sprintf("8 workers on %d cores", ix.Cores())
						if q.LenA == p.LenA {
							return document.Dur(st.Med) + " (" + on + ")"
						}
						return fmt.Sprintf("%s at n = %s (%s; the report's there: %s s)", document.Dur(st.Med), document.Size(q.LenA), on, document.PubNum(q.Value))
					}
				}
				return ""
			},
		})
	}
	return out
}

// findFastest is the row of the fastest distance against the reports'
// best DP rate: its matrix is computed whole, so its rate is both; ours
// is named for what it counts, and what differs (size, workers,
// algorithm) is said.
func findFastest(r *runs.Set) (out []finding) {
	if base, ok := publishedBestGCUPS(r); ok {
		out = append(out, finding{
			claim:  fmt.Sprintf("Fastest exact distance at the report's largest n, %s (report 000's best rate, %s; both of random strings over 4 symbols, its a–d of Listing 1, our DNA; its distances not stated, ours about half the length; ours a bit-parallel band against its full DP: algorithmic, not parallel)", matrixRate, base.table),
			theirs: fmt.Sprintf("%s (our division of its %s² in %s s, %s; every cell computed)", document.Num(base.gcups), document.Size(base.n), document.PubNum(base.sec), base.how),
			id:     SectionBeyond,
			exps:   []string{records.ExpPeers, records.ExpGPUFast},
			expsOf: func(ix *runs.Index) []string {
				if bk, ok := fastestCPU(ix, base.n); ok {
					return []string{bk.Experiment}
				}
				return nil
			},
			ours: func(ix *runs.Index) string {
				bk, ok := fastestCPU(ix, base.n)
				if !ok {
					return ""
				}
				bg := ix.Stats[bk].GCUPS
				// The row is of matrix rates: that rate first, the
				// computed one beside it where the records counted it.
				st := ix.Stats[bk]
				v := document.Dur(st.Med) + ", " + document.Num(st.GCUPS) + " " + matrixRate
				if st.CCUPS > 0 {
					v += fmt.Sprintf(" (%s %s)", document.Num(st.CCUPS), computedRate)
				}
				v += fmt.Sprintf(" (%s at %s, %s against its GPU, experiment %s", bk.Algorithm, document.Size(bk.LenA), workersN(bk.Workers), bk.Experiment)
				if bk.LenA != base.n {
					v += fmt.Sprintf("; n = %s against the report's %s", document.Size(bk.LenA), document.Size(base.n))
				}
				// Myers' bit-parallel pass, banded and trimmed, skips most
				// of the matrix: the ratio is of algorithms, not of
				// parallel hardware.
				// At the report's n a ratio of matrix rates is one of
				// times, the answer sooner; the cells each computes are
				// set side by side too, where counted.
				what := "the report's rate"
				if bk.LenA == base.n && bk.LenB == base.n {
					what = "as fast as the report at the same n"
				}
				v += fmt.Sprintf("; %s %s%s", document.Times(bg/base.gcups), what, ciOverFixed(ix, bk, bg/base.gcups))
				if st.CCUPS > 0 {
					v += fmt.Sprintf("; %s its rate in cells computed", document.Times(st.CCUPS/base.gcups))
				}
				return v + ")"
			},
		})
	}
	return out
}

// findFullMatrixCPU is the row of report 002's CPU column: its third
// case, "completely different strings", which are alike in name only to
// ours (section002 says why).
func findFullMatrixCPU(r *runs.Set) (out []finding) {
	for _, p := range r.Pub(func(p records.Published) bool {
		return p.Source == records.Seed002 && p.Case == records.CaseDifferent && p.Algorithm == records.AlgFullMatrix && p.Metric == "seconds"
	}) {
		out = append(out, finding{
			claim:  `Full matrix on the CPU, "completely different strings" (report 002): the report's at distance 1,621, ours with no symbol in common (distance 10,000), alike in name only`,
			theirs: document.PubNum(p.Value) + " s (length not stated; 10,000 on a later slide)",
			id:     SectionR002,
			exps:   []string{records.ExpS002Cases},
			ours: func(ix *runs.Index) string {
				if st, ok := ix.Get(records.ExpS002Cases, records.AlgFullMatrix, 1, 0, 10000, 10000); ok {
					return document.Dur(st.Med) + " at 10,000"
				}
				return ""
			},
		})
	}
	return out
}

// findCUDA is the row of report 000's CUDA kernel at its largest size,
// and cuda-fast.
func findCUDA(r *runs.Set) (out []finding) {
	if pub := r.Pub(func(p records.Published) bool {
		return p.Source == records.Seed000 && p.Table == "Table 2" && p.Metric == "seconds"
	}); len(pub) > 0 {
		n := slices.MaxFunc(pub, func(a, b records.Published) int { return a.LenA - b.LenA }).LenA
		best := slices.MinFunc(slices.DeleteFunc(slices.Clone(pub), func(p records.Published) bool { return p.LenA != n }),
			func(a, b records.Published) int { return cmp.Compare(a.Value, b.Value) })
		out = append(out, finding{
			claim:  fmt.Sprintf("CUDA, a launch per antidiagonal, n = %s (report 000, Table 2)", document.Size(n)),
			theirs: fmt.Sprintf("%s s (block %d; GPU not named)", document.PubNum(best.Value), best.Block),
			id:     SectionR000,
			exps:   []string{records.ExpS000Table2},
			ours: func(ix *runs.Index) string {
				bk, bs, ok := ix.Quickest(records.ExpS000Table2, func(k runs.Key) bool { return k.LenA == n })
				if !ok {
					return ""
				}
				// The same algorithm, a launch per antidiagonal, on
				// another GPU: the ratio is of hardware and code alike,
				// each at its fastest block, and at the report's too.
				same := ""
				if bk.Block != best.Block {
					for _, k := range ix.Find(records.ExpS000Table2, func(k runs.Key) bool { return k.LenA == n && k.Block == best.Block }) {
						same = fmt.Sprintf("; %s at block %d", document.Times(best.Value/ix.Stats[k].Med), best.Block)
					}
				}
				return fmt.Sprintf("%s (block %d; %s as fast as the report, each at its fastest block%s; the same algorithm on another GPU%s)",
					document.Dur(bs.Med), bk.Block, document.Times(best.Value/bs.Med), same, ciOverFixed(ix, bk, best.Value/bs.Med))
			},
		})
		out = append(out, finding{
			claim:  fmt.Sprintf("levlab's cuda-fast, one persistent bit-parallel launch, n = %s and the largest", document.Size(n)),
			theirs: "—",
			id:     SectionGPU,
			exps:   []string{records.ExpGPUFast},
			ours: func(ix *runs.Index) string {
				gk, ok := ix.GetKey(records.ExpGPUFast, records.AlgCUDAFast, 0, 0, n, n)
				if !ok {
					return ""
				}
				st := ix.Stats[gk]
				v := document.Dur(st.Med)
				// Beside the host's best run at the same n, which may be
				// faster: the GPU's time alone would read as a win.
				var ck runs.Key
				for _, k := range ix.Find(records.ExpGPUFast, func(k runs.Key) bool {
					return k.Algorithm == records.AlgMyersParallel && k.LenA == n && k.LenB == n
				}) {
					if k.Workers > ck.Workers {
						ck = k
					}
				}
				if c, ok := ix.Stats[ck]; ok && c.Med > 0 && st.Med > 0 {
					v += fmt.Sprintf(" (%s as fast as myers-parallel on the host's %s, %s%s)", document.Times(c.Med/st.Med), workersN(ck.Workers), document.Dur(c.Med), ciOf(ix, ck, gk))
				}
				if ks := ix.Find(records.ExpGPUFast, func(k runs.Key) bool { return k.Algorithm == records.AlgCUDAFast }); len(ks) > 0 && ks[len(ks)-1].LenA > n {
					k := ks[len(ks)-1]
					v += fmt.Sprintf("; %s at %s", document.Dur(ix.Stats[k].Med), document.Size(k.LenA))
				}
				return v
			},
		})
	}
	return out
}

// findTwoRows is the row of report 004's claim: two rows instead of the
// matrix.
func findTwoRows(r *runs.Set) (out []finding) {
	out = append(out, finding{
		claim:  "Two rows instead of the whole matrix, largest n (report 004)",
		theirs: "no numbers published",
		id:     SectionR004,
		exps:   []string{records.ExpS004Memory},
		ours: func(ix *runs.Index) string {
			ks := ix.Find(records.ExpS004Memory, func(k runs.Key) bool { return k.Algorithm == records.AlgTwoRow })
			if len(ks) == 0 {
				return ""
			}
			n := ks[len(ks)-1].LenA
			fk, ok1 := ix.GetKey(records.ExpS004Memory, records.AlgFullMatrix, 1, 0, n, n)
			tk, ok2 := ix.GetKey(records.ExpS004Memory, records.AlgTwoRow, 1, 0, n, n)
			if !ok1 || !ok2 {
				return ""
			}
			fm, tr := ix.Stats[fk], ix.Stats[tk]
			return fmt.Sprintf("%s against %s at %s; %s as fast%s", document.BytesStr(tr.Alloc), document.BytesStr(fm.Alloc), document.Size(n), document.Times(fm.Med/tr.Med), ciOf(ix, fk, tk))
		},
	})
	return out
}

// findMatching is the row of pattern matching against report 003's
// per-window DP.
func findMatching(r *runs.Set) (out []finding) {
	out = append(out, finding{
		// apm-fast's q-gram filter skips most windows of a random text,
		// which the report's per-window DP computes: said once, here.
		claim:  "Approximate pattern matching, pattern of 22, MB/s (report 003; the 22 is our reading of a cut-off label, \"22 Chars p\"; k = 2 is ours, the report states none; ours is apm-fast, whose q-gram filter skips most windows of a random text: algorithmic, not parallel)",
		theirs: "about 3.4 (136,473,378 bytes in about 40 s, 4 OpenMP threads and 6,946,909 CUDA threads, as its label says; read off its Figure 3, whose axis names no unit: seconds are our reading)",
		id:     SectionR003,
		exps:   []string{records.ExpS003Ratio, records.ExpS003Ranks},
		ours: func(ix *runs.Index) string {
			// At the report's own text length where the run has it (all
			// on the CPU), else the largest text of the ranks experiment.
			ks := ix.Find(records.ExpS003Ratio, func(k runs.Key) bool { return k.LenA == text003 && k.GPURatio == 0 })
			if len(ks) == 0 {
				ks = ix.Find(records.ExpS003Ranks, func(k runs.Key) bool { return k.Ranks == 0 && k.Workers > 1 })
			}
			if len(ks) == 0 {
				return ""
			}
			k := ks[len(ks)-1]
			v := fmt.Sprintf("%s (%s bytes, %s, CPU alone", document.Num(float64(k.LenA)/ix.Stats[k].Med/1e6), document.Size(k.LenA), workersN(k.Workers))
			if k.Algorithm != records.AlgAPMFast {
				v += "; " + k.Algorithm
			}
			return v + ")"
		},
	})
	return out
}

// findOnePair is the row beyond the reports of one pair beside edlib.
func findOnePair(r *runs.Set) (out []finding) {
	out = append(out, finding{
		claim:  "One pair of random DNA, beside edlib (beyond the reports)",
		theirs: "—",
		id:     SectionBeyond,
		exps:   []string{records.ExpPeers},
		ours: func(ix *runs.Index) string {
			eds := ix.Find(records.ExpPeers, func(k runs.Key) bool { return k.Algorithm == records.AlgEdlib })
			if len(eds) == 0 {
				return ""
			}
			ek := eds[len(eds)-1]
			bk, bs, ok := ix.Quickest(records.ExpPeers, func(k runs.Key) bool { return k.LenA == ek.LenA && !isPeer(k.Algorithm) })
			if !ok {
				return ""
			}
			ed := ix.Stats[ek]
			// Worker for worker, where a point on edlib's one thread was measured.
			ew := max(ek.Workers, 1)
			oneK, one, oneOK := ix.Quickest(records.ExpPeers, func(k runs.Key) bool {
				return k.LenA == ek.LenA && k.LenB == ek.LenB && k.Workers == ew && !isPeer(k.Algorithm)
			})
			oneR, oneCI := 0.0, ""
			if oneOK {
				oneR, oneCI = ed.Med/one.Med, ciOf(ix, ek, oneK)
				if oneK.Algorithm != bk.Algorithm {
					// The fastest on one worker may be another algorithm:
					// named, so that the ratio is not read as bk's.
					oneCI = " (" + oneK.Algorithm + ", its fastest there)" + oneCI
				}
			}
			v := fmt.Sprintf("%s × %s: %s %s against edlib's %s (%s as fast%s", document.Size(ek.LenA), document.Size(ek.LenB), bk.Algorithm, document.Dur(bs.Med), document.Dur(ed.Med), document.Times(ed.Med/bs.Med), ciOf(ix, ek, bk))
			if w := workersText(bk.Workers, ew, oneThread(ew), ed.Med/bs.Med, oneR); w != "" {
				v += ", " + w + oneCI
			}
			return v + ourElsewhere(ix, bk) + ")"
		},
	})
	return out
}

// findManyPairs is the row of many pairs beside edlib one pair per call.
func findManyPairs(r *runs.Set) (out []finding) {
	out = append(out, finding{
		claim:  "Every pair of a set of DNA strings, beside edlib one pair per call (beyond the reports)",
		theirs: "—",
		id:     SectionPairs,
		exps:   []string{records.ExpManyPairs},
		ours: func(ix *runs.Index) string {
			eds := ix.Find(records.ExpManyPairs, func(k runs.Key) bool { return k.Algorithm == records.AlgEdlib })
			if len(eds) == 0 {
				return ""
			}
			ek := eds[len(eds)-1]
			var best runs.Stat
			var bestK runs.Key
			for _, k := range ix.Find(records.ExpManyPairs, func(k runs.Key) bool { return k.LenA == ek.LenA && k.Algorithm != records.AlgEdlib }) {
				if st := ix.Stats[k]; st.GCUPS > best.GCUPS {
					best, bestK = st, k
				}
			}
			ed := ix.Stats[ek]
			if best.GCUPS == 0 || ed.GCUPS == 0 {
				return ""
			}
			ew := max(ek.Workers, 1)
			oneR, oneCI := 0.0, ""
			if oneK, ok := ix.GetKey(records.ExpManyPairs, bestK.Algorithm, ew, 0, ek.LenA, ek.LenB); ok && ix.Stats[oneK].GCUPS > 0 {
				oneR, oneCI = ix.Stats[oneK].GCUPS/ed.GCUPS, ciOf(ix, ek, oneK)
			}
			ci := ciOf(ix, ek, bestK) // the same cells: the ratio of times is the ratio of rates
			v := fmt.Sprintf("%s strings: %s, %s edlib's%s (%s", document.Count(ek.LenA), rateText(best), document.Times(best.GCUPS/ed.GCUPS), ci, workersN(bestK.Workers))
			if w := workersText(bestK.Workers, ew, "edlib's "+oneThread(ew), best.GCUPS/ed.GCUPS, oneR); w != "" {
				v = fmt.Sprintf("%s strings: %s, %s edlib's%s (%s%s", document.Count(ek.LenA), rateText(best), document.Times(best.GCUPS/ed.GCUPS), ci, w, oneCI)
			}
			return v + ")"
		},
	})
	return out
}

// findGPUPairs is the row of many pairs on the GPU, cuda-fast's one job
// beside auto on every core of the same machine at the largest N both
// ran.
func findGPUPairs(r *runs.Set) (out []finding) {
	out = append(out, finding{
		claim:  "Every pair of a set of DNA strings on the GPU, beside every core of its machine (beyond the reports; StringZilla publishes " + document.Num(stringZillaRate) + " " + matrixRate + " on an NVIDIA H100 at about 1,000 bytes, a DP cell by cell over bytes: not like for like)",
		theirs: "—",
		id:     SectionPairs,
		exps:   []string{records.ExpManyPairs},
		ours: func(ix *runs.Index) string {
			gk, ck, ok := gpuPairsKeys(ix)
			if !ok {
				return ""
			}
			g, c := ix.Stats[gk], ix.Stats[ck]
			return fmt.Sprintf("%s strings: cuda-fast %s, %s, %s as fast as auto on %s%s (the GPU against every core of its machine)",
				document.Count(gk.LenA), document.Dur(g.Med), rateTextOf(gk.Algorithm, g), document.Times(c.Med/g.Med), workersN(ck.Workers), ciOf(ix, ck, gk))
		},
	})
	return out
}

// findAlignment is the row of alignment, the whole command beside
// edlib-aligner (a benchmark).
func findAlignment(r *runs.Set) (out []finding) {
	out = append(out, finding{
		claim:  "Alignment (CIGAR), the whole command, beside edlib-aligner (beyond the reports)",
		theirs: "—",
		id:     SectionAlign,
		exps:   []string{"bench/align.txt"},
		ours: func(ix *runs.Index) string {
			for _, f := range r.Bench[ix.Run.Machine] {
				if filepath.Base(f.Path) != "align.txt" {
					continue
				}
				rows := alignBenchRows(f)
				if len(rows) == 0 {
					return ""
				}
				a := rows[0] // the first input: the largest, DNA 1% diverged
				// The command runs on every core (GOMAXPROCS, the
				// benchmark's -N suffix); edlib-aligner on one thread.
				v := fmt.Sprintf("%s: %s against %s (%s as fast%s", benchInput(a.input), document.Dur(a.ours), document.Dur(a.peer), document.Times(a.peer/a.ours), a.spread)
				if p := benchProcs(f); p > 1 {
					one := 0.0
					if a.oursOne > 0 {
						one = a.peer / a.oursOne
					}
					v += ", " + workersText(p, 1, "edlib-aligner's one thread", a.peer/a.ours, one) + a.spreadOne
				}
				// A benchmark's medians, not a CSV's: say whose.
				if least, most := benchRuns([]records.BenchFile{f}); most > 1 && least == most {
					v += fmt.Sprintf("; make bench-results, the median of %d runs", most)
				} else if most > 1 {
					v += fmt.Sprintf("; make bench-results, the median of %d to %d runs", least, most)
				}
				return v + ")"
			}
			return ""
		},
	})
	return out
}

// findSuggest is the row of spelling suggestions with the cap, beside
// the obvious loop.
func findSuggest(r *runs.Set) (out []finding) {
	out = append(out, finding{
		claim:  "Spelling suggestions within 1 edit, beside the obvious loop (beyond the reports; max 1 stops each pair once past 1 edit: algorithmic, not parallel)",
		theirs: "—",
		id:     SectionPairs,
		exps:   []string{records.ExpSuggest},
		ours: func(ix *runs.Index) string {
			var loop, best, one runs.Stat
			var loopK, bestK runs.Key
			for _, k := range ix.Find(records.ExpSuggest, nil) {
				v := ix.Stats[k]
				if k.Algorithm == records.AlgMyers {
					loop, loopK = v, k
				} else if best.N == 0 || v.Med < best.Med {
					best, bestK = v, k
				}
			}
			if loop.N == 0 || best.N == 0 {
				return ""
			}
			var oneK runs.Key
			for _, k := range ix.Find(records.ExpSuggest, func(k runs.Key) bool { return k.Algorithm == bestK.Algorithm && k.Workers == loopK.Workers }) {
				one, oneK = ix.Stats[k], k
			}
			oneR, oneCI := 0.0, ""
			if one.N > 0 {
				oneR, oneCI = loop.Med/one.Med, ciOf(ix, loopK, oneK)
			}
			v := fmt.Sprintf("%s against %s (%s as fast%s", document.Dur(best.Med), document.Dur(loop.Med), document.Times(loop.Med/best.Med), ciOf(ix, loopK, bestK))
			if w := workersText(bestK.Workers, max(loopK.Workers, 1), "a loop on "+workersN(max(loopK.Workers, 1)), loop.Med/best.Med, oneR); w != "" {
				v += ", " + w + oneCI
			}
			return v + ")"
		},
	})
	return out
}

// isPeer reports whether alg is another library rather than lev's.
func isPeer(alg string) bool {
	return alg == records.AlgEdlib || alg == records.AlgAgnivade || alg == records.AlgKaWeihe
}

// gpuMachines names the runs with a GPU point (an algorithm cuda-* or a
// share sent to the GPU) among their measurements.
func gpuMachines(r *runs.Set) []string {
	var out []string
	for _, ix := range r.Runs {
		for k := range ix.Stats {
			if strings.HasPrefix(k.Algorithm, "cuda-") || k.GPURatio > 0 {
				out = append(out, ix.Name)
				break
			}
		}
	}
	return out
}

// ciOverFixed is the 95% interval of a ratio of k's median over a number
// a report published (one number, without repetitions): the interval of
// k's median time (benchmath's, distribution-free) carried over to the
// ratio x, as Key results writes it after the ratio, with how far runs
// of one point lie apart on that machine (betweenRuns); "" where k holds
// too few repetitions for an interval.
func ciOverFixed(ix *runs.Index, k runs.Key, x float64) string {
	// One run's repetitions say nothing of how far runs lie apart: said
	// beside the interval, or beside its want.
	apart := ""
	if n, worst, _, _ := betweenRuns(ix); n > 0 {
		apart = fmt.Sprintf("; runs of a point lie up to %s apart here (Method)", document.Times(worst))
	}
	s, sum := ix.Sample(k)
	if s == nil || len(s.Values) < runs.BootMin || sum.Lo <= 0 || math.IsInf(sum.Hi, 0) {
		if s != nil && len(s.Values) > 1 {
			// Said, so that the missing interval is not read as a
			// certain ratio; Method says why there is none (from n
			// values even their range holds the median with chance
			// 1 − 2/2ⁿ only), where a ratio of two such points still
			// has a rough bootstrap one.
			if apart == "" {
				apart = " (Method)"
			}
			return fmt.Sprintf(", no 95%% interval of one median from %d repetitions", len(s.Values)) + apart
		}
		return ""
	}
	// A time's interval turned over: a rate, and so the ratio, is high
	// where the time is low.
	lo, hi := x*sum.Center/sum.Hi, x*sum.Center/sum.Lo
	return fmt.Sprintf(", 95%% CI %s, from our repetitions alone", document.CI(lo, hi)) + apart
}

// ourElsewhere says, where point k was measured in other experiments of
// the run too and its medians lie more than 1.1× apart, how far: the
// ratio beside it takes one run's median, and the interval says nothing
// of the others ("; its 3.45 ms here, 3.45 ms–4.89 ms over the 2
// experiments that measured it: between runs, Method"). "" where not.
func ourElsewhere(ix *runs.Index, k runs.Key) string {
	lo, hi, others := medsElsewhere(ix, k)
	here := ix.Stats[k].Med
	lo, hi = min(lo, here), max(hi, here)
	if others == 0 || hi <= 1.1*lo {
		return ""
	}
	return fmt.Sprintf("; its %s here, %s–%s over the %d experiments that measured it: between runs, Method", document.Dur(here), document.Dur(lo), document.Dur(hi), others+1)
}

// acrossRuns is the range of the ratio of base's median over that's in
// every experiment of the run that measured both points, each ratio taken
// within one experiment, as Key results writes it after the interval
// ("; 1.24–1.68× in the 3 experiments that measured both"): the spread
// between runs, which a bootstrap over one run's repetitions does not
// hold. "" where one experiment alone measured both.
func acrossRuns(ix *runs.Index, base, that runs.Key) string {
	exps := map[string]bool{}
	for k := range ix.Stats {
		exps[k.Experiment] = true
	}
	var rs []float64
	var names []string
	for e := range exps {
		b, t := base, that
		b.Experiment, t.Experiment = e, e
		bs, okB := ix.Stats[b]
		ts, okT := ix.Stats[t]
		if okB && okT && ts.Med > 0 {
			rs = append(rs, bs.Med/ts.Med)
			if e != base.Experiment {
				names = append(names, e)
			}
		}
	}
	if len(rs) < 2 {
		return ""
	}
	// Named, so that a reader who meets the same point in another
	// section's table knows it for one point measured again.
	slices.Sort(names)
	also := " (" + base.Experiment + " here; also " + document.JoinAnd(names) + ")"
	lo, hi := slices.Min(rs), slices.Max(rs)
	if document.Num(lo) == document.Num(hi) {
		return fmt.Sprintf("; %s× in each of the %d experiments that measured both%s", document.Num(lo), len(rs), also)
	}
	return fmt.Sprintf("; %s–%s× in the %d experiments that measured both%s", document.Num(lo), document.Num(hi), len(rs), also)
}

// pubCoresText says the cores a report's machine line states, for a row
// that sets its threads beside ours: ", on its 4 cores", or "".
func pubCoresText(machine string) string {
	if c := pubCores(machine); c > 0 {
		return fmt.Sprintf(", on its %d cores", c)
	}
	return ""
}
