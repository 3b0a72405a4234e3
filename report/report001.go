package report

import (
	"fmt"

	"github.com/levlab/levlab/records"
)

func section001(ix *index) section {
	s := section{id: "r001", title: "Report 001 (" + src001 + "): OpenMP and C++ threads, diagonals and tiles"}
	bound := 0.0
	var pubM string
	for _, p := range ix.pub(func(p records.Published) bool { return p.Source == src001 && p.Metric == "speedup_min" }) {
		bound, pubM = max(bound, p.Value), p.Machine
	}
	mark := func(c *chart) {
		if bound > 0 {
			c.markY, c.markName = bound, fmt.Sprintf("stated: at least %s×", pubNum(bound))
		}
	}
	c := &chart{id: "r001len", title: "Figures 4–5: speedup vs string length (tiled, over fullmatrix)", xName: "string length (characters)", yName: "speedup (×)", xLog: true}
	c.series = []series{
		ix.speedupSeries("ours, tiled (OpenMP-like)", []string{"s001-length"}, "fullmatrix", "tiled", -1, nil, lenX),
		ix.speedupSeries("ours, tiled-barrier (C++ threads)", []string{"s001-length"}, "fullmatrix", "tiled-barrier", -1, nil, lenX),
	}
	mark(c)
	s.add(c)
	if bound == 0 {
		missing(&s, "the published bound of report 001 (results/published)")
	}
	cores := ix.cores()
	if len(c.series[0].pts) == 0 {
		missing(&s, "our points of s001-length")
	} else {
		s.p("Where ours differ and why: the report states at least %s× on %s for lengths around 10000 and tiles of 128 to 1024; our best is %s× (tiled) and %s× (tiled-barrier) on %d cores, where parallelism alone gives at most %d×; beyond that our baseline, the full matrix, loses to the tiled versions' smaller working set.",
			pubNum(bound), orUnknown(pubM), num(maxY(c.series[0])), num(maxY(c.series[1])), cores, cores)
	}
	ct := &chart{id: "r001tile", title: "Figure 6: speedup vs tile size (over fullmatrix)", xName: "tile size (cells per side)", yName: "speedup (×)", xLog: true}
	tileX := func(k key) float64 { return float64(k.Tile) }
	pos := func(k key) bool { return k.Tile > 0 }
	ct.series = []series{
		ix.speedupSeries("ours, tiled", []string{"s001-tile"}, "fullmatrix", "tiled", -1, pos, tileX),
		ix.speedupSeries("ours, tiled-barrier", []string{"s001-tile"}, "fullmatrix", "tiled-barrier", -1, pos, tileX),
	}
	mark(ct)
	s.add(ct)
	cw := &chart{id: "r001threads", title: "Figure 7: speedup vs threads (over fullmatrix)", xName: "workers (threads)", yName: "speedup (×)"}
	wX := func(k key) float64 { return float64(k.Workers) }
	cw.series = []series{
		ix.speedupSeries("ours, tiled", []string{"s001-threads"}, "fullmatrix", "tiled", -1, nil, wX),
		ix.speedupSeries("ours, tiled-barrier", []string{"s001-threads"}, "fullmatrix", "tiled-barrier", -1, nil, wX),
	}
	mark(cw)
	s.add(cw)
	if len(cw.series[0].pts) > 0 {
		s.p("Beyond %d workers our threads share %d cores, so Figure 7 flattens there rather than at the report's core count.", cores, cores)
	}
	cr := &chart{id: "r001ratio", title: "Section 4: speedup vs length ratio (over tworow)", xName: "length ratio len_a/len_b", yName: "speedup (×)", xLog: true}
	ratioX := func(k key) float64 { return float64(k.LenA) / float64(k.LenB) }
	cr.series = []series{
		ix.speedupSeries("ours, diagonal", []string{"s001-ratio"}, "tworow", "diagonal", -1, nil, ratioX),
		ix.speedupSeries("ours, tiled", []string{"s001-ratio"}, "tworow", "tiled", -1, nil, ratioX),
	}
	s.add(cr)
	cd := &chart{id: "r001diag", title: "Sections 3–4: the diagonal approach, speedup vs size (over tworow)", xName: "string length (characters)", yName: "speedup (×)", xLog: true}
	for _, a := range []string{"diagonal", "tiled", "tiled-barrier"} {
		for _, w := range []int{1, 2} {
			cd.series = append(cd.series, ix.speedupSeries(fmt.Sprintf("ours, %s, %d workers", a, w), []string{"s001-diagonal"}, "tworow", a, w, nil, lenX))
		}
	}
	s.add(cd)
	s.p("The report gives Figures 4–7 as plots without printed values; only its stated bound is drawn beside ours (the horizontal line).")
	if sk := ix.skipsOf("s001-length", "s001-tile", "s001-threads", "s001-ratio", "s001-diagonal"); len(sk) > 0 {
		s.add(skipTable("Points not run here", sk))
	}
	return s
}
