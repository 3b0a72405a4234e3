package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// alignPairs are the pairs the section draws: the reports' example, the
// textbook's, and a real one, a line of lev/pairs.go before and after the
// commit that replaced its own maxInt by math.MaxInt, on screen only (a
// longer example than paper has room for).
var alignPairs = []struct {
	what, a, b string
	screen     bool
}{
	{"the reports' example", "kitten", "sitting", false},
	{"the textbook's (Jurafsky and Martin)", "intention", "execution", false},
	{"a line of lev/pairs.go before and after a change of levlab's own",
		"if need := cells * 8; need > uint64(c.matrixLimit) || cells > uint64(maxInt/8) {",
		"if need := cells * 8; need > uint64(c.matrixLimit) || cells > uint64(math.MaxInt/8) {", true},
}

// alignWith aligns a and b with align and draws the result, 60 columns a
// block.
func alignWith(align func(a, b string) (string, error), what, a, b string) (*document.Drawing, error) {
	cigar, err := align(a, b)
	if err != nil {
		return nil, fmt.Errorf("aligning %q and %q: %w", a, b, err)
	}
	return document.DrawAlignment(what, a, b, cigar, 60)
}

// alignCases are the align experiment's cases as the section names them.
var alignCases = []struct{ c, name string }{
	{records.CaseDiverged, "DNA 1% diverged"},
	{records.CaseDNA, "Random DNA"},
}

// sectionAlign shows lev.Align: alignments drawn, then the align
// experiment (its time and heap beside the distance alone) and the
// command beside edlib-aligner (BenchmarkAlignCommand).
func sectionAlign(r *runs.Set, align func(a, b string) (string, error)) document.Section {
	const exp = records.ExpAlign
	s := document.Section{ID: SectionAlign, Title: "Alignment: which edits, not only how many"}
	s.P("The library's lev.Align answers what the distance leaves open: an optimal alignment, as runs of = (a match), X (a substitution), I (a symbol of A only) and D (a symbol of B only), printed as an extended CIGAR. It is Hirschberg's divide and conquer over the bit-parallel pass: the longer sequence is cut in half, the last column of each half's pass (the second half's reversed) says where the other sequence is cut, and the halves are aligned alone, side by side on the workers, every pass kept to the Ukkonen band of its piece's distance. Memory grows with the lengths, not their product.")
	if align == nil {
		s.P("No aligner was given to draw the pairs with; the levlab command gives one.")
	} else {
		for _, p := range alignPairs {
			d, err := alignWith(align, p.what, p.a, p.b)
			if err != nil {
				s.P("%v", err)
				continue
			}
			d.Screen = p.screen
			s.Add(d)
		}
		s.P("Under each column, | marks a match and . a substitution; - stands for the symbol a sequence lacks.")
	}
	c := &document.Figure{ID: "aligntime", Title: "Time by length: the alignment beside the distance alone", XName: "length of each sequence (symbols)", YName: document.TimeAxis, XLog: true, YLog: true}
	for _, ix := range r.Runs {
		for _, cs := range alignCases {
			ks := ix.Find(exp, func(k runs.Key) bool { return k.Case == cs.c })
			if len(ks) == 0 {
				continue
			}
			lines, ns := settingsOf(ks)
			keyOf := func(l setting, n int) (runs.Key, bool) {
				i := slices.IndexFunc(ks, func(k runs.Key) bool { return k.Algorithm == l.alg && k.Workers == l.workers && k.LenA == n })
				if i < 0 {
					return runs.Key{}, false
				}
				return ks[i], true
			}
			get := func(l setting, n int) (runs.Stat, bool) {
				k, ok := keyOf(l, n)
				return ix.Stats[k], ok
			}
			name := func(l setting) string {
				if l.alg == records.AlgAlign {
					return "lev.Align, " + strconv.Itoa(l.workers) + " worker" + plural(l.workers)
				}
				return "the distance alone (" + l.alg + "), " + strconv.Itoa(l.workers) + " worker" + plural(l.workers)
			}
			t := &document.Table{Caption: cs.name + ": time (median) and, below it, heap allocated" + onName(r, ix), Head: []string{""}}
			for _, n := range ns {
				t.Head = append(t.Head, "n = "+document.Count(n))
			}
			for _, l := range lines {
				row := []string{name(l)}
				sr := document.FigureSeries{Name: named(r, ix, name(l)+", "+cs.name)}
				for _, n := range ns {
					v, ok := get(l, n)
					if !ok {
						row = append(row, "—")
						continue
					}
					row = append(row, document.Dur(v.Med)+"\n"+document.BytesStr(v.Alloc))
					sr.Points = append(sr.Points, document.FigurePoint{X: float64(n), Y: v.Med, Lo: v.Min, Hi: v.Max})
				}
				t.Rows = append(t.Rows, row)
				c.Series = append(c.Series, sr)
			}
			s.Add(t)
			// Where more workers take longer, the text says so beside the
			// table that shows it: slower where the test tells the two
			// apart, else no difference shown.
			var slower, same []string
			for _, n := range ns {
				k1, ok1 := keyOf(setting{alg: records.AlgAlign, workers: 1}, n)
				for _, l := range lines {
					k, ok := keyOf(l, n)
					if !ok || !ok1 || l.alg != records.AlgAlign || l.workers <= 1 || ix.Stats[k].Med <= ix.Stats[k1].Med {
						continue
					}
					// The ratio with its interval, n.s. where the test
					// cannot tell it from 1× (asFastText).
					says := fmt.Sprintf("n = %s (%s against %s: %s)", document.Count(n), document.Dur(ix.Stats[k].Med), document.Dur(ix.Stats[k1].Med), asFastText(ix, k1, k))
					if q, ok := ix.SpeedupOf(k1, k); ok && q.Significant {
						slower = append(slower, says)
					} else {
						same = append(same, says)
					}
				}
			}
			if len(slower) > 0 {
				s.P("%s%s: lev.Align on more workers is slower than on one at %s.", cs.name, onName(r, ix), document.JoinAnd(slower))
			}
			if len(same) > 0 {
				s.P("%s%s: lev.Align on more workers is indistinguishable from one at %s: its median is longer, but the test does not tell the two apart.", cs.name, onName(r, ix), document.JoinAnd(same))
			}
			n := ns[len(ns)-1]
			var al, dist runs.Stat
			for _, l := range lines {
				if v, ok := get(l, n); ok {
					if l.alg == records.AlgAlign && (al.N == 0 || v.Med < al.Med) {
						al = v
					} else if l.alg != records.AlgAlign {
						dist = v
					}
				}
			}
			if al.N > 0 && dist.N > 0 && dist.Med > 0 {
				s.P("%s at n = %s%s: the alignment took %s and the distance alone %s, %s as fast; the alignment allocated %s in all, the sequences themselves %s.",
					cs.name, document.Count(n), onName(r, ix), document.Dur(al.Med), document.Dur(dist.Med), document.Times(al.Med/dist.Med), document.BytesStr(al.Alloc), document.BytesStr(float64(2*n)))
			}
		}
	}
	if !r.Measured(exp) {
		s.P("Not measured in the runs read (experiment %s).", exp)
	} else {
		s.Add(c)
		notRun(r, &s, exp)
	}
	for _, ix := range r.Runs {
		for _, f := range r.Bench[ix.Run.Machine] {
			if filepath.Base(f.Path) == "align.txt" {
				alignBench(&s, f, onName(r, ix))
			}
		}
	}
	return s
}

// alignRun is one input of BenchmarkAlignCommand: the medians of the
// whole levlab align command and of edlib-aligner, seconds and peak MB.
type alignRun struct {
	input                      string
	ours, peer, oursMB, peerMB float64
	// spread and spreadOne are the ratios' ranges over the runs
	// (runsRange), "" for one run.
	spread, spreadOne string
	// oursOne is levlab align on one worker, where the file holds it
	// (prog=levlab-one-worker), with its peak resident MB; else 0.
	oursOne, oursOneMB float64
}

// alignBenchRows reads BenchmarkAlignCommand's results from f, input by
// input in the file's order, where both programs ran it.
func alignBenchRows(f records.BenchFile) []alignRun {
	type cmd struct{ ns, mb []float64 }
	byProg := map[string]*cmd{}
	var inputs []string
	for _, res := range f.Results {
		input, prog, ok := strings.Cut(res.Name, "/prog=")
		if !ok {
			continue
		}
		input = strings.TrimPrefix(input, "AlignCommand/")
		if !slices.Contains(inputs, input) {
			inputs = append(inputs, input)
		}
		c := byProg[input+"|"+prog]
		if c == nil {
			c = &cmd{}
			byProg[input+"|"+prog] = c
		}
		c.ns, c.mb = append(c.ns, res.Values["ns/op"]), append(c.mb, res.Values["MB"])
	}
	var out []alignRun
	for _, in := range inputs {
		ours, peer := byProg[in+"|levlab"], byProg[in+"|edlib-aligner"]
		if ours == nil || peer == nil {
			continue
		}
		a := alignRun{input: in, ours: runs.Median(ours.ns) / 1e9, peer: runs.Median(peer.ns) / 1e9, oursMB: runs.Median(ours.mb), peerMB: runs.Median(peer.mb)}
		secs := func(ns []float64) map[string]float64 {
			return map[string]float64{rangeMin: slices.Min(ns) / 1e9, rangeMax: slices.Max(ns) / 1e9}
		}
		a.spread = runsRange(secs(peer.ns), "", secs(ours.ns), "")
		if one := byProg[in+"|levlab-one-worker"]; one != nil {
			a.oursOne, a.oursOneMB = runs.Median(one.ns)/1e9, runs.Median(one.mb)
			a.spreadOne = runsRange(secs(peer.ns), "", secs(one.ns), "")
		}
		out = append(out, a)
	}
	return out
}

// alignBench says what BenchmarkAlignCommand measured: the whole levlab
// align command beside edlib-aligner, input by input.
func alignBench(s *document.Section, f records.BenchFile, on string) {
	rows := alignBenchRows(f)
	procs := benchProcs(f)
	oneToo := slices.ContainsFunc(rows, func(a alignRun) bool { return a.oursOne > 0 })
	ours := "levlab align"
	if procs > 0 {
		ours += ", " + workersN(procs)
	}
	head := []string{"input", ours, "edlib-aligner (one thread)", "levlab, as fast as edlib"}
	if oneToo {
		head = slices.Insert(head, 2, "levlab align, 1 worker")
	}
	t := &document.Table{Caption: "The whole command" + on + ": levlab align --files A B beside edlib-aligner -m NW -p -f CIG_STD, time (median) and, below it, peak resident memory (" + filepath.Base(f.Path) + ")", Head: head}
	for _, a := range rows {
		// One style of ratio through the report: "N× as fast".
		ratio := document.Times(a.peer/a.ours) + " as fast" + a.spread
		row := []string{benchInput(a.input), document.Dur(a.ours) + "\n" + residentText(a.oursMB), document.Dur(a.peer) + "\n" + residentText(a.peerMB), ratio}
		if oneToo {
			one := "—"
			if a.oursOne > 0 {
				one = document.Dur(a.oursOne) + "\n" + residentText(a.oursOneMB)
				row[3] += "\n" + document.Times(a.peer/a.oursOne) + " on 1 worker" + a.spreadOne
			}
			row = slices.Insert(row, 2, one)
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) > 0 {
		s.Add(t)
	}
}

// benchInput names a BenchmarkAlignCommand input, "case=dna/n=100000".
func benchInput(in string) string {
	c, n, _ := strings.Cut(in, "/")
	c = strings.TrimPrefix(c, "case=")
	for _, ac := range alignCases {
		if ac.c == c {
			c = ac.name
		}
	}
	if x, err := strconv.Atoi(strings.TrimPrefix(n, "n=")); err == nil {
		return c + ", " + document.Count(x) + " × " + document.Count(x)
	}
	return c
}
