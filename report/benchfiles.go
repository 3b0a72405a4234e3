package report

import (
	"fmt"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// The benchmark files (make bench-results) as the sections quote them:
// their medians and ranges over runs, which files, which machines.

// benchFilesNamed is the files of files whose base names are in names.
func benchFilesNamed(files []records.BenchFile, names []string) []records.BenchFile {
	var out []records.BenchFile
	for _, f := range files {
		if slices.Contains(names, filepath.Base(f.Path)) {
			out = append(out, f)
		}
	}
	return out
}

// benchMedians returns the medians of the results of files whose base
// names are in names, by benchmark name and unit, and with each unit
// followed by rangeMin and rangeMax its runs' least and most, by runsOf
// their count.
func benchMedians(files []records.BenchFile, names []string) map[string]map[string]float64 {
	med := map[string]map[string]float64{}
	for _, f := range files {
		if !slices.Contains(names, filepath.Base(f.Path)) {
			continue
		}
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
				med[name][u] = runs.Median(vs)
				// The runs' range beside the median, for a ratio's.
				med[name][u+rangeMin], med[name][u+rangeMax] = slices.Min(vs), slices.Max(vs)
				med[name][u+runsOf] = float64(len(vs))
			}
		}
	}
	return med
}

// runsRange is the range of the ratio of a's unit ua over b's unit ub
// over their runs, the least of one over the most of the other and back,
// as a text writes it after the ratio: "; 1.8–2.2× over the runs", with
// ", indistinguishable from 1×" where it holds 1. "" where a run's range is
// not known (one run, or a map without ranges).
func runsRange(a map[string]float64, ua string, b map[string]float64, ub string) string {
	a0, a1, b0, b1 := a[ua+rangeMin], a[ua+rangeMax], b[ub+rangeMin], b[ub+rangeMax]
	if a0 <= 0 || b0 <= 0 || (a0 == a1 && b0 == b1) {
		return ""
	}
	lo, hi := a0/b1, a1/b0
	s := fmt.Sprintf("; %s–%s× over the runs", document.Num(lo), document.Num(hi))
	if lo <= 1 && hi >= 1 {
		s += ", indistinguishable from 1×"
	}
	return s
}

// benchMachines yields each machine read once, with its name as a table
// caption's " on …": a machine folder's benchmarks are its own, not one
// run's, so they are named without a scale (and shown with their commit).
func benchMachines(r *runs.Set) iter.Seq2[string, string] {
	return func(yield func(machine, on string) bool) {
		var seen []string
		for _, ix := range r.Runs {
			if slices.Contains(seen, ix.Run.Machine) {
				continue
			}
			seen = append(seen, ix.Run.Machine)
			on := onName(r, ix)
			if ix.ScaleNamed {
				on = strings.TrimSuffix(on, ", "+ix.Run.Scale)
			}
			if !yield(ix.Run.Machine, on) {
				return
			}
		}
	}
}

// residentText writes a benchmark's "MB" metric, a command's peak
// resident memory: getrusage's KiB over 1024, so MiB, whatever go test's
// unit name says ("15.7 MiB").
func residentText(v float64) string { return document.Num(v) + " MiB" }
