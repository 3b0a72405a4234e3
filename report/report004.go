package report

import (
	"sort"
	"strconv"
)

func section004(ix *index) section {
	s := section{id: "r004", title: "Report 004 (" + src004 + "): two rows instead of the whole matrix"}
	algs := []string{"fullmatrix", "tworow", "myers"}
	ks := ix.find("s004-memory", nil)
	if len(ks) == 0 {
		missing(&s, "our points of s004-memory")
		return s
	}
	lens := map[int]bool{}
	for _, k := range ks {
		lens[k.LenA] = true
	}
	var ls []int
	for n := range lens {
		ls = append(ls, n)
	}
	sort.Ints(ls)
	t := &table{caption: "Time (s, median [min–max]) and memory allocated per call", head: []string{"length"}}
	for _, a := range algs {
		t.head = append(t.head, a+" time", a+" memory")
	}
	ct := &chart{id: "r004time", title: "Time vs length", xName: "string length (characters)", yName: "time (s)", xLog: true, yLog: true}
	cm := &chart{id: "r004mem", title: "Memory vs length", xName: "string length (characters)", yName: "bytes allocated", xLog: true, yLog: true}
	for _, a := range algs {
		st, sm := series{name: a}, series{name: a}
		for _, k := range ks {
			if k.Algorithm == a {
				v := ix.stats[k]
				st.pts = append(st.pts, pt{x: float64(k.LenA), y: v.med, lo: v.min, hi: v.max})
				sm.pts = append(sm.pts, pt{x: float64(k.LenA), y: v.alloc, lo: v.alloc, hi: v.alloc})
			}
		}
		ct.series, cm.series = append(ct.series, st), append(cm.series, sm)
	}
	for _, n := range ls {
		row := []string{strconv.Itoa(n)}
		for _, a := range algs {
			tc, mc := "missing", "missing"
			if v, ok := ix.get("s004-memory", a, 1, 0, n, n); ok {
				tc, mc = secs(v), bytesStr(v.alloc)
			}
			row = append(row, tc, mc)
		}
		t.rows = append(t.rows, row)
	}
	s.add(t, ct, cm)
	s.p("The post publishes no numbers: it argues that two rows of the matrix suffice, so there is nothing of its own to set beside ours; ours measure the claim.")
	n := ls[len(ls)-1]
	fm, ok1 := ix.get("s004-memory", "fullmatrix", 1, 0, n, n)
	tr, ok2 := ix.get("s004-memory", "tworow", 1, 0, n, n)
	if ok1 && ok2 {
		s.p("At n=%d the full matrix allocated %s and took %s s; two rows allocated %s and took %s s (%s× faster, its rows stay in cache).",
			n, bytesStr(fm.alloc), num(fm.med), bytesStr(tr.alloc), num(tr.med), num(fm.med/tr.med))
	}
	if sk := ix.skipsOf("s004-memory"); len(sk) > 0 {
		s.add(skipTable("Points not run here", sk))
	}
	return s
}
