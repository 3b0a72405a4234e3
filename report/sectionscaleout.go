package report

import (
	"path/filepath"
	"slices"
	"strings"
)

// scaleOutFiles are the benchmark files of what levlab costs beyond one
// process (make bench-results' scaleout and scaleout-huge): shown in
// "Beyond the reports" (scaleOut), not as plain benchmark tables.
var scaleOutFiles = []string{"scaleout.txt", "scaleout-huge.txt"}

// scaleOut adds to s, for each machine read that has them, what
// BenchmarkScaleOut and BenchmarkScaleOutHuge measured: one pair over MPI
// ranks beside one process, shards beside one process, merge.
func scaleOut(r *rep, s *section) {
	var seen []string
	for _, ix := range r.runs {
		if slices.Contains(seen, ix.rd.run.Machine) {
			continue
		}
		seen = append(seen, ix.rd.run.Machine)
		on := onName(r, ix)
		if ix.scaleNamed {
			on = strings.TrimSuffix(on, ", "+ix.rd.run.Scale)
		}
		med := map[string]map[string]float64{} // by name, by unit: the median
		var files []string
		for _, f := range r.d.bench[ix.rd.run.Machine] {
			if !slices.Contains(scaleOutFiles, filepath.Base(f.Path)) {
				continue
			}
			files = append(files, filepath.Base(f.Path)+", commit "+f.Config["commit"])
			vals := map[string]map[string][]float64{}
			for _, res := range f.Results {
				if vals[res.Name] == nil {
					vals[res.Name] = map[string][]float64{}
				}
				for u, v := range res.Values {
					vals[res.Name][u] = append(vals[res.Name][u], v)
				}
			}
			for name, us := range vals {
				med[name] = map[string]float64{}
				for u, vs := range us {
					med[name][u] = median(vs)
				}
			}
		}
		if t := scaleOutTable(med); t != nil {
			t.caption = "Beyond one machine" + on + ": each run beside one process in the same benchmark, the commands end to end (" + strings.Join(files, "; ") + ")"
			s.add(t)
		}
	}
}

// scaleOutTable is the table of the medians med, by benchmark name and
// unit; nil without any.
func scaleOutTable(med map[string]map[string]float64) *table {
	t := &table{head: []string{"work", "one process", "beyond one", "beyond / one"}}
	const (
		one  = "ScaleOut/distance/n=1000000/run=one-process-2-workers"
		mpi  = "ScaleOut/distance/n=1000000/run=mpirun-2-ranks-1-worker"
		sh   = "ScaleOut/matrix/strings=20000/max=50/run=3-shards-summed"
		mg   = "ScaleOut/merge/lines=10001628"
		huge = "ScaleOutHuge/distance/n=10000000/run=mpirun-2-ranks-1-worker"
	)
	if a, b := med[one], med[mpi]; a != nil && b != nil {
		t.rows = append(t.rows,
			[]string{"distance, 1M × 1M random DNA, its computation", dur(a["compute-s"]) + "\n2 workers", dur(b["compute-s"]) + "\nmpirun, 2 ranks of 1 worker", times(b["compute-s"] / a["compute-s"])},
			[]string{"the same, the whole command", dur(a["ns/op"]/1e9) + "\n" + num(a["MB"]) + " MB", dur(b["ns/op"]/1e9) + "\n" + num(b["MB"]) + " MB the largest rank", times(b["ns/op"] / a["ns/op"])})
	}
	if m := med[sh]; m != nil && m["one-process-s"] > 0 {
		t.rows = append(t.rows, []string{"matrix --max 50, 20,000 strings of 100–1,000 bytes", dur(m["one-process-s"]), dur(m["ns/op"]/1e9) + "\n3 shards, one after another, summed", times(m["ns/op"] / 1e9 / m["one-process-s"])})
	}
	if m := med[mg]; m != nil {
		t.rows = append(t.rows, []string{"merge of 3 shards, 10,001,628 lines", "—", dur(m["ns/op"]/1e9) + "\n" + num(m["MB"]) + " MB", ""})
	}
	if m := med[huge]; m != nil {
		t.rows = append(t.rows, []string{"distance, 10M × 10M random DNA", "—", dur(m["compute-s"]) + " computing, " + dur(m["ns/op"]/1e9) + " in all\n" + num(m["MB"]) + " MB the largest rank; mpirun, 2 ranks of 1 worker", ""})
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}
