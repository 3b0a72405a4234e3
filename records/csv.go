package records

import (
	"bufio"
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
	"strconv"
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
	// Without this gocsv reads a missing column as zero. The
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

// withLaterColumns returns header with the later columns of Record it
// lacks added at its end, and how many were added; a header of any other
// type is returned as it is.
func withLaterColumns[T any](header []string) ([]string, int) {
	if reflect.TypeFor[T]() != reflect.TypeFor[Record]() {
		return header, 0
	}
	out := header
	for _, c := range laterColumns {
		if !slices.Contains(header, c) {
			out = append(slices.Clip(out), c)
		}
	}
	return out, len(out) - len(header)
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
	data, err := readRegular(path)
	if err != nil {
		return nil, err
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
	var out []T
	var lines []int
	err := scanCSV(path, bytes.NewReader(data), func(v T, line int) error {
		out = append(out, v)
		lines = append(lines, line)
		return nil
	}, nil)
	if err != nil {
		return nil, nil, err
	}
	return out, lines, nil
}

// scanChunk is how many rows scanCSV decodes at a time: enough that gocsv's
// per-call work (matching the header to T) is paid rarely, few enough that
// a file of millions of rows is never held whole.
const scanChunk = 1024

// scanCSV reads CSV of T from r and calls fn with each value and the line
// of the file it starts on, in order, holding at most scanChunk rows at a
// time. An empty input holds no rows. A row with a value that does not
// parse as its field's type (1e309 for a float64, x1 for an int) goes to
// bad, with its line and why, in its place among the others; with bad nil
// it is an error. The first error — of the CSV, of the header, of a value
// with bad nil, or returned by fn or bad — stops it; values before it
// have been handed on.
func scanCSV[T any](path string, r io.Reader, fn func(v T, line int) error, bad func(line int, why string) error) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // counted below, with a clearer message
	var header []string
	fill := 0 // later columns the file lacks, read as empty
	rows := make([][]string, 0, scanChunk+1)
	lines := make([]int, 0, scanChunk+1) // lines[i]: the line rows[i] starts on
	flush := func() error {
		if len(rows) <= 1 {
			return nil
		}
		vals, err := decodeRows[T](path, rows, lines)
		var de *decodeError
		switch {
		case err == nil:
			for i, v := range vals {
				if err := fn(v, lines[i+1]); err != nil {
					return err
				}
			}
		case bad != nil && errors.As(err, &de):
			// Rare: find the bad rows one at a time.
			for i := 1; i < len(rows); i++ {
				v, err := decodeRows[T](path, [][]string{header, rows[i]}, []int{lines[0], lines[i]})
				switch {
				case errors.As(err, &de):
					err = bad(lines[i], de.why())
				case err == nil:
					err = fn(v[0], lines[i])
				}
				if err != nil {
					return err
				}
			}
		default:
			return err
		}
		rows, lines = append(rows[:0], header), append(lines[:0], lines[0])
		return nil
	}
	for {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				if pe.StartLine != pe.Line {
					return fmt.Errorf("records: %s:%d: %w (at line %d, column %d)", path, pe.StartLine, pe.Err, pe.Line, pe.Column)
				}
				return fmt.Errorf("records: %s:%d: %w (column %d)", path, pe.Line, pe.Err, pe.Column)
			}
			return fmt.Errorf("records: %s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		if header == nil {
			want := columns[T]()
			row, fill = withLaterColumns[T](row)
			if d := headerDiff(row, want, false); d != "" {
				return fmt.Errorf("records: %s:%d: the header differs from the %s schema: %s", path, line, reflect.TypeFor[T]().Name(), d)
			}
			header = row
		} else if len(row) != len(header)-fill {
			return fmt.Errorf("records: %s:%d: %d fields, the header has %d", path, line, len(row), len(header)-fill)
		} else if fill > 0 {
			row = append(row, make([]string, fill)...)
		}
		rows = append(rows, row)
		lines = append(lines, line)
		if len(rows) > scanChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// decodeRows decodes rows (the header first) into values of T with gocsv;
// lines[i] is the line of the file rows[i] starts on.
func decodeRows[T any](path string, rows [][]string, lines []int) ([]T, error) {
	var out []T
	if err := gocsv.UnmarshalCSV(&rowsReader{rows}, &out); err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) && pe.Line >= 1 && pe.Line <= len(rows) {
			// gocsv counts rows from 1 with the header first; the file's
			// line is where that row starts.
			de := &decodeError{path: path, line: lines[pe.Line-1], err: pe.Err}
			if pe.Column >= 1 && pe.Column <= len(rows[0]) {
				de.column = rows[0][pe.Column-1]
			}
			return nil, de
		}
		return nil, fmt.Errorf("records: %s: %w", path, err)
	}
	if len(out) != len(rows)-1 {
		// gocsv reads one value per row; anything else is a change of
		// gocsv this code must hear of.
		return nil, fmt.Errorf("records: %s: %d rows read as %d values", path, len(rows)-1, len(out))
	}
	return out, nil
}

// A decodeError is a value of one row that does not parse as its field's
// type.
type decodeError struct {
	path   string
	line   int
	column string // "" where gocsv does not say
	err    error
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("records: %s:%d: %s", e.path, e.line, e.why())
}

func (e *decodeError) Unwrap() error { return e.err }

// why is the error without the file and line: `column "seconds": 1e309
// is out of range`.
func (e *decodeError) why() string {
	msg := e.err.Error()
	var ne *strconv.NumError
	if errors.As(e.err, &ne) {
		msg = ne.Num + " is not a number"
		if errors.Is(ne.Err, strconv.ErrRange) {
			msg = ne.Num + " is out of range"
		}
	}
	if e.column == "" {
		return msg
	}
	return fmt.Sprintf("column %q: %s", e.column, msg)
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
	data, err := readRegular(path)
	if err != nil {
		return nil, err
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
	// Bad, when not "", says which value of the row does not parse (a
	// time past float64's range, a rep that is not an integer); Record is
	// then zero, and the row is not to be used.
	Bad string
}

// ReadRows reads a records file as ReadRecords does, each record with the
// line it starts on, so that a reader can name a row it will not use; a
// row with a value that does not parse is not an error here but a Row
// whose Bad says why.
func ReadRows(path string) ([]Row, error) {
	var rows []Row
	err := ScanRows(path, func(r Row) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// ScanRows reads a records file as ReadRows does and calls fn with each row
// in order, holding a few thousand rows at a time whatever the file's
// size. A row with a value that does not parse is handed on with Bad set.
// A torn last line is an error before any row is handed on; any other
// error stops it where it is found, and fn has then seen the rows before
// it.
func ScanRows(path string, fn func(Row) error) error {
	f, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := checkCompleteFile(path, f); err != nil {
		return err
	}
	return scanCSV(path, bufio.NewReaderSize(f, 1<<16), func(r Record, line int) error {
		return fn(Row{Record: r, File: path, Line: line})
	}, func(line int, why string) error {
		return fn(Row{File: path, Line: line, Bad: why})
	})
}

// checkCompleteFile is checkComplete for an open file, read to its end only
// when its last byte is not a newline; f is left at its start.
func checkCompleteFile(path string, f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	if fi.Size() == 0 {
		return nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	if last[0] == '\n' {
		return nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	return checkComplete(path, data)
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
//   - a value of it does not parse (Row.Bad);
//   - its status is not "ok", "skipped" or "failed";
//   - its gpu_ratio, which names its point, is NaN or infinite;
//   - it is ok and its seconds, alloc_seconds, gcups or cpu_seconds is
//     NaN, infinite or negative: no time or rate is measured as that;
//   - it is ok and repeats the point and rep of an earlier ok row (of any
//     file in rows): the first is kept, as the one measured first.
//
// Skipped and failed rows hold no times; they are used whatever their
// times say. It
// takes O(len(rows)) time and memory. A reader that streams rows checks
// each with a Repeats' Row instead.
func Validate(rows []Row) (use []Row, problems []Problem) {
	var seen Repeats
	for _, r := range rows {
		if why := seen.Row(r); why != "" {
			problems = append(problems, Problem{File: r.File, Line: r.Line, Why: why})
			continue
		}
		use = append(use, r)
	}
	return use, problems
}

// Row returns why r must not be used — its Fault, or for an ok record a
// repeat of its point and rep — or "" (and then remembers r as Check does).
func (s *Repeats) Row(r Row) string {
	if r.Bad != "" {
		return r.Bad
	}
	if why := r.Fault(); why != "" || r.Status != StatusOK {
		return why
	}
	return s.Check(r.Point(), r.Rep, r.File, r.Line)
}

// Fault returns why r must not be used whatever the other records say (the
// first three cases of Validate), or "".
func (r Record) Fault() string {
	switch {
	case r.Status != StatusOK && r.Status != StatusSkipped && r.Status != StatusFailed:
		return fmt.Sprintf("status %q: want %q, %q or %q", r.Status, StatusOK, StatusSkipped, StatusFailed)
	case math.IsNaN(r.GPURatio) || math.IsInf(r.GPURatio, 0):
		return fmt.Sprintf("gpu_ratio %v: not a finite share", r.GPURatio)
	case r.Status == StatusOK:
		for _, f := range []struct {
			name string
			v    float64
		}{{"seconds", r.Seconds}, {"alloc_seconds", r.AllocSeconds}, {"gcups", r.GCUPS}, {"cpu_seconds", r.CPUSeconds}} {
			if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
				return fmt.Sprintf("%s %v: not a finite, non-negative measurement", f.name, f.v)
			}
		}
	}
	return ""
}

// Repeats finds the ok records that measure a point and rep already
// measured (the last case of Validate). It keeps a few words per record,
// not the records. The zero value is ready to use.
//
// A reader that uses a file's records only once the whole file has read
// calls Keep after each file it uses and Forget after each it does not, so
// that a file left out names no first record.
type Repeats struct {
	points  map[Point]uint32
	files   []string
	first   map[repeatKey]repeatAt
	pending []repeatKey // seen since the last Keep or Forget
}

type repeatKey struct {
	point uint32 // of points
	rep   int
}

type repeatAt struct{ file, line uint32 } // of files; the line

// Check returns "" the first time it sees p's rep, remembering where
// (file:line), and afterwards why the record must not be used, naming where
// the first one is.
func (s *Repeats) Check(p Point, rep int, file string, line int) string {
	if s.points == nil {
		s.points, s.first = map[Point]uint32{}, map[repeatKey]repeatAt{}
	}
	id, ok := s.points[p]
	if !ok {
		id = uint32(len(s.points))
		s.points[p] = id
	}
	k := repeatKey{id, rep}
	if at, ok := s.first[k]; ok {
		where := fmt.Sprintf("line %d", at.line)
		if f := s.files[at.file]; f != file {
			where = fmt.Sprintf("%s:%d", f, at.line)
		}
		return fmt.Sprintf("rep %d of this point again (first at %s)", rep, where)
	}
	if n := len(s.files); n == 0 || s.files[n-1] != file {
		s.files = append(s.files, file)
	}
	s.first[k] = repeatAt{uint32(len(s.files) - 1), uint32(line)}
	s.pending = append(s.pending, k)
	return ""
}

// Keep keeps every record seen since the last Keep or Forget as the first
// of its point and rep.
func (s *Repeats) Keep() { s.pending = s.pending[:0] }

// Forget forgets every record seen since the last Keep or Forget, as if
// Check had not been called for them.
func (s *Repeats) Forget() {
	for _, k := range s.pending {
		delete(s.first, k)
	}
	s.pending = s.pending[:0]
}
