package report

import (
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// section004 is report 004, a blog post's claim that two rows of the
// matrix suffice: time and memory by length.
func section004(r *runs.Set) document.Section {
	s := document.Section{ID: SectionR004, Title: "Report 004 — two rows instead of the whole matrix (a blog post, 2012)", Source: records.Seed004}
	algs := []struct{ alg, name string }{{records.AlgFullMatrix, "full matrix"}, {records.AlgTwoRow, "two rows"}, {records.AlgMyers, "Myers (bit-parallel)"}}
	ct := &document.Figure{ID: "r004time", Title: "Time by string length", XName: "string length (characters)", YName: document.TimeAxis, XLog: true, YLog: true}
	cm := &document.Figure{ID: "r004mem", Title: "Memory allocated per call, by string length", XName: "string length (characters)", YName: "bytes allocated", XLog: true, YLog: true}
	why := "; its rows fit in cache, which we take to be why: no cache counter was read" // said once, the first run's
	for _, ix := range r.Runs {
		ks := ix.Find(records.ExpS004Memory, nil)
		if len(ks) == 0 {
			continue
		}
		var lens []int
		for _, k := range ks {
			lens = append(lens, k.LenA)
		}
		lens = runs.SortedInts(lens)
		// The two charts below draw every cell of it, and the sentence
		// after it says the claim: on paper the table is left out.
		t := &document.Table{Caption: "Time (median; spread below) and memory allocated per call" + onName(r, ix), Head: []string{""}, Folded: true}
		for _, n := range lens {
			t.Head = append(t.Head, document.Size(n))
		}
		for _, a := range algs {
			tr, mr := []string{a.name + ": time"}, []string{a.name + ": memory"}
			st, sm := document.FigureSeries{Name: named(r, ix, a.name)}, document.FigureSeries{Name: named(r, ix, a.name)}
			for _, n := range lens {
				v, ok := ix.Get(records.ExpS004Memory, a.alg, 1, 0, n, n)
				if !ok {
					tr, mr = append(tr, "—"), append(mr, "—")
					continue
				}
				tr, mr = append(tr, secs(v)), append(mr, document.BytesStr(v.Alloc))
				st.Points = append(st.Points, document.FigurePoint{X: float64(n), Y: v.Med, Lo: v.Min, Hi: v.Max})
				if v.Alloc > 0 { // a log axis has no 0
					sm.Points = append(sm.Points, document.FigurePoint{X: float64(n), Y: v.Alloc, Lo: v.Alloc, Hi: v.Alloc})
				}
			}
			t.Rows = append(t.Rows, tr, mr)
			ct.Series, cm.Series = append(ct.Series, st), append(cm.Series, sm)
		}
		s.Add(t)
		n := lens[len(lens)-1]
		fk, ok1 := ix.GetKey(records.ExpS004Memory, records.AlgFullMatrix, 1, 0, n, n)
		tk, ok2 := ix.GetKey(records.ExpS004Memory, records.AlgTwoRow, 1, 0, n, n)
		if ok1 && ok2 {
			fm, tw := ix.Stats[fk], ix.Stats[tk]
			s.P("At n = %s%s the full matrix allocated %s and took %s; two rows allocated %s and took %s (%s as fast%s%s).",
				document.Size(n), onName(r, ix), document.BytesStr(fm.Alloc), document.Dur(fm.Med), document.BytesStr(tw.Alloc), document.Dur(tw.Med), document.Times(fm.Med/tw.Med), ciOf(ix, fk, tk), why)
			why = ""
		}
	}
	if !r.Measured(records.ExpS004Memory) {
		s.P("Ours: not measured in the runs read (experiment s004-memory).")
		return s
	}
	s.Add(ct, cm)
	s.P("The post publishes no numbers: it argues that two rows of the matrix suffice, so there is nothing of its own to set beside ours; ours measure the claim.")
	notRun(r, &s, records.ExpS004Memory)
	return s
}
