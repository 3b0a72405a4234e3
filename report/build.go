package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

func sortFloats(xs []float64) { sort.Float64s(xs) }

// Report files of the published numbers.
const (
	src000 = "000_f95d38889c436586.txt"
	src001 = "001_8b686fade13c5d8b.txt"
	src002 = "002_3ec02276a69ac2d5.txt"
	src003 = "003_422d252da101b2d8.txt"
	src004 = "004_d35d496d9e84808f.txt"
)

func build(d *data) *doc {
	ix := aggregate(d)
	doc := &doc{title: "levlab: the course reports beside our measurements"}
	doc.sections = append(doc.sections,
		sectionSources(ix),
		section000(ix), section001(ix), section002(ix), section003(ix), section004(ix),
		sectionBeyond(ix), sectionGPU(ix), sectionMethod(ix))
	return doc
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

func (ix *index) cores() int { return ix.machine().cores }

// skipTable lists skipped points grouped by experiment, algorithm and
// note: how many, and the lengths and block sizes they span.
func skipTable(caption string, sk []skip) *table {
	t := &table{caption: caption, head: []string{"experiment", "algorithm", "cases", "points", "lengths", "blocks", "not run here"}}
	type group struct {
		exp, alg, note string
		cases          []string
		n              int
		lens, blocks   []int
	}
	var groups []*group
	for _, s := range sk {
		var g *group
		for _, h := range groups {
			if h.exp == s.k.Experiment && h.alg == s.k.Algorithm && h.note == s.note {
				g = h
			}
		}
		if g == nil {
			g = &group{exp: s.k.Experiment, alg: s.k.Algorithm, note: s.note}
			groups = append(groups, g)
		}
		g.n++
		if !slices.Contains(g.cases, s.k.Case) {
			g.cases = append(g.cases, s.k.Case)
		}
		if !slices.Contains(g.lens, s.k.LenA) {
			g.lens = append(g.lens, s.k.LenA)
		}
		if !slices.Contains(g.blocks, s.k.Block) {
			g.blocks = append(g.blocks, s.k.Block)
		}
	}
	ints := func(xs []int) string {
		sort.Ints(xs)
		var p []string
		for _, x := range xs {
			p = append(p, strconv.Itoa(x))
		}
		return strings.Join(p, ", ")
	}
	for _, g := range groups {
		sort.Strings(g.cases)
		t.rows = append(t.rows, []string{g.exp, g.alg, strings.Join(g.cases, ", "), strconv.Itoa(g.n), ints(g.lens), ints(g.blocks), g.note})
	}
	return t
}

func missing(s *section, what string) { s.p("Missing: %s.", what) }

// speedup is base/that at the same case and lengths, min–max from that's
// spread.
func speedup(base, that stat) pt {
	return pt{y: base.med / that.med, lo: base.med / that.max, hi: base.med / that.min}
}

// speedupSeries: speedup of (alg, workers, any tile) over (baseAlg, 1) in
// exps, x chosen by xOf; only points where match holds.
func (ix *index) speedupSeries(name string, exps []string, baseAlg, alg string, workers int, match func(key) bool, xOf func(key) float64) series {
	s := series{name: name}
	for _, e := range exps {
		for _, k := range ix.find(e, func(k key) bool {
			return k.Algorithm == alg && (workers < 0 || k.Workers == workers) && (match == nil || match(k))
		}) {
			b, ok := ix.get(e, baseAlg, 1, 0, k.LenA, k.LenB)
			if !ok {
				continue
			}
			p := speedup(b, ix.stats[k])
			p.x = xOf(k)
			s.pts = append(s.pts, p)
		}
	}
	sort.Slice(s.pts, func(i, j int) bool { return s.pts[i].x < s.pts[j].x })
	// The same x from two experiments: keep the first.
	s.pts = slices.CompactFunc(s.pts, func(a, b pt) bool { return a.x == b.x })
	return s
}

func lenX(k key) float64 { return float64(k.LenA) }

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

func maxY(s series) float64 {
	m := 0.0
	for _, p := range s.pts {
		m = max(m, p.y)
	}
	return m
}

func orUnknown(s string) string {
	if s == "" {
		return "a machine not known here"
	}
	return s
}
