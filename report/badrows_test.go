package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/runs"
)

// copyFixture copies the fixture's published numbers and its paper folder
// (not the quick one) into a new results folder, and returns it.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "results") // one name, however many copies
	for _, sub := range []string{"published", filepath.Join("testbox-2c", "paper")} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		files, err := os.ReadDir(filepath.Join(fixture, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(fixture, sub, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, sub, f.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// table1Lines returns the path of the copied fixture's s000-table1.csv in
// dir and its lines, the header first.
func table1Lines(t *testing.T, dir string) (string, []string) {
	t.Helper()
	path := filepath.Join(dir, "testbox-2c", "paper", "s000-table1.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// withField returns the CSV line with field i (from 0) set to v; the
// fixture's lines quote nothing.
func withField(line string, i int, v string) string {
	f := strings.Split(line, ",")
	f[i] = v
	return strings.Join(f, ",")
}

// Columns of a records line, by index.
const (
	colRep     = 14
	colSeconds = 17
	colAlloc   = 18
	colGCUPS   = 20
)

// TestBadRowsLeftOut: rows whose times are NaN, infinite or negative, rows
// with a value that does not parse (1e309, a rep of 1.5), and a row that
// repeats the point and rep of an earlier one, are named by
// file:line in the part of the report about what it read, and every
// table and chart is as it is without them.
func TestBadRowsLeftOut(t *testing.T) {
	clean := copyFixture(t)
	dirty := copyFixture(t)
	path, lines := table1Lines(t, dirty)
	first := lines[1] // fullmatrix at 10000, rep 1: 0.3 s
	// Each bad row would move a median, a min or a max, or the most reps
	// the method section counts, if it were used.
	bad := []struct{ line, why string }{
		{withField(withField(first, colRep, "4"), colSeconds, "NaN"), "seconds NaN"},
		{withField(withField(first, colRep, "5"), colSeconds, "+Inf"), "seconds +Inf"},
		{withField(withField(first, colRep, "6"), colSeconds, "-Inf"), "seconds -Inf"},
		{withField(withField(first, colRep, "7"), colSeconds, "-1"), "seconds -1"},
		{withField(withField(first, colRep, "8"), colAlloc, "NaN"), "alloc_seconds NaN"},
		{withField(withField(first, colRep, "9"), colGCUPS, "Inf"), "gcups +Inf"},
		{withField(withField(first, colRep, "10"), colSeconds, "1e309"), "1e309 is out of range"},
		{withField(first, colRep, "one"), "one is not a number"},
		{withField(first, colSeconds, "100"), "rep 1 of this point again (first at line 2)"},
	}
	var add []string
	for _, r := range bad {
		add = append(add, r.line)
	}
	if err := os.WriteFile(path, []byte(strings.Join(append(lines, add...), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{FormatMarkdown, FormatHTML} {
		got := strings.ReplaceAll(render(t, Options{Results: dirty, Format: format}), dirty, "RESULTS")
		want := strings.ReplaceAll(render(t, Options{Results: clean, Format: format}), clean, "RESULTS")
		// The first section says what was read; every other is as with
		// the clean rows alone.
		cut := "\n## Report 000"
		if format == FormatHTML {
			cut = "<section id=\"r000\">"
		}
		// The table of rows left out comes before: the numbers of the
		// tables after it are one higher.
		gotRead, gotRest, _ := strings.Cut(got, cut)
		_, wantRest, _ := strings.Cut(want, cut)
		unnumbered := regexp.MustCompile(`\*\*(Table|Figure) \d+\. `)
		gotRest, wantRest = unnumbered.ReplaceAllString(gotRest, "**"), unnumbered.ReplaceAllString(wantRest, "**")
		if gotRest != wantRest {
			t.Errorf("%s: the report past what it read differs from the clean rows' report:\n%s", format, firstDiff(gotRest, wantRest))
		}
		for i, r := range bad {
			where := "RESULTS/testbox-2c/paper/s000-table1.csv:" + strconv.Itoa(len(lines)+1+i)
			if !strings.Contains(gotRead, where) || !strings.Contains(gotRead, r.why) {
				t.Errorf("%s: what the report read does not name %s (%s):\n%s", format, where, r.why, gotRead[max(0, strings.Index(gotRead, "What this report read")):])
			}
		}
	}
}

// firstDiff shows where a and b first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return "got:  …" + a[lo:min(len(a), i+200)] + "\nwant: …" + b[lo:min(len(b), i+200)]
}

// TestManyLeftOutCounted: a run with more records left out than the report
// lists names the first runs.ListedLeftOut and counts the others.
func TestManyLeftOutCounted(t *testing.T) {
	dir := copyFixture(t)
	path, lines := table1Lines(t, dir)
	extra := runs.ListedLeftOut + 1234
	for range extra {
		lines = append(lines, lines[1]) // rep 1 of the first point again
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := render(t, Options{Results: dir, Format: FormatMarkdown})
	for _, want := range []string{
		"records, the first 100 named below;",
		"and 1,234 more",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	if n := strings.Count(got, "rep 1 of this point again"); n != runs.ListedLeftOut {
		t.Errorf("%d records left out named, want %d", n, runs.ListedLeftOut)
	}
}

// TestBrokenFileUnused: a file with a row that does not parse as CSV of
// the schema (a field short) past its first few thousand rows is named,
// and none of its rows is used — not the ones before the bad row, and they
// do not count as the first of their point either. (A value that does not
// parse in a whole row is a bad row alone: TestBadRowsLeftOut.)
func TestBrokenFileUnused(t *testing.T) {
	clean := copyFixture(t)
	dirty := copyFixture(t)
	_, lines := table1Lines(t, dirty)
	// A file read before s000-table1.csv: its first row is the clean
	// file's, then thousands of another experiment's, then a bad value.
	broken := []string{lines[0], lines[1]}
	for i := range 3000 {
		broken = append(broken, withField(withField(lines[1], 0, "zz-unknown"), colRep, strconv.Itoa(i+1)))
	}
	broken = append(broken, lines[1][:strings.LastIndexByte(lines[1], ',')])
	if err := os.WriteFile(filepath.Join(dirty, "testbox-2c", "paper", "a-broken.csv"), []byte(strings.Join(broken, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(render(t, Options{Results: dirty, Format: FormatMarkdown}), dirty, "RESULTS")
	want := strings.ReplaceAll(render(t, Options{Results: clean, Format: FormatMarkdown}), clean, "RESULTS")
	if !strings.Contains(got, "a-broken.csv:3003") {
		t.Errorf("the broken file's line is not named:\n%s", got[:min(len(got), 3000)])
	}
	if strings.Contains(got, "zz-unknown") || strings.Contains(got, "of this point again") {
		t.Errorf("rows of the broken file were used")
	}
	_, gotRest, _ := strings.Cut(got, "\n## Report 000")
	_, wantRest, _ := strings.Cut(want, "\n## Report 000")
	if gotRest != wantRest {
		t.Errorf("the report past what it read differs from the clean rows' report:\n%s", firstDiff(gotRest, wantRest))
	}
}
