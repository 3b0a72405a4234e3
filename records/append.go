package records

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/gocarina/gocsv"
)

// Appender appends Records to one file, each as a whole line written in
// one call. Rows reach the kernel as they are added, so a killed process
// keeps them; sync makes them durable against a power cut. A write that
// fails part-way (a full disk, a file-size limit) is undone: the file is
// truncated back to its last whole line before the error is returned, so a
// later run can append to it again. The Appender expects to be the file's
// only writer (see LockDir).
type Appender struct {
	path string
	f    *os.File
	buf  bytes.Buffer
	w    *gocsv.SafeCSVWriter
	one  []Record // reused: gocsv marshals slices
	size int64    // the file's length: it ends with a whole line there

	dirty bool // written since the last sync

	// write is f.Write; tests replace it to fail part-way.
	write func([]byte) (int, error)
}

// OpenAppend opens path for appending records, creating it (with the
// header) when it does not exist or is empty. An existing file must be a
// regular file, not a link (a dangling link is not created through), start
// with exactly Record's header, in order, and end with a whole line;
// otherwise the error names the file and nothing is written to it.
//
// A file written before Record's later columns (made_by, computed_cells,
// cpu_seconds) is first rewritten whole with them, each empty, in
// Record's order: a new file takes the place of the old by a rename, so a
// crash leaves one or the other.
func OpenAppend(path string) (*Appender, error) {
	a, err := openAppend(path)
	if !errors.Is(err, errEarlierSchema) {
		return a, err
	}
	if err := upgrade(path); err != nil {
		return nil, err
	}
	return openAppend(path)
}

// errEarlierSchema is check's error for a file whose header lacks only
// Record's later columns.
var errEarlierSchema = errors.New("records: written before Record's later columns")

func openAppend(path string) (*Appender, error) {
	f, err := createRegular(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	a := &Appender{path: path, f: f, one: make([]Record, 1)}
	a.write = f.Write
	a.w = gocsv.NewSafeCSVWriter(csv.NewWriter(&a.buf))
	if err := a.check(); err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

func (a *Appender) check() error {
	st, err := a.f.Stat()
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	a.size = st.Size()
	if st.Size() == 0 {
		// Not synced here: the first sync after the first record covers
		// the header too, and an empty file reads as a new one.
		a.w.Write(recordColumns())
		return a.Flush()
	}
	var last [1]byte
	if _, err := a.f.ReadAt(last[:], st.Size()-1); err != nil {
		return fmt.Errorf("records: %s: %w", a.path, err)
	}
	if last[0] != '\n' {
		// Count lines only on this error path.
		data, err := io.ReadAll(io.NewSectionReader(a.f, 0, st.Size()))
		if err != nil {
			return fmt.Errorf("records: %w", err)
		}
		return checkComplete(a.path, data)
	}
	header, err := csv.NewReader(io.NewSectionReader(a.f, 0, st.Size())).Read()
	if err != nil {
		return fmt.Errorf("records: %s:1: the header does not parse: %w", a.path, err)
	}
	if up, n := withLaterColumns[Record](header); n > 0 && headerDiff(up, recordColumns(), false) == "" {
		return errEarlierSchema
	}
	if d := headerDiff(header, recordColumns(), true); d != "" {
		return fmt.Errorf("records: %s:1: the header differs from the Record schema, so records are not appended to it: %s", a.path, d)
	}
	return nil
}

// add writes r as one line.
func (a *Appender) Add(r Record) error {
	a.one[0] = r
	if err := gocsv.MarshalCSVWithoutHeaders(a.one, a.w); err != nil {
		a.buf.Reset()
		return fmt.Errorf("records: %s: %w", a.path, err)
	}
	return a.Flush()
}

// flush writes what is buffered in one call, or, where the write fails,
// leaves the file as it was.
func (a *Appender) Flush() error {
	a.w.Flush()
	if err := a.w.Error(); err != nil {
		a.buf.Reset()
		return fmt.Errorf("records: %s: %w", a.path, err)
	}
	line := a.buf.Bytes()
	n, err := a.write(line)
	a.buf.Reset()
	if n > 0 {
		a.dirty = true
	}
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if n > 0 {
			// Part of the line reached the file: cut it off, or the file
			// could not be read or appended to again.
			if terr := a.f.Truncate(a.size); terr != nil {
				return fmt.Errorf("records: %w; and the partly written line could not be removed (%v): %s:%d is torn",
					err, terr, a.path, a.lines()+1)
			}
		}
		return fmt.Errorf("records: %w (the file keeps every whole line written before)", err)
	}
	a.size += int64(n)
	return nil
}

// lines counts the whole lines of the file, for an error message.
func (a *Appender) lines() int {
	data, err := io.ReadAll(io.NewSectionReader(a.f, 0, a.size))
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte{'\n'})
}

// sync makes every line written so far durable (an fsync costs about as
// much as a hundred appended lines, so it is skipped when nothing is new).
func (a *Appender) Sync() error {
	if !a.dirty {
		return nil
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	a.dirty = false
	return nil
}

// Close syncs and closes the file.
func (a *Appender) Close() error {
	err := a.Sync()
	if cerr := a.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("records: %w", cerr)
	}
	return err
}

// upgrade rewrites the records file at path, whose header lacks some of
// Record's later columns, with Record's header: every row keeps its
// values, moved to their columns, and the columns it lacked are empty.
// The new file is written beside the old, synced, and renamed over it.
func upgrade(path string) error {
	data, err := readRegular(path)
	if err != nil {
		return err
	}
	if err := checkComplete(path, data); err != nil {
		return err
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return fmt.Errorf("records: %s: %w", path, err)
	}
	want := recordColumns()
	from := make([]int, len(want)) // from[i]: the old column of want[i], or -1
	for i, c := range want {
		from[i] = slices.Index(rows[0], c)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(want)
	out := make([]string, len(want))
	for _, row := range rows[1:] {
		for i, j := range from {
			out[i] = ""
			if j >= 0 {
				out[i] = row[j]
			}
		}
		w.Write(out)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("records: %s: %w", path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".upgrade-*")
	if err != nil {
		return fmt.Errorf("records: rewriting %s with the columns %v: %w", path, laterColumns, err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Chmod(st.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("records: rewriting %s with the columns %v: %w", path, laterColumns, err)
	}
	return nil
}
