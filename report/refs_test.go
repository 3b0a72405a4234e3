package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
)

// Every tool, paper and report the committed report names has a row in its
// references, every term of its jargon a row in its terms, and neither
// lists what the rest of the report never names.
func TestReferencesCoverNames(t *testing.T) {
	_, d, _ := committedDoc(t)
	last := d.Sections[len(d.Sections)-1]
	if last.ID != "refs" {
		t.Fatalf("the last section is %q, want the terms and references", last.ID)
	}
	rest := &document.Doc{Sections: d.Sections[:len(d.Sections)-1]}
	body, shown := docText(rest, true), docText(rest, false)
	rows, termBody := map[string]bool{}, body
	inPrint := map[string]bool{} // the terms of the table paper shows
	for _, b := range last.Blocks {
		tb := b.(*document.Table)
		for _, row := range tb.Rows {
			rows[row[0]] = true
			inPrint[row[0]] = inPrint[row[0]] || !tb.Folded
			if strings.HasPrefix(tb.Caption, "Terms") {
				body += "\n" + row[1] // a term's text names references too
			}
		}
	}
	// A term is in print exactly where the text in print names it.
	for _, tm := range terms {
		named := slices.ContainsFunc(tm.keys, func(k string) bool { return strings.Contains(shown, k) })
		if rows[tm.name] && named != inPrint[tm.name] {
			t.Errorf("%s: named in print %v, defined in print %v", tm.name, named, inPrint[tm.name])
		}
	}
	for li, list := range [][]term{terms, refs} {
		in := termBody // terms by the body alone, references by the terms' texts too
		if li == 1 {
			in = body
		}
		for _, tm := range list {
			named := false
			for _, k := range tm.keys {
				named = named || strings.Contains(in, k)
			}
			if named != rows[tm.name] {
				t.Errorf("%s: named in the report %v, listed at its end %v", tm.name, named, rows[tm.name])
			}
		}
	}
	for _, want := range []string{"edlib", "Myers 1999", "Hyyrö 2003", "Ukkonen 1985", "A*PA2", "Sassy2", "agnivade", "ka-weihe", "Report 000", "Report 004",
		"Gbp/s", "strip", "lane", "paper scale", "first40", "shadow bytes", "band, Ukkonen band", "Go", "SAM", "wamerican"} {
		if !rows[want] {
			t.Errorf("%s: not in the terms and references", want)
		}
	}
	for _, lib := range []string{"agnivade", "ka-weihe"} {
		for _, tm := range refs {
			if tm.name == lib && !strings.Contains(tm.text, "a Go library") {
				t.Errorf("%s is not said to be a Go library", lib)
			}
		}
	}
}

// A paper cited from a journal or a preprint server names where it can be
// found: its DOI, or for the reports the file it is read from.
func TestReferencesFindable(t *testing.T) {
	for _, name := range []string{"edlib", "Sassy2"} {
		i := slices.IndexFunc(refs, func(tm term) bool { return tm.name == name })
		if i < 0 || !strings.Contains(refs[i].text, "doi:10.") {
			t.Errorf("%s: no DOI in its reference", name)
		}
	}
}
