package runs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
)

// chooseRuns picks the runs of all to read as c asks — c.Measured first,
// then each other machine's preferred run, or those of c.Machines at
// c.Scale — and says why each other run is left out. A machine or scale
// that has no run is an error naming those there are.
func chooseRuns(c Choice, all []records.Run) (read []records.Run, ignored []string, err error) {
	var have []string
	for _, r := range all {
		have = append(have, r.String())
	}
	haveList := strings.Join(have, ", ")
	if haveList == "" {
		haveList = "none"
	}
	var measured *records.Run
	if c.Measured != "" {
		measured = &records.Run{Machine: filepath.Base(filepath.Dir(c.Measured)), Scale: filepath.Base(c.Measured), Dir: c.Measured}
		read = append(read, *measured)
	}
	for _, m := range c.Machines {
		if (measured == nil || m != measured.Machine) && !slices.ContainsFunc(all, func(r records.Run) bool { return r.Machine == m }) {
			return nil, nil, fmt.Errorf("report: machine %q: %w under %s; runs there: %s", m, ErrNoRun, c.Results, haveList)
		}
	}
	if c.Scale != "" && !slices.ContainsFunc(all, func(r records.Run) bool {
		return r.Scale == c.Scale && (len(c.Machines) == 0 || slices.Contains(c.Machines, r.Machine))
	}) {
		return nil, nil, fmt.Errorf("report: scale %q: %w under %s; runs there: %s", c.Scale, ErrNoRun, c.Results, haveList)
	}
	var candidates []records.Run
	for _, r := range all {
		switch {
		case measured != nil && sameDir(r.Dir, measured.Dir):
			continue
		case len(c.Machines) > 0 && !slices.Contains(c.Machines, r.Machine):
			ignored = append(ignored, r.String()+" (not among --machine "+strings.Join(c.Machines, ",")+")")
		case c.Scale != "" && r.Scale != c.Scale:
			ignored = append(ignored, r.String()+" (not at --scale "+c.Scale+")")
		case measured != nil && r.Machine == measured.Machine && c.Scale == "" && scaleRank(r.Scale) >= scaleRank(measured.Scale):
			// A run of the measured machine at a larger scale (the
			// committed paper run beside a quick one) is read too.
			ignored = append(ignored, r.String()+" (the same machine as "+measured.String()+", which is read)")
		default:
			candidates = append(candidates, r)
		}
	}
	if len(c.Only) > 0 && c.Scale == "" {
		// An experiment of one's own may be in any run of a machine:
		// every run is read, and Load keeps those that hold it.
		return append(read, candidates...), ignored, nil
	}
	pref := records.Preferred(candidates)
	for _, r := range candidates {
		if slices.Contains(pref, r) {
			read = append(read, r)
			continue
		}
		for _, p := range pref {
			if p.Machine == r.Machine {
				ignored = append(ignored, r.String()+" (the same machine at another scale; "+p.Scale+" is read: --scale "+r.Scale+" reads this one)")
			}
		}
	}
	for i := range read {
		read[i].Dir = filepath.ToSlash(read[i].Dir)
	}
	return read, ignored, nil
}

// scaleRank orders scales as records.Runs does: paper, quick, the rest.
func scaleRank(scale string) int {
	switch scale {
	case records.ScalePaper:
		return 0
	case records.ScaleQuick:
		return 1
	}
	return 2
}
