package records

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gocarina/gocsv"
)

// Records live in one CSV file per experiment, written only by appending
// whole lines: the header once, to an empty file, then each Record as one
// line in a single write(2). A crash can therefore leave at most a torn
// last line, which ReadRecords reports (file:line) instead of reading a
// truncated number as if it had been measured.
//
// Floats are written by gocsv with strconv.FormatFloat(x, 'f', -1, 64): the
// shortest decimal that reads back as the same float64, so seconds keep
// every digit they had.

func init() {
	// DESIGN.md: without this gocsv reads a missing column as zero. The
	// readers below check the header themselves (missing and extra
	// columns); the flag is the library's own guard for every other reader
	// in the program. Set at init so no read ever races with the write.
	gocsv.FailIfUnmatchedStructTags = true
}

// columns returns the CSV columns of T, in field order, as gocsv writes
// them.
func columns[T any]() []string {
	var buf bytes.Buffer
	w := gocsv.NewSafeCSVWriter(csv.NewWriter(&buf))
	if err := gocsv.MarshalCSV([]T{}, w); err != nil {
		panic(fmt.Sprintf("records: columns of %T: %v", *new(T), err)) // a programming error: T has no csv tags
	}
	cols, err := csv.NewReader(&buf).Read()
	if err != nil {
		panic(fmt.Sprintf("records: columns of %T: %v", *new(T), err))
	}
	return cols
}

// recordColumns is the header of every records file.
var recordColumns = sync.OnceValue(columns[Record])

// RecordColumns returns the header of a records file: the csv tags of
// Record, in field order.
func RecordColumns() []string { return slices.Clone(recordColumns()) }

// headerDiff says how header differs from want, or "" when it holds the
// same columns (in any order when ordered is false).
func headerDiff(header, want []string, ordered bool) string {
	var missing, extra, twice []string
	seen := make(map[string]int, len(header))
	for _, h := range header {
		seen[h]++
		if seen[h] == 2 {
			twice = append(twice, h)
		}
	}
	wanted := make(map[string]bool, len(want))
	for _, w := range want {
		wanted[w] = true
		if seen[w] == 0 {
			missing = append(missing, w)
		}
	}
	for _, h := range header {
		if !wanted[h] {
			extra = append(extra, h)
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing columns: "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "extra columns: "+strings.Join(extra, ", "))
	}
	if len(twice) > 0 {
		parts = append(parts, "repeated columns: "+strings.Join(twice, ", "))
	}
	if len(parts) == 0 && ordered && !slices.Equal(header, want) {
		parts = append(parts, fmt.Sprintf("same columns in another order (want %s)", strings.Join(want, ",")))
	}
	return strings.Join(parts, "; ")
}

// rowsReader hands gocsv rows already parsed, so that the reader below
// knows the line each row starts on (a quoted field may span lines).
type rowsReader struct{ rows [][]string }

func (r *rowsReader) Read() ([]string, error) {
	if len(r.rows) == 0 {
		return nil, io.EOF
	}
	row := r.rows[0]
	r.rows = r.rows[1:]
	return row, nil
}

func (r *rowsReader) ReadAll() ([][]string, error) {
	rows := r.rows
	r.rows = nil
	return rows, nil
}

// readCSV reads a CSV file of T (Record, Published …) with a header whose
// columns are exactly T's csv tags, in any order. An empty file holds no
// rows. Every problem is an error that names the file and, where there is
// one, the line.
func readCSV[T any](path string) ([]T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	return parseCSV[T](path, data)
}

func parseCSV[T any](path string, data []byte) ([]T, error) {
	out, _, err := parseCSVLines[T](path, data)
	return out, err
}

// parseCSVLines is parseCSV that also returns, for each row, the line of
// the file it starts on (the header is line 1; a quoted field may span
// lines).
func parseCSVLines[T any](path string, data []byte) ([]T, []int, error) {
	if len(data) == 0 {
		return nil, nil, nil
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1 // counted below, with a clearer message
	var rows [][]string
	var lines []int // lines[i]: the line rows[i] starts on
	for {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				if pe.StartLine != pe.Line {
					return nil, nil, fmt.Errorf("records: %s:%d: %w (at line %d, column %d)", path, pe.StartLine, pe.Err, pe.Line, pe.Column)
				}
				return nil, nil, fmt.Errorf("records: %s:%d: %w (column %d)", path, pe.Line, pe.Err, pe.Column)
			}
			return nil, nil, fmt.Errorf("records: %s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, nil, fmt.Errorf("records: %s:%d: %d fields, the header has %d", path, line, len(row), len(rows[0]))
		}
		rows = append(rows, row)
		lines = append(lines, line)
	}
	if len(rows) == 0 {
		return nil, nil, nil
	}
	want := columns[T]()
	if d := headerDiff(rows[0], want, false); d != "" {
		return nil, nil, fmt.Errorf("records: %s:%d: the header differs from the %s schema: %s", path, lines[0], reflect.TypeFor[T]().Name(), d)
	}
	var out []T
	if err := gocsv.UnmarshalCSV(&rowsReader{rows}, &out); err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) && pe.Line >= 1 && pe.Line <= len(rows) {
			// gocsv counts rows from 1 with the header first; the file's
			// line is where that row starts.
			col := ""
			if pe.Column >= 1 && pe.Column <= len(rows[0]) {
				col = fmt.Sprintf("column %q: ", rows[0][pe.Column-1])
			}
			return nil, nil, fmt.Errorf("records: %s:%d: %s%w", path, lines[pe.Line-1], col, pe.Err)
		}
		return nil, nil, fmt.Errorf("records: %s: %w", path, err)
	}
	if len(out) != len(rows)-1 {
		// gocsv reads one value per row; anything else is a change of
		// gocsv this code must hear of.
		return nil, nil, fmt.Errorf("records: %s: %d rows read as %d values", path, len(rows)-1, len(out))
	}
	return out, lines[1:], nil
}

// checkComplete returns an error naming the file and line when data does
// not end with a newline: the last line was torn by an interrupted write.
func checkComplete(path string, data []byte) error {
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return nil
	}
	line := bytes.Count(data, []byte{'\n'}) + 1
	return fmt.Errorf("records: %s:%d: the last line is incomplete (a write was interrupted); "+
		"delete that line, or run afresh (the file is kept aside)", path, line)
}

// ReadRecords reads a records file. A missing file is an error; an empty
// one holds no records. The header must hold exactly Record's columns; a
// value that does not parse, a row with too few or too many fields, or a
// torn last line is an error naming the file and the line.
func ReadRecords(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	if err := checkComplete(path, data); err != nil {
		return nil, err
	}
	return parseCSV[Record](path, data)
}

// CSVFiles returns the *.csv files directly in dir (not its subfolders),
// in name order: regular files and links to them; a folder or a FIFO named
// *.csv is not one. dir is listed, not made into a Glob pattern, so that a
// folder named with a pattern's characters ("res[1]", "*") is read. A
// link that leads nowhere is listed, so that reading it fails naming it.
func CSVFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".csv") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		mode := e.Type()
		if mode&os.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil {
				out = append(out, p)
				continue
			}
			mode = fi.Mode()
		}
		if mode.IsRegular() {
			out = append(out, p)
		}
	}
	return out, nil
}

// ReadResults reads every file CSVFiles lists in dir, in name order, and
// returns their records in that order.
func ReadResults(dir string) ([]Record, error) {
	paths, err := CSVFiles(dir)
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, p := range paths {
		recs, err := ReadRecords(p)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// A Row is a Record with the place it was read from: the file, as given to
// ReadRows, and the line its row starts on (the header is line 1).
type Row struct {
	Record
	File string
	Line int
}

// ReadRows reads a records file as ReadRecords does, each record with the
// line it starts on, so that a reader can name a row it will not use.
func ReadRows(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	if err := checkComplete(path, data); err != nil {
		return nil, err
	}
	recs, lines, err := parseCSVLines[Record](path, data)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, len(recs))
	for i, r := range recs {
		rows[i] = Row{Record: r, File: path, Line: lines[i]}
	}
	return rows, nil
}

// A Point is what makes one measured point: every column an experiment
// varies. The records of a point differ in their rep alone.
type Point struct {
	Experiment string
	Scale      string
	Algorithm  string
	Workers    int
	Tile       int
	Block      int
	GPURatio   float64
	Ranks      int
	Case       string
	LenA, LenB int
}

// Point returns the point r measured (or skipped).
func (r Record) Point() Point {
	return Point{r.Experiment, r.Scale, r.Algorithm, r.Workers, r.Tile, r.Block, r.GPURatio, r.Ranks, r.Case, r.LenA, r.LenB}
}

// A Problem is a row that must not be used, and why.
type Problem struct {
	File string
	Line int
	Why  string
}

// String returns the problem as "file:line: why".
func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Why) }

// Validate returns the rows that may be used, in their order, and a
// Problem for each of the others, in theirs. A row is not used when
//
//   - its status is neither "ok" nor "skipped";
//   - its gpu_ratio, which names its point, is NaN or infinite;
//   - it is ok and its seconds, alloc_seconds or gcups is NaN, infinite
//     or negative: no time or rate is measured as that;
//   - it is ok and repeats the point and rep of an earlier ok row (of any
//     file in rows): the first is kept, as the one measured first.
//
// Skipped rows hold no times; they are used whatever their times say. It
// takes O(len(rows)) time and memory.
func Validate(rows []Row) (use []Row, problems []Problem) {
	type rep struct {
		p   Point
		rep int
	}
	first := map[rep]Row{}
	for _, r := range rows {
		why := ""
		switch {
		case r.Status != StatusOK && r.Status != StatusSkipped:
			why = fmt.Sprintf("status %q: want %q or %q", r.Status, StatusOK, StatusSkipped)
		case math.IsNaN(r.GPURatio) || math.IsInf(r.GPURatio, 0):
			why = fmt.Sprintf("gpu_ratio %v: not a finite share", r.GPURatio)
		case r.Status == StatusOK:
			for _, f := range []struct {
				name string
				v    float64
			}{{"seconds", r.Seconds}, {"alloc_seconds", r.AllocSeconds}, {"gcups", r.GCUPS}} {
				if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
					why = fmt.Sprintf("%s %v: not a finite, non-negative measurement", f.name, f.v)
					break
				}
			}
			if why != "" {
				break
			}
			k := rep{r.Point(), r.Rep}
			if f, ok := first[k]; ok {
				at := fmt.Sprintf("line %d", f.Line)
				if f.File != r.File {
					at = fmt.Sprintf("%s:%d", f.File, f.Line)
				}
				why = fmt.Sprintf("rep %d of this point again (first at %s)", r.Rep, at)
				break
			}
			first[k] = r
		}
		if why != "" {
			problems = append(problems, Problem{File: r.File, Line: r.Line, Why: why})
			continue
		}
		use = append(use, r)
	}
	return use, problems
}
