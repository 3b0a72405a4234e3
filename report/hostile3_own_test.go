//go:build unix

package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/spec"
)

// TestOwnKeyedByCase: the records of a case the spec no longer asks for,
// or of an implementation it no longer has, are not drawn, and a sentence
// says so; with no kept spec, each case is drawn apart, named.
func TestOwnKeyedByCase(t *testing.T) {
	root := t.TempDir()
	recs := ownRecords("mine", ownPoint{"a", "random", 100, 1}, ownPoint{"a", "dna", 100, 2}, ownPoint{"old", "dna", 100, 3})
	ownRun(t, filepath.Join(root, "box", "quick"), "mine", recs, map[string]string{"mine.toml": specText("mine", "Mine", "dna", "a")})
	md, err := mdOf(Options{Results: root, Only: []string{"mine"}})
	if err != nil {
		t.Fatal(err)
	}
	tables := mdTables(md)
	if !strings.Contains(tables, "2.00 s") || strings.Contains(tables, "1.00 s") {
		t.Errorf("the tables do not show case dna's time (2.00 s) alone, the spec's case:\n%s", tables)
	}
	if strings.Contains(tables, "| old |") || strings.Contains(tables, "3.00 s") {
		t.Errorf("the tables show impl old, which the spec no longer has:\n%s", tables)
	}
	for _, w := range []string{"impl old", "no longer in the spec", "case random", "not drawn"} {
		if !strings.Contains(md, w) {
			t.Errorf("the report does not say %q of the records it does not draw:\n%s", w, md)
		}
	}

	// No kept spec: both cases, each in its row, named.
	os.Remove(filepath.Join(root, "box", "quick", "mine.toml"))
	md, err = mdOf(Options{Results: root, Only: []string{"mine"}})
	if err != nil {
		t.Fatal(err)
	}
	tables = mdTables(md)
	for _, w := range []string{"| case |", "| random |", "| dna |", "1.00 s", "2.00 s", "3.00 s"} {
		if !strings.Contains(tables, w) {
			t.Errorf("with no kept spec the tables do not show %q (each case apart):\n%s", w, tables)
		}
	}
}

// TestOwnGoFunctionDrawn: an implementation written in Go (a notebook's,
// experiments.FromSpec's funcs) is in no kept spec, yet its records are
// drawn: their made_by is what the spec gives an implementation of that
// name and no definition.
func TestOwnGoFunctionDrawn(t *testing.T) {
	root := t.TempDir()
	text := specText("mine", "Mine", "random", "a")
	sp, err := spec.Parse("mine.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	recs := ownRecords("mine", ownPoint{"a", "random", 100, 1}, ownPoint{"go-fn", "random", 100, 2})
	for i := range recs {
		if recs[i].Algorithm == "go-fn" {
			recs[i].MadeBy = sp.MadeBy(spec.Impl{Name: "go-fn"})
		}
	}
	ownRun(t, filepath.Join(root, "box", "quick"), "mine", recs, map[string]string{"mine.toml": text})
	md, err := mdOf(Options{Results: root, Only: []string{"mine"}})
	if err != nil {
		t.Fatal(err)
	}
	if tables := mdTables(md); !strings.Contains(tables, "| go-fn |") || !strings.Contains(tables, "2.00 s") || strings.Contains(md, "not drawn") {
		t.Errorf("the Go function's points are not drawn:\n%s", md)
	}
}
