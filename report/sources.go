package report

import (
	"strconv"
	"strings"
)

// sectionSources says what was read and what is missing.
func sectionSources(ix *index) section {
	s := section{id: "sources", title: "What this report read"}
	d := ix.d
	if len(d.folders) == 0 {
		s.p("Measured: none — no <machine>/<scale>/ folder of results was found, so every \"ours\" below is missing; run levlab run or levlab reproduce first.")
	} else {
		s.p("Measured results read from: %s (%d records).", strings.Join(d.folders, ", "), d.rows)
	}
	if len(d.leftOut) > 0 {
		s.p("Left out: %d of the %d records, named below; every median, table and chart uses the other %d.", len(d.leftOut), d.rows, len(d.records))
		t := &table{caption: "Records left out", head: []string{"where", "why"}}
		for _, p := range d.leftOut {
			t.rows = append(t.rows, []string{p.File + ":" + strconv.Itoa(p.Line), p.Why})
		}
		s.add(t)
	}
	for _, f := range d.ignored {
		s.p("Not read: %s.", f)
	}
	if d.noPublish != "" {
		s.p("Published: %s; the reports' columns below are missing.", d.noPublish)
	} else {
		s.p("Published numbers: %d, from results/published.", len(d.published))
	}
	for _, p := range d.problems {
		s.p("Could not use: %s", p)
	}
	if len(d.records) == 0 {
		s.p("Missing: no measured records at all.")
	}
	var absent []string
	for _, e := range knownExperiments {
		if !ix.has(e) && len(ix.skipsOf(e)) == 0 {
			absent = append(absent, e)
		}
	}
	if len(absent) > 0 {
		s.p("Missing experiments (no record, run or skipped): %s.", strings.Join(absent, ", "))
	}
	if len(ix.unknown) > 0 {
		s.p("Not recognised, so not drawn: %s.", strings.Join(ix.unknown, "; "))
	}
	return s
}
