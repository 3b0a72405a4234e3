package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/internal/buildinfo"
	"github.com/levlab/levlab/records"
)

func sortFloats(xs []float64) { sort.Float64s(xs) }

// The sections' ids, in the order build lists them: the anchors of the
// HTML, and what a notebook looks a section up by (Section.ID). An
// experiment of one's own is SectionOwnPrefix and its name; the terms and
// references, which the document's styles know, are document.RefsID.
const (
	SectionSummary    = "summary"
	SectionNotRun     = "notrun"
	SectionRead       = "read"
	SectionR000       = "r000"
	SectionR001       = "r001"
	SectionR002       = "r002"
	SectionR003       = "r003"
	SectionR004       = "r004"
	SectionBeyond     = "beyond"
	SectionPairs      = "pairs"
	SectionAlign      = "align"
	SectionGPU        = "gpu"
	SectionBenchmarks = "benchmarks"
	SectionOwnPrefix  = "own-"
	SectionMethod     = "method"
)

// said holds the paragraphs the report has said once (once), by their
// text.
type said map[string]bool

// once adds text to s the first time the report says it, and later
// again instead, so that no paragraph is printed twice word for word.
func (m said) once(s *document.Section, text, again string) {
	if m[text] {
		if again != "" {
			s.P("%s", again)
		}
		return
	}
	m[text] = true
	s.P("%s", text)
}

// build writes the report of the runs read as a document; align is
// Options.Align, the Alignment section's aligner, or nil.
func build(r *runs.Set, align func(a, b string) (string, error)) *document.Doc {
	told := said{}
	doc := &document.Doc{Title: "levlab: parallel edit distance, the course reports beside our measurements", Byline: byline(r)}
	if len(r.Only) > 0 {
		var titles []string
		for _, name := range r.Only {
			doc.Sections = append(doc.Sections, sectionOwn(r, name, told))
			titles = append(titles, name)
		}
		doc.Title = "levlab: " + strings.Join(titles, ", ")
		if len(r.Only) == 1 {
			if sp, _ := r.OwnSpec(r.Only[0]); sp.Title != "" {
				doc.Title = sp.Title
			}
		}
		doc.Sections = append(doc.Sections, sectionMethod(r))
		pruneEmpty(doc)
		if refs := sectionRefs(doc); len(refs.Blocks) > 0 {
			doc.Sections = append(doc.Sections, refs)
		}
		groupSeries(r, doc)
		splitCharts(r, doc)
		return doc
	}
	doc.Sections = append(sectionSummary(r),
		section000(r), section001(r), section002(r), section003(r), section004(r),
		sectionBeyond(r), sectionPairs(r), sectionAlign(r, align), sectionGPU(r), sectionBenchmarks(r))
	for _, name := range r.OwnNames() {
		doc.Sections = append(doc.Sections, sectionOwn(r, name, told))
	}
	doc.Sections = append(doc.Sections, sectionMethod(r))
	pruneEmpty(doc)
	if refs := sectionRefs(doc); len(refs.Blocks) > 0 {
		doc.Sections = append(doc.Sections, refs)
	}
	groupSeries(r, doc)
	splitCharts(r, doc)
	sayCoinciding(doc)
	return doc
}

// sayCoinciding notes, under each chart of doc whose lines lie over one
// another, which they are, so that a reader who sees fewer lines than
// the legend lists knows where the others are.
func sayCoinciding(doc *document.Doc) {
	for i := range doc.Sections {
		for _, b := range doc.Sections[i].Blocks {
			if c, ok := b.(*document.Figure); ok {
				if pairs := coinciding(c); len(pairs) > 0 {
					c.Notes = append(c.Notes, fmt.Sprintf("Drawn over one another (under %.0f %% of the axis apart): %s.", 100*coincideWithin, strings.Join(pairs, "; ")))
				}
			}
		}
	}
}

// coinciding names the groups of c's lines drawn over one another: two
// that share at least two x values and lie closer than coincideWithin of
// the axis's height at every one of them, where the height is what the
// values span as drawn (a linear axis from zero, a log one in whole
// decades),
// and with them any drawn over either: "A, B and C".
func coinciding(c *document.Figure) []string {
	at := func(y float64) float64 { return y }
	if c.YLog {
		at = func(y float64) float64 { return math.Log10(max(y, 1e-300)) }
	}
	lo, hi, any := 0.0, 0.0, false
	for _, sr := range c.Series {
		for _, p := range sr.Points {
			if c.YLog && p.Y <= 0 {
				continue
			}
			v := at(p.Y)
			if !any {
				lo, hi, any = v, v, true
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if !c.YLog {
		lo = min(lo, 0)
	} else {
		// A log axis is drawn from decade to decade.
		lo, hi = math.Floor(lo), math.Ceil(hi)
		if hi == lo {
			hi = lo + 1
		}
	}
	within := coincideWithin * (hi - lo)
	// Lines drawn over one another join a group: a chain of them reads
	// as one thick line.
	group := make([]int, len(c.Series))
	for i := range group {
		group[i] = i
	}
	var root func(i int) int
	root = func(i int) int {
		for group[i] != i {
			i = group[i]
		}
		return i
	}
	for i := range c.Series {
		for j := i + 1; j < len(c.Series); j++ {
			a, b := c.Series[i], c.Series[j]
			shared, close := 0, true
			for _, p := range a.Points {
				for _, q := range b.Points {
					if p.X != q.X {
						continue
					}
					shared++
					if c.YLog && (p.Y <= 0 || q.Y <= 0) || math.Abs(at(p.Y)-at(q.Y)) > within {
						close = false
					}
				}
			}
			if shared >= 2 && close && within > 0 {
				group[root(j)] = root(i)
			}
		}
	}
	members := map[int][]string{}
	var roots []int
	for i, sr := range c.Series {
		g := root(i)
		if members[g] == nil {
			roots = append(roots, g)
		}
		members[g] = append(members[g], sr.Name)
	}
	var out []string
	for _, g := range roots {
		if len(members[g]) > 1 {
			out = append(out, document.JoinAnd(members[g]))
		}
	}
	return out
}

// coincideWithin is how close, as a share of the axis's height, two
// lines must lie at every shared x to be drawn over one another: about
// 6 pixels of a printed chart, where a line is 2 wide and its marks 4.
const coincideWithin = 0.04

// byline says which levlab wrote the report, from which runs, measured
// when: "Written by levlab 894ddd2c0a1b from AMD EPYC (paper), …,
// measured 2026-11-21 to 2026-11-26". The dates are the records' (the
// clock's would make the same records give other bytes another day).
func byline(r *runs.Set) string {
	var runs []string
	first, last := "", ""
	for _, ix := range r.Runs {
		if ix.ScaleNamed {
			runs = append(runs, ix.Name)
		} else {
			runs = append(runs, fmt.Sprintf("%s (%s)", ix.Name, ix.Run.Scale))
		}
		t := ix.Tally
		if t.First != "" && (first == "" || t.First < first) {
			first = t.First
		}
		last = max(last, t.Last)
	}
	if len(runs) == 0 {
		return fmt.Sprintf("Written by levlab %s from the reports' published numbers alone.", buildinfo.Commit())
	}
	when := ""
	switch {
	case first != "" && first == last:
		when = ", measured " + first
	case first != "":
		when = ", measured " + first + " to " + last
	}
	return fmt.Sprintf("Written by levlab %s from %s%s.", buildinfo.Commit(), strings.Join(runs, ", "), when)
}

// pruneEmpty drops what a run without an experiment would add to its
// charts and tables: a series with no point (a legend entry, an empty
// column of the figure's points) and a table row whose every value is a
// dash or blank.
func pruneEmpty(d *document.Doc) {
	for i := range d.Sections {
		for _, b := range d.Sections[i].Blocks {
			switch b := b.(type) {
			case *document.Figure:
				b.Series = slices.DeleteFunc(b.Series, func(s document.FigureSeries) bool { return len(s.Points) == 0 })
			case *document.Table:
				b.Rows = slices.DeleteFunc(b.Rows, func(row []string) bool {
					return len(row) > 1 && !slices.ContainsFunc(row[1:], func(c string) bool { return c != "—" && c != "" })
				})
			}
		}
	}
}

// groupSeries marks, with several machines, each chart series named for a
// machine (named) with that machine and the name without it, so that a
// chart draws one measurement in one colour and each machine in its own
// line and symbol.
func groupSeries(r *runs.Set, d *document.Doc) {
	if len(r.Runs) < 2 {
		return
	}
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			c, ok := b.(*document.Figure)
			if !ok {
				continue
			}
			for i := range c.Series {
				for m, ix := range r.Runs {
					if g, ok := strings.CutPrefix(c.Series[i].Name, ix.Name+": "); ok && !c.Series[i].Published {
						// A line of earlier code keeps its measurement's colour.
						c.Series[i].Group, c.Series[i].Machine = strings.TrimSuffix(g, earlier), m
						break
					}
				}
			}
		}
	}
}

// maxSeries is the most lines a chart draws before splitCharts splits it:
// beyond about six, a measurement's tints for two machines, side by side
// in the legend, can no longer be told apart on paper.
const maxSeries = 6

// splitCharts replaces each chart of more than maxSeries series drawn on
// several machines with one chart a machine, titled "… on <machine>", each
// with the reports' series as well, its own lines named without the
// machine. A chart whose series name no machine
// stays whole.
func splitCharts(r *runs.Set, d *document.Doc) {
	for si := range d.Sections {
		var blocks []any
		for _, b := range d.Sections[si].Blocks {
			c, ok := b.(*document.Figure)
			if !ok || len(c.Series) <= maxSeries {
				blocks = append(blocks, b)
				continue
			}
			var pub []document.FigureSeries
			byMachine := map[int][]document.FigureSeries{}
			var order []int
			for _, sr := range c.Series {
				switch {
				case sr.Published:
					pub = append(pub, sr)
				case sr.Group == "":
					// A series of no machine: the chart cannot be split
					// without dropping it.
					byMachine = nil
				default:
					if _, seen := byMachine[sr.Machine]; !seen {
						order = append(order, sr.Machine)
					}
					byMachine[sr.Machine] = append(byMachine[sr.Machine], sr)
				}
				if byMachine == nil {
					break
				}
			}
			if len(order) < 2 || byMachine == nil {
				blocks = append(blocks, b)
				continue
			}
			for _, m := range order {
				part := *c
				part.ID = fmt.Sprintf("%s_m%d", c.ID, m+1)
				part.Title = c.Title + " on " + r.Runs[m].Name
				// The title names the machine: its lines need not.
				mine := slices.Clone(byMachine[m])
				for i := range mine {
					mine[i].Name = strings.TrimPrefix(mine[i].Name, r.Runs[m].Name+": ")
				}
				part.Series = append(slices.Clone(pub), mine...)
				blocks = append(blocks, &part)
			}
		}
		d.Sections[si].Blocks = blocks
	}
}

// named returns a series' or a table row's name for a run: the name alone
// when the report reads one run, else prefixed with the machine.
func named(r *runs.Set, ix *runs.Index, name string) string {
	if len(r.Runs) < 2 {
		return name
	}
	return ix.Name + ": " + name
}

// notRun says, in one line, how many points of the experiments were not
// run on each machine; the reasons are given once, in the summary.
func notRun(r *runs.Set, s *document.Section, exps ...string) {
	var parts []string
	for _, ix := range r.Runs {
		if n := len(ix.SkipsOf(exps...)); n > 0 {
			parts = append(parts, fmt.Sprintf("%d on %s", n, ix.Name))
		}
	}
	if len(parts) > 0 {
		s.P("Points not run (%s): What did not run says why.", strings.Join(parts, ", "))
	}
	earlierCode(r, s, exps...)
	sameElsewhere(r, s, exps...)
}

// earlierCode says in s which runs' points of exps were measured before
// their code last changed, so that a section's lines and rows of those
// machines are read as earlier code, as Key results marks them with †.
func earlierCode(r *runs.Set, s *document.Section, exps ...string) {
	var parts []string
	for _, ix := range r.Runs {
		var old []string
		for _, e := range exps {
			if r.IsOld(ix, e) {
				old = append(old, e)
			}
		}
		if len(old) > 0 {
			// The commits themselves, so that the note stands without
			// the table (left out on paper); a dirty tree said as such.
			var made []string
			for _, c := range r.OldCommits(ix, old...) {
				if runs.DirtyCommit(c) {
					c += ": uncommitted changes, which no commit holds"
				}
				made = append(made, c)
			}
			parts = append(parts, fmt.Sprintf("%s (%s, at %s)", ix.Name, strings.Join(old, ", "), strings.Join(made, ", ")))
			if allOld(r, ix, exps) {
				markEarlier(s, ix.Name)
			}
		}
	}
	if len(parts) > 0 {
		s.P("† Earlier code here: %s (What was read).", strings.Join(parts, "; "))
	}
}

// allOld reports whether every experiment of exps that run ix measured
// is older than its code, so that all of ix's rows and lines there are.
func allOld(r *runs.Set, ix *runs.Index, exps []string) bool {
	for _, e := range exps {
		if ix.Has(e) && !r.IsOld(ix, e) {
			return false
		}
	}
	return true
}

// earlier marks a row or a line of earlier code, as the note under it
// and Key results do.
const earlier = " †"

// markEarlier appends † to the name of each table row and chart line of
// s named for machine (named), and to the caption of each table of that
// machine alone (onName), as a run of earlier code.
func markEarlier(s *document.Section, machine string) {
	mark := func(name string) string {
		if strings.HasPrefix(name, machine+": ") && !strings.HasSuffix(name, earlier) {
			return name + earlier
		}
		return name
	}
	for _, b := range s.Blocks {
		switch b := b.(type) {
		case *document.Table:
			if strings.HasSuffix(b.Caption, " on "+machine) {
				b.Caption += earlier
			}
			for _, row := range b.Rows {
				if len(row) > 0 {
					row[0] = mark(row[0])
				}
			}
		case *document.Figure:
			for i := range b.Series {
				if !b.Series[i].Published {
					b.Series[i].Name = mark(b.Series[i].Name)
				}
			}
		}
	}
}

// speedup is base/that at the same case and lengths, min–max from that's
// spread.
func speedup(base, that runs.Stat) document.FigurePoint {
	return document.FigurePoint{Y: base.Med / that.Med, Lo: base.Med / that.Max, Hi: base.Med / that.Min}
}

// speedupPt is speedup of point k over point b of the same run, its range
// the 95% confidence interval of the ratio of medians (Index.SpeedupOf)
// where both points have the repetitions for one, else speedup's.
func speedupPt(ix *runs.Index, b, k runs.Key) document.FigurePoint {
	p := speedup(ix.Stats[b], ix.Stats[k])
	if q, ok := ix.SpeedupOf(b, k); ok && q.CIKnown {
		p.Lo, p.Hi, p.CI = q.Lo, q.Hi, true
	}
	return p
}

// speedupText is the speedup of k over b as a table writes it, with its
// 95% interval where known: "2.31× (95% CI 2.10–2.52)", and ", n.s." where the
// Mann–Whitney U test or the interval cannot tell the two samples apart.
func speedupText(ix *runs.Index, b, k runs.Key) string {
	q, ok := ix.SpeedupOf(b, k)
	if !ok {
		return document.Times(ix.Stats[b].Med / ix.Stats[k].Med)
	}
	t := document.Times(q.X)
	if q.CIKnown {
		t += fmt.Sprintf(" (95%% CI %s)", document.CI(q.Lo, q.Hi))
	}
	if !q.Significant {
		return t + ", n.s."
	}
	return t
}

// asFastText is the speedup of k over b as the text writes it: "0.698× as
// fast (95% CI 0.599–1.04, n.s.)", the interval where known, n.s. where
// the test or the interval cannot tell the two samples apart.
func asFastText(ix *runs.Index, b, k runs.Key) string {
	q, ok := ix.SpeedupOf(b, k)
	if !ok {
		return document.Times(ix.Stats[b].Med/ix.Stats[k].Med) + " as fast"
	}
	return ratioWords(q, " as fast")
}

// ratioWords writes ratio q, then what it is of, then its interval where
// known (named by its level) and n.s. where it is not significant:
// "0.698× as fast (95% CI 0.599–1.04, n.s.)".
func ratioWords(q runs.Ratio, of string) string {
	var in []string
	if q.CIKnown {
		level := "95%"
		if q.Level > 0 {
			level = strconv.FormatFloat(100*q.Level, 'f', 1, 64) + "% Bonferroni"
		}
		in = append(in, fmt.Sprintf("%s CI %s", level, document.CI(q.Lo, q.Hi)))
	}
	if !q.Significant {
		in = append(in, "n.s.")
	}
	t := document.Times(q.X) + of
	if len(in) > 0 {
		t += " (" + strings.Join(in, ", ") + ")"
	}
	return t
}

// speedupSeries: speedup of (alg, workers, any tile) over (baseAlg, 1) in
// exps, x chosen by xOf; only points where match holds.
func speedupSeries(ix *runs.Index, name string, exps []string, baseAlg, alg string, workers int, match func(runs.Key) bool, xOf func(runs.Key) float64) document.FigureSeries {
	s := document.FigureSeries{Name: name}
	for _, e := range exps {
		for _, k := range ix.Find(e, func(k runs.Key) bool {
			return k.Algorithm == alg && (workers < 0 || k.Workers == workers) && (match == nil || match(k))
		}) {
			b, ok := ix.GetKey(e, baseAlg, 1, 0, k.LenA, k.LenB)
			if !ok {
				continue
			}
			p := speedupPt(ix, b, k)
			p.X = xOf(k)
			s.Points = append(s.Points, p)
		}
	}
	sort.Slice(s.Points, func(i, j int) bool { return s.Points[i].X < s.Points[j].X })
	// The same x from two experiments: keep the first.
	s.Points = slices.CompactFunc(s.Points, func(a, b document.FigurePoint) bool { return a.X == b.X })
	return s
}

func lenX(k runs.Key) float64 { return float64(k.LenA) }

func pubMachine(pub []records.Published) string {
	if len(pub) == 0 {
		return "a machine not known here"
	}
	return pub[0].Machine
}

func uniqInts(ps []records.Published, f func(records.Published) int) []int {
	var out []int
	for _, p := range ps {
		if v := f(p); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}

func maxY(s document.FigureSeries) float64 {
	m := 0.0
	for _, p := range s.Points {
		m = max(m, p.Y)
	}
	return m
}

func orUnknown(s string) string {
	if s == "" {
		return "a machine not known here"
	}
	return s
}

// pubCores reads the core count from a report's machine description.
func pubCores(machine string) int {
	m := strings.ToLower(machine)
	switch {
	case strings.Contains(m, "quad core"), strings.Contains(m, "4-core"):
		return 4
	}
	return 0
}

func sortPts(ps []document.FigurePoint) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
}

// setting is an algorithm and its workers: a line of a chart, a row of a
// table.
type setting struct {
	alg     string
	workers int
}

// settingsOf returns the settings of ks, in their order, once each, and
// their first lengths sorted.
func settingsOf(ks []runs.Key) (settings []setting, lensA []int) {
	for _, k := range ks {
		if l := (setting{k.Algorithm, k.Workers}); !slices.Contains(settings, l) {
			settings = append(settings, l)
		}
		lensA = append(lensA, k.LenA)
	}
	return settings, runs.SortedInts(lensA)
}
