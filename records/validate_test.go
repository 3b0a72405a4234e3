package records

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"
)

// writeCSV writes recs as a records file, header first, as gocsv writes
// them: NaN as "NaN", infinities as "+Inf" and "-Inf".
func writeCSV(t *testing.T, path string, recs []Record) {
	t.Helper()
	b, err := gocsv.MarshalBytes(recs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func okRow(alg string, rep int, seconds float64) Record {
	return Record{Experiment: "s000-table1", Scale: "quick", Algorithm: alg, Workers: 1, Case: "random",
		LenA: 100, LenB: 100, Rep: rep, Status: StatusOK, Seconds: seconds, GCUPS: 1}
}

// ReadRows gives each record the line its row starts on, past a note that
// spans lines, and reads NaN and infinities as gocsv writes them and as a
// person might ("Inf").
func TestReadRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	multi := okRow("tworow", 1, 0.5)
	multi.Note = "two\nlines"
	writeCSV(t, path, []Record{okRow("tworow", 2, math.NaN()), multi, okRow("tworow", 3, math.Inf(-1)), okRow("tworow", 4, 1)})
	b := readFile(t, path)
	b = []byte(strings.Replace(string(b), ",1,0,0,0,1,", ",Inf,0,0,0,1,", 1)) // the last row's seconds, as a person writes it
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadRows(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, r := range rows {
		lines = append(lines, r.Line)
		if r.File != path {
			t.Errorf("File %q; want %q", r.File, path)
		}
	}
	if want := []int{2, 3, 5, 6}; !slices.Equal(lines, want) {
		t.Errorf("lines %v; want %v", lines, want)
	}
	if len(rows) == 4 && (!math.IsNaN(rows[0].Seconds) || !math.IsInf(rows[2].Seconds, -1) || !math.IsInf(rows[3].Seconds, 1)) {
		t.Errorf("seconds %v, %v, %v; want NaN, -Inf, +Inf", rows[0].Seconds, rows[2].Seconds, rows[3].Seconds)
	}
	recs, err := ReadRecords(path)
	if err != nil || len(recs) != len(rows) {
		t.Errorf("ReadRecords: %d records, %v; want the %d ReadRows read", len(recs), err, len(rows))
	}
}

// Validate leaves out, by file:line, the rows whose times are not finite
// non-negative numbers, that repeat a point and rep (in the same file or
// another), or whose status or gpu_ratio makes no sense; it keeps the
// first of a repeated rep and every skipped row.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	allocNaN := okRow("tworow", 6, 0.2)
	allocNaN.AllocSeconds = math.NaN()
	gcupsInf := okRow("tworow", 7, 0.2)
	gcupsInf.GCUPS = math.Inf(1)
	ratioNaN := okRow("tworow", 8, 0.2)
	ratioNaN.GPURatio = math.NaN()
	odd := okRow("tworow", 9, 0.2)
	odd.Status = "okay"
	skipped := Record{Experiment: "s000-table2", Algorithm: "cuda-diagonal", Status: StatusSkipped, Note: "no GPU", Seconds: math.NaN()}
	otherWorkers := okRow("tiled", 1, 0.3)
	otherWorkers.Workers = 2 // another point, rep 1 again: not a repeat
	writeCSV(t, a, []Record{
		okRow("tworow", 1, 0.1),              // line 2: kept
		okRow("tworow", 2, math.NaN()),       // 3
		okRow("tworow", 3, math.Inf(1)),      // 4
		okRow("tworow", 4, math.Inf(-1)),     // 5
		okRow("tworow", 5, -1),               // 6
		allocNaN,                             // 7
		gcupsInf,                             // 8
		okRow("tworow", 1, 9),                // 9: rep 1 again
		skipped,                              // 10: kept, whatever its seconds
		okRow("tiled", 1, 0.2), otherWorkers, // 11, 12: kept
		ratioNaN, // 13
		odd,      // 14
	})
	writeCSV(t, b, []Record{okRow("tworow", 2, 0.15), okRow("tiled", 1, 0.25)}) // line 2: kept (a's rep 2 was left out); line 3: repeats a.csv:11
	var rows []Row
	for _, p := range []string{a, b} {
		r, err := ReadRows(p)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	use, problems := Validate(rows)
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		a + ":3: seconds NaN: not a finite, non-negative measurement",
		a + ":4: seconds +Inf: not a finite, non-negative measurement",
		a + ":5: seconds -Inf: not a finite, non-negative measurement",
		a + ":6: seconds -1: not a finite, non-negative measurement",
		a + ":7: alloc_seconds NaN: not a finite, non-negative measurement",
		a + ":8: gcups +Inf: not a finite, non-negative measurement",
		a + ":9: rep 1 of this point again (first at line 2)",
		a + `:13: gpu_ratio NaN: not a finite share`,
		a + `:14: status "okay": want "ok", "skipped" or "failed"`,
		b + ":3: rep 1 of this point again (first at " + a + ":11)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var kept []string
	for _, r := range use {
		kept = append(kept, filepath.Base(r.File)+":"+strconv.Itoa(r.Line))
	}
	if w := []string{"a.csv:2", "a.csv:10", "a.csv:11", "a.csv:12", "b.csv:2"}; !slices.Equal(kept, w) {
		t.Errorf("kept %v; want %v", kept, w)
	}
}
