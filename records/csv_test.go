package records

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeRecords(t *testing.T, path string, recs ...Record) {
	t.Helper()
	a, err := OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := a.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRecordsRoundTrip writes awkward values — floats that need all 17
// digits, extremes, text with commas, quotes and newlines — and reads them
// back unchanged.
func TestRecordsRoundTrip(t *testing.T) {
	floats := []float64{1.0 / 3 * 1e-5, 0.1 + 0.2, 1e-9, 5e-324, math.MaxFloat64, 123456.789012345678, 0}
	var recs []Record
	for i, f := range floats {
		recs = append(recs, Record{
			Experiment: "rt", Source: `000_x.txt "Table 1", p. 3`, Scale: "quick", Algorithm: "myers",
			GPURatio: f, Rep: i + 1, Status: StatusOK, Seconds: f, AllocSeconds: f / 7, GCUPS: f * 3,
			Cells: math.MaxInt64, Matches: -1, Note: "line one\nline two, with a comma",
			CPU: "Intel(R) Xeon(R) Processor @ 2.80GHz", Timestamp: "2026-01-02T03:04:05Z",
		})
	}
	path := filepath.Join(t.TempDir(), "rt.csv")
	writeRecords(t, path, recs[:3]...)
	writeRecords(t, path, recs[3:]...) // appending to an existing file writes no second header
	got, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, recs) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, recs)
	}
	if n := bytes.Count(readFile(t, path), []byte("experiment,source")); n != 1 {
		t.Errorf("%d headers in the file, want 1", n)
	}
}

// TestReadRecordsLines checks that the line in an error is the file's line
// even after a quoted field that spans lines.
func TestReadRecordsLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.csv")
	r := Record{Experiment: "l", Rep: 1, Status: StatusOK, Seconds: 1, Note: "a\nb\nc"}
	writeRecords(t, path, r, r) // rows on lines 2-4 and 5-7
	data := readFile(t, path)
	first := bytes.Index(data, []byte(",1,ok,"))
	second := first + 1 + bytes.Index(data[first+1:], []byte(",1,ok,"))
	bad := slices.Concat(data[:second], []byte(",X,ok,"), data[second+len(",1,ok,"):])
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadRecords(path)
	if err == nil || !strings.Contains(err.Error(), path+":5:") || !strings.Contains(err.Error(), `"rep"`) {
		t.Errorf("got %v, want an error at %s:5 in column rep", err, path)
	}
}

func TestReadRecordsEdges(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if recs, err := ReadRecords(empty); err != nil || len(recs) != 0 {
		t.Errorf("empty file: %v, %v", recs, err)
	}
	headerOnly := filepath.Join(dir, "header.csv")
	writeRecords(t, headerOnly)
	if recs, err := ReadRecords(headerOnly); err != nil || len(recs) != 0 {
		t.Errorf("header only: %v, %v", recs, err)
	}
	if _, err := ReadRecords(filepath.Join(dir, "none.csv")); err == nil || !strings.Contains(err.Error(), "none.csv") {
		t.Errorf("missing file: %v", err)
	}
	// An empty file left by a crash before its header is appended to as new.
	writeRecords(t, empty, Record{Experiment: "e", Rep: 1, Status: StatusOK})
	if recs, err := ReadRecords(empty); err != nil || len(recs) != 1 {
		t.Errorf("after appending to an empty file: %v, %v", recs, err)
	}
}

func TestReadResults(t *testing.T) {
	dir := t.TempDir()
	writeRecords(t, filepath.Join(dir, "b.csv"), Record{Experiment: "b", Rep: 1})
	writeRecords(t, filepath.Join(dir, "a.csv"), Record{Experiment: "a", Rep: 1}, Record{Experiment: "a", Rep: 2})
	writeRecords(t, filepath.Join(dir, "a.csv.20260101T000000Z.bak"), Record{Experiment: "old"})
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeRecords(t, filepath.Join(dir, "sub", "c.csv"), Record{Experiment: "c"})
	if names := readExperiments(t, dir); names != "a a b" {
		t.Errorf("read %v, want a a b", names)
	}
	if _, err := ReadResults(filepath.Join(dir, "nothere")); err == nil {
		t.Error("a missing folder is not an error")
	}
	if err := os.WriteFile(filepath.Join(dir, "z.csv"), []byte("experiment\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResults(dir); err == nil || !strings.Contains(err.Error(), "z.csv:1: ") {
		t.Errorf("a foreign file: %v", err)
	}
}

// TestReadResultsPatternNames: a folder named with Glob's own characters
// is listed as it is, not read as a pattern; a folder named *.csv is no
// file of records, a link to one is.
func TestReadResultsPatternNames(t *testing.T) {
	for _, name := range []string{"res[1]", "[x]", "a*b?", `c\d`} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := os.MkdirAll(filepath.Join(dir, "sub.csv"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeRecords(t, filepath.Join(dir, "b.csv"), Record{Experiment: "b", Rep: 1})
			writeRecords(t, filepath.Join(dir, "a.csv"), Record{Experiment: "a", Rep: 1})
			elsewhere := filepath.Join(t.TempDir(), "elsewhere")
			writeRecords(t, elsewhere, Record{Experiment: "c", Rep: 1})
			want := "a b c"
			if err := os.Symlink(elsewhere, filepath.Join(dir, "c.csv")); err != nil {
				t.Logf("no link: %v", err) // Windows without the privilege
				want = "a b"
			}
			if names := readExperiments(t, dir); names != want {
				t.Errorf("read %v from %s; want %s", names, dir, want)
			}
		})
	}
}

// readExperiments returns the experiments of ReadResults(dir), in order,
// separated by spaces.
func readExperiments(t *testing.T, dir string) string {
	t.Helper()
	recs, err := ReadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Experiment)
	}
	return strings.Join(names, " ")
}

// TestReadCSVPublished reads the other row type through the same reader.
func TestReadCSVPublished(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.csv")
	content := strings.Join(columns[Published](), ",") + "\n" +
		"000_x.txt,Table 1,s000-table1,tworow,4,0,0,random,10000,10000,seconds,1.25,i7,\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readCSV[Published](path)
	if err != nil {
		t.Fatal(err)
	}
	want := Published{Source: "000_x.txt", Table: "Table 1", Experiment: "s000-table1", Algorithm: "tworow",
		Workers: 4, Case: "random", LenA: 10000, LenB: 10000, Metric: "seconds", Value: 1.25, Machine: "i7"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// BenchmarkAppend times one record's line: marshalling it with gocsv and
// one write(2), without fsync (the runner syncs once per point).
func BenchmarkAppend(b *testing.B) {
	a, err := OpenAppend(filepath.Join(b.TempDir(), "bench.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	rec := Record{Experiment: "bench", Source: "000_x.txt Table 1", Scale: "quick", Algorithm: "myers",
		Ran: "myers", Case: "random", LenA: 1000, LenB: 1000, Rep: 1, Status: StatusOK,
		Seconds: 1.2345678901234e-5, Cells: 1e6, GCUPS: 81.0000000007, CPU: "Intel(R) Xeon(R) Processor @ 2.80GHz",
		Cores: 2, GPU: "none", GoVersion: "go1.26.8", Commit: "0123456789ab-dirty", Timestamp: "2026-01-02T03:04:05Z"}
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Add(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSync is the fsync the runner pays once per point.
func BenchmarkSync(b *testing.B) {
	a, err := OpenAppend(filepath.Join(b.TempDir(), "bench.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	for b.Loop() {
		if err := a.Add(Record{Rep: 1}); err != nil {
			b.Fatal(err)
		}
		if err := a.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestScanRowsChunks reads a file of several chunks: every row in order with
// the line it starts on (rows of three lines each cross the chunks'
// boundaries), and a bad value in a later chunk handed on as a bad row at
// its own line, among the others (ReadRecords refuses the file).
func TestScanRowsChunks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.csv")
	n := 2*scanChunk + 77
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = Record{Experiment: "c", Rep: i + 1, Status: StatusOK, Seconds: float64(i), Note: "a\nb"}
	}
	writeRecords(t, path, recs...)
	var got []Row
	if err := ScanRows(path, func(r Row) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("%d rows, want %d", len(got), n)
	}
	for i, r := range got {
		if r.Record != recs[i] || r.Line != 2+2*i || r.File != path {
			t.Fatalf("row %d: %+v at %s:%d, want %+v at line %d", i, r.Record, r.File, r.Line, recs[i], 2+2*i)
		}
	}

	data := readFile(t, path)
	bad := n - 5 // in the last chunk
	at := bytes.Index(data, []byte(fmt.Sprintf(",%d,ok,", bad+1)))
	data = slices.Concat(data[:at], []byte(",X,ok,"), data[at+len(fmt.Sprintf(",%d,ok,", bad+1)):])
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	if err := ScanRows(path, func(r Row) error { got = append(got, r); return nil }); err != nil {
		t.Fatalf("a bad value stopped the scan: %v", err)
	}
	if len(got) != n {
		t.Fatalf("%d rows, want all %d, the bad one among them", len(got), n)
	}
	for i, r := range got {
		switch {
		case i == bad && (r.Line != 2+2*bad || r.Bad != `column "rep": X is not a number` || r.Record != (Record{})):
			t.Errorf("the bad row: %+v, want line %d, Bad naming column rep and X", r, 2+2*bad)
		case i != bad && (r.Bad != "" || r.Record != recs[i]):
			t.Errorf("row %d: %+v, want %+v", i, r, recs[i])
		}
	}
	if _, err := ReadRecords(path); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s:%d: column \"rep\": X is not a number", path, 2+2*bad)) {
		t.Errorf("ReadRecords: %v, want the bad value an error naming its line", err)
	}
	stop := errors.New("stop")
	if err := ScanRows(path, func(Row) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("fn's error: got %v, want it returned", err)
	}
}

// TestRepeats checks Repeats against the rule of Validate: the second ok
// record of a point's rep is named with where the first is, in its file or
// another; a different rep, point or scale is new.
func TestRepeats(t *testing.T) {
	var s Repeats
	p := Point{Experiment: "e", Algorithm: "myers", LenA: 10, LenB: 10, Scale: "quick"}
	q := p
	q.Scale = "paper"
	for _, c := range []struct {
		p    Point
		rep  int
		file string
		line int
		want string
	}{
		{p, 1, "a.csv", 2, ""},
		{p, 2, "a.csv", 3, ""},
		{q, 1, "a.csv", 4, ""},
		{p, 1, "a.csv", 5, "rep 1 of this point again (first at line 2)"},
		{p, 2, "b.csv", 2, "rep 2 of this point again (first at a.csv:3)"},
		{p, -1, "b.csv", 3, ""},
		{p, 1<<32 + 1, "b.csv", 4, ""},
	} {
		if got := s.Check(c.p, c.rep, c.file, c.line); got != c.want {
			t.Errorf("%s:%d rep %d: got %q, want %q", c.file, c.line, c.rep, got, c.want)
		}
	}
}

// TestRepeatsForget checks that a file left out (Forget) names no first
// record, and a file kept (Keep) does.
func TestRepeatsForget(t *testing.T) {
	var s Repeats
	p := Point{Experiment: "e"}
	s.Check(p, 1, "a.csv", 2)
	s.Keep()
	s.Check(p, 2, "b.csv", 2)
	s.Forget()
	if got := s.Check(p, 2, "c.csv", 2); got != "" {
		t.Errorf("rep 2 after b.csv was forgotten: %q, want new", got)
	}
	if got := s.Check(p, 1, "c.csv", 3); !strings.Contains(got, "a.csv:2") {
		t.Errorf("rep 1 after a.csv was kept: %q, want it named at a.csv:2", got)
	}
}

// TestSkipCause: a GPU point's note, whatever layers passed the error up,
// is NoGPU with why CUDA is unavailable; any other note is itself.
func TestSkipCause(t *testing.T) {
	for _, c := range []struct{ note, cause, detail string }{
		{"skipped: lev: cuda-fast: cudaext: CUDA unavailable: libcuda.so.1: missing", NoGPU, "libcuda.so.1: missing"},
		{"skipped: lev: CountMatches: gpu ratio 0.5: cudaext: CUDA unavailable: not part of this build", NoGPU, "not part of this build"},
		{"skipped: edlib: built without -tags edlib", "edlib: built without -tags edlib", "edlib: built without -tags edlib"},
		{"needs 4.7 GiB", "needs 4.7 GiB", "needs 4.7 GiB"},
	} {
		if cause, detail := SkipCause(c.note); cause != c.cause || detail != c.detail {
			t.Errorf("SkipCause(%q) = %q, %q; want %q, %q", c.note, cause, detail, c.cause, c.detail)
		}
	}
}
