package report

import (
	"fmt"
	"sort"
	"strconv"
)

// sectionGPU shows the gpu-fast experiment: cuda-fast at report 000's
// Table 2 sizes and 1M beside cuda-diagonal and the CPU's best run.
func sectionGPU(ix *index) section {
	s := section{id: "gpu", title: "GPU: cuda-fast beside report 000's kernel and the best CPU run"}
	s.p("cuda-fast is one persistent launch of bit-parallel Myers/Hyyrö in the lanes of warps (32 rows per lane, carries passed by shuffles, bands handing column chunks down through progress counters); cuda-diagonal is report 000's one launch per antidiagonal; myers-parallel on every core is the CPU's best.")
	ks := ix.find("gpu-fast", nil)
	sk := ix.skipsOf("gpu-fast")
	if len(ks) == 0 && len(sk) == 0 {
		missing(&s, "our points of the gpu-fast experiment")
		return s
	}
	type row struct {
		alg     string
		workers int
	}
	cells := map[row]map[int]stat{}
	var rows []row
	sizes := map[int]bool{}
	c := &chart{id: "gputime", title: "Time vs size (log–log)", xName: "string length (characters)", yName: "time (s)", xLog: true, yLog: true}
	bySeries := map[row]*series{}
	for _, k := range ks {
		r := row{k.Algorithm, k.Workers}
		if cells[r] == nil {
			cells[r] = map[int]stat{}
			rows = append(rows, r)
			name := k.Algorithm
			if k.Workers > 0 {
				name = fmt.Sprintf("%s, %d workers", k.Algorithm, k.Workers)
			}
			bySeries[r] = &series{name: "ours, " + name}
		}
		st := ix.stats[k]
		cells[r][k.LenA] = st
		sizes[k.LenA] = true
		bySeries[r].pts = append(bySeries[r].pts, pt{x: float64(k.LenA), y: st.med, lo: st.min, hi: st.max})
	}
	var ns []int
	for n := range sizes {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	t := &table{caption: "gpu-fast: median seconds [min–max] and GCUPS", head: []string{"algorithm", "workers"}}
	for _, n := range ns {
		t.head = append(t.head, fmt.Sprintf("n=%d s", n), fmt.Sprintf("n=%d GCUPS", n))
	}
	for _, r := range rows {
		line := []string{r.alg, strconv.Itoa(r.workers)}
		for _, n := range ns {
			if st, ok := cells[r][n]; ok {
				line = append(line, secs(st), num(st.gcups))
			} else {
				line = append(line, "–", "–")
			}
		}
		t.rows = append(t.rows, line)
		sr := bySeries[r]
		sort.Slice(sr.pts, func(i, j int) bool { return sr.pts[i].x < sr.pts[j].x })
		c.series = append(c.series, *sr)
	}
	if len(rows) > 0 {
		s.add(t, c)
	}
	if len(sk) > 0 {
		s.p("Where ours differ and why: %d GPU points were not run here (%s); the CPU side is shown alone.", len(sk), sk[0].note)
		s.add(skipTable("Points not run here", sk))
	}
	return s
}
