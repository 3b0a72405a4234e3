package report

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
)

// finding is a row of Key results: what is claimed, the course report's
// number (or what it lacks), ours on a run ("" where the run lacks it),
// and the section that shows it.
type finding struct {
	claim, theirs, id string
	exps              []string // the experiments (or bench/FILE) it reads
	ours              func(ix *index) string
}

// keyTable is Key results as a table: a row per finding, the reports'
// number beside ours on each run read (scale named), the claim linked to
// its section. Findings no run measured are left out.
func keyTable(r *rep) *table {
	t := &table{caption: "Key results: the reports' numbers beside ours (median), each row linked to its section", head: []string{"finding", "the report's"}, prose: true}
	for _, ix := range r.runs {
		t.head = append(t.head, fmt.Sprintf("ours: %s (%s)", ix.name, ix.rd.run.Scale))
	}
	old := false
	for _, f := range findings(r) {
		row := []string{f.claim, f.theirs}
		any := false
		for _, ix := range r.runs {
			v := f.ours(ix)
			any = any || v != ""
			switch {
			case v == "":
				v = "—"
			case r.isOld(ix, f.exps...):
				v += " †"
				old = true
			}
			row = append(row, v)
		}
		if any {
			t.rows = append(t.rows, row)
			t.links = append(t.links, f.id)
		}
	}
	if old {
		t.caption += "; † made before its algorithm's code last changed (What was read)"
	}
	return t
}

// findings lists Key results' rows: the reports' claims first, then what
// levlab adds beyond them.
func findings(r *rep) []finding {
	var out []finding

	// Report 000's Table 1: its OpenMP tiles on 8 threads at its largest size.
	if pub := r.pub(func(p records.Published) bool {
		return p.Source == src000 && p.Table == "Table 1" && p.Algorithm == records.AlgTiled && p.Workers == 8
	}); len(pub) > 0 {
		p := slices.MaxFunc(pub, func(a, b records.Published) int { return a.LenA - b.LenA })
		out = append(out, finding{
			claim:  fmt.Sprintf("OpenMP tiles, 8 threads, n = %s (report 000, Table 1)", size(p.LenA)),
			theirs: pubNum(p.Value) + " s",
			id:     "r000",
			exps:   []string{records.ExpS000Table1},
			ours: func(ix *index) string {
				// At the largest size the run has; below the report's
				// largest, the report's number at that size beside it.
				for _, q := range slices.Backward(pub) {
					if st, ok := ix.get(records.ExpS000Table1, records.AlgTiled, 8, 0, q.LenA, q.LenA); ok {
						if q.LenA == p.LenA {
							return dur(st.med)
						}
						return fmt.Sprintf("%s at n = %s (the report's there: %s s)", dur(st.med), size(q.LenA), pubNum(q.Value))
					}
				}
				return ""
			},
		})
	}

	// The fastest distance against the reports' best DP rate.
	if base, ok := publishedBestGCUPS(r); ok {
		out = append(out, finding{
			claim:  "Fastest exact distance, GCUPS (report 000's best rate, Table 1)",
			theirs: fmt.Sprintf("%s (%s² in %s s, 8 threads)", num(base.gcups), size(base.n), pubNum(base.sec)),
			id:     "beyond",
			exps:   []string{records.ExpPeers},
			ours: func(ix *index) string {
				var bk key
				var bg float64
				for _, k := range ix.find(records.ExpPeers, nil) {
					if g := ix.stats[k].gcups; g > bg {
						bk, bg = k, g
					}
				}
				if bg == 0 {
					return ""
				}
				return fmt.Sprintf("%s (%s at %s, %s; %s)", num(bg), bk.Algorithm, size(bk.LenA), workersN(bk.Workers), times(bg/base.gcups))
			},
		})
	}

	// Report 002's CPU column: two completely different strings.
	for _, p := range r.pub(func(p records.Published) bool {
		return p.Source == src002 && p.Case == "different" && p.Algorithm == records.AlgFullMatrix && p.Metric == "seconds"
	}) {
		out = append(out, finding{
			claim:  "Full matrix on the CPU, two completely different strings (report 002)",
			theirs: pubNum(p.Value) + " s (length not stated; 10,000 on its next slide)",
			id:     "r002",
			exps:   []string{records.ExpS002Cases},
			ours: func(ix *index) string {
				if st, ok := ix.get(records.ExpS002Cases, records.AlgFullMatrix, 1, 0, 10000, 10000); ok {
					return dur(st.med) + " at 10,000"
				}
				return ""
			},
		})
	}

	// Report 000's CUDA kernel at its largest size, and cuda-fast.
	if pub := r.pub(func(p records.Published) bool {
		return p.Source == src000 && p.Table == "Table 2" && p.Metric == "seconds"
	}); len(pub) > 0 {
		n := slices.MaxFunc(pub, func(a, b records.Published) int { return a.LenA - b.LenA }).LenA
		best := slices.MinFunc(slices.DeleteFunc(slices.Clone(pub), func(p records.Published) bool { return p.LenA != n }),
			func(a, b records.Published) int { return cmp.Compare(a.Value, b.Value) })
		out = append(out, finding{
			claim:  fmt.Sprintf("CUDA, a launch per antidiagonal, n = %s (report 000, Table 2)", size(n)),
			theirs: fmt.Sprintf("%s s (block %d; GPU not named)", pubNum(best.Value), best.Block),
			id:     "r000",
			exps:   []string{records.ExpS000Table2},
			ours: func(ix *index) string {
				var bk key
				var bs stat
				for _, k := range ix.find(records.ExpS000Table2, func(k key) bool { return k.LenA == n }) {
					if st := ix.stats[k]; bs.n == 0 || st.med < bs.med {
						bk, bs = k, st
					}
				}
				if bs.n == 0 {
					return ""
				}
				return fmt.Sprintf("%s (block %d)", dur(bs.med), bk.Block)
			},
		})
		out = append(out, finding{
			claim:  fmt.Sprintf("levlab's cuda-fast, one persistent bit-parallel launch, n = %s and the largest", size(n)),
			theirs: "—",
			id:     "gpu",
			exps:   []string{records.ExpGPUFast},
			ours: func(ix *index) string {
				st, ok := ix.get(records.ExpGPUFast, records.AlgCUDAFast, 0, 0, n, n)
				if !ok {
					return ""
				}
				v := dur(st.med)
				if ks := ix.find(records.ExpGPUFast, func(k key) bool { return k.Algorithm == records.AlgCUDAFast }); len(ks) > 0 && ks[len(ks)-1].LenA > n {
					k := ks[len(ks)-1]
					v += fmt.Sprintf("; %s at %s", dur(ix.stats[k].med), size(k.LenA))
				}
				return v
			},
		})
	}

	// Report 004's claim: two rows instead of the matrix.
	out = append(out, finding{
		claim:  "Two rows instead of the whole matrix, largest n (report 004)",
		theirs: "no numbers published",
		id:     "r004",
		exps:   []string{records.ExpS004Memory},
		ours: func(ix *index) string {
			ks := ix.find(records.ExpS004Memory, func(k key) bool { return k.Algorithm == records.AlgTwoRow })
			if len(ks) == 0 {
				return ""
			}
			n := ks[len(ks)-1].LenA
			fm, ok1 := ix.get(records.ExpS004Memory, records.AlgFullMatrix, 1, 0, n, n)
			tr, ok2 := ix.get(records.ExpS004Memory, records.AlgTwoRow, 1, 0, n, n)
			if !ok1 || !ok2 {
				return ""
			}
			return fmt.Sprintf("%s against %s at %s; %s as fast", bytesStr(tr.alloc), bytesStr(fm.alloc), size(n), times(fm.med/tr.med))
		},
	})

	// Pattern matching against report 003's per-window DP.
	out = append(out, finding{
		claim:  "Approximate pattern matching, pattern of 22, k = 2, MB/s (report 003)",
		theirs: "about 3.4 (136,473,378 bytes in about 40 s, 4 threads and a GPU; read from its Figure 3)",
		id:     "r003",
		exps:   []string{records.ExpS003Ranks},
		ours: func(ix *index) string {
			ks := ix.find(records.ExpS003Ranks, func(k key) bool { return k.Ranks == 0 && k.Workers > 1 })
			if len(ks) == 0 {
				return ""
			}
			k := ks[len(ks)-1]
			return fmt.Sprintf("%s (%s bytes, %s, CPU alone)", num(float64(k.LenA)/ix.stats[k].med/1e6), size(k.LenA), workersN(k.Workers))
		},
	})

	// Beyond the reports: one pair beside edlib.
	out = append(out, finding{
		claim:  "One pair of random DNA, beside edlib (beyond the reports)",
		theirs: "—",
		id:     "beyond",
		exps:   []string{records.ExpPeers},
		ours: func(ix *index) string {
			eds := ix.find(records.ExpPeers, func(k key) bool { return k.Algorithm == records.AlgEdlib })
			if len(eds) == 0 {
				return ""
			}
			ek := eds[len(eds)-1]
			var bk key
			var bs stat
			for _, k := range ix.find(records.ExpPeers, func(k key) bool { return k.LenA == ek.LenA && !isPeer(k.Algorithm) }) {
				if st := ix.stats[k]; bs.n == 0 || st.med < bs.med {
					bk, bs = k, st
				}
			}
			if bs.n == 0 {
				return ""
			}
			ed := ix.stats[ek]
			return fmt.Sprintf("%s × %s: %s %s against edlib's %s (%s as fast)", size(ek.LenA), size(ek.LenB), bk.Algorithm, dur(bs.med), dur(ed.med), times(ed.med/bs.med))
		},
	})

	// Many pairs beside edlib a pair a call.
	out = append(out, finding{
		claim:  "Every pair of a set of DNA strings, beside edlib a pair a call (beyond the reports)",
		theirs: "—",
		id:     "pairs",
		exps:   []string{records.ExpManyPairs},
		ours: func(ix *index) string {
			eds := ix.find(records.ExpManyPairs, func(k key) bool { return k.Algorithm == records.AlgEdlib })
			if len(eds) == 0 {
				return ""
			}
			ek := eds[len(eds)-1]
			var best stat
			for _, k := range ix.find(records.ExpManyPairs, func(k key) bool { return k.LenA == ek.LenA && k.Algorithm != records.AlgEdlib }) {
				if st := ix.stats[k]; st.gcups > best.gcups {
					best = st
				}
			}
			ed := ix.stats[ek]
			if best.gcups == 0 || ed.gcups == 0 {
				return ""
			}
			return fmt.Sprintf("%s strings: %s GCUPS, %s edlib's", count(ek.LenA), num(best.gcups), times(best.gcups/ed.gcups))
		},
	})

	// Alignment, the whole command beside edlib-aligner (a benchmark).
	out = append(out, finding{
		claim:  "Alignment (CIGAR), the whole command, beside edlib-aligner (beyond the reports)",
		theirs: "—",
		id:     "align",
		exps:   []string{"bench/align.txt"},
		ours: func(ix *index) string {
			for _, f := range r.d.bench[ix.rd.run.Machine] {
				if filepath.Base(f.Path) != "align.txt" {
					continue
				}
				rows := alignBenchRows(f)
				if len(rows) == 0 {
					return ""
				}
				a := rows[0] // the first input: the largest, DNA 1% diverged
				return fmt.Sprintf("%s: %s against %s (%s the time)", benchInput(a.input), dur(a.ours), dur(a.peer), times(a.ours/a.peer))
			}
			return ""
		},
	})

	// Spelling suggestions with the cap, beside the obvious loop.
	out = append(out, finding{
		claim:  "Spelling suggestions within 1 edit, beside the obvious loop (beyond the reports)",
		theirs: "—",
		id:     "pairs",
		exps:   []string{records.ExpSuggest},
		ours: func(ix *index) string {
			var loop, best stat
			for _, k := range ix.find(records.ExpSuggest, nil) {
				v := ix.stats[k]
				if k.Algorithm == records.AlgMyers {
					loop = v
				} else if best.n == 0 || v.med < best.med {
					best = v
				}
			}
			if loop.n == 0 || best.n == 0 {
				return ""
			}
			return fmt.Sprintf("%s against %s (%s as fast)", dur(best.med), dur(loop.med), times(loop.med/best.med))
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
func gpuMachines(r *rep) []string {
	var out []string
	for _, ix := range r.runs {
		for k := range ix.stats {
			if strings.HasPrefix(k.Algorithm, "cuda-") || k.GPURatio > 0 {
				out = append(out, ix.name)
				break
			}
		}
	}
	return out
}
