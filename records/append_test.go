package records

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A write that fails part-way, as on a full disk, leaves the file as it
// was; once there is room again the next Add appends a whole line.
func TestAppendFailsWhole(t *testing.T) {
	for _, tc := range []struct {
		name string
		keep func(line []byte) int // how many bytes of the line reach the file
		err  error
	}{
		{"half the line then ENOSPC", func(line []byte) int { return len(line) / 2 }, syscall.ENOSPC},
		{"all but the newline then EFBIG", func(line []byte) int { return len(line) - 1 }, syscall.EFBIG},
		{"nothing then ENOSPC", func([]byte) int { return 0 }, syscall.ENOSPC},
		{"a short write with no error", func(line []byte) int { return 3 }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.csv")
			a, err := OpenAppend(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Add(Record{Experiment: "e", Rep: 1, Status: StatusOK, Seconds: 1}); err != nil {
				t.Fatal(err)
			}
			good := readFile(t, path)

			full := true
			a.write = func(line []byte) (int, error) {
				if !full {
					return a.f.Write(line)
				}
				n, err := a.f.Write(line[:tc.keep(line)])
				if err != nil {
					return n, err
				}
				return n, tc.err
			}
			err = a.Add(Record{Experiment: "e", Rep: 2, Status: StatusOK, Seconds: 2})
			if err == nil {
				t.Fatal("Add on a full disk returned no error")
			}
			if tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("Add on a full disk: %v, want it to wrap %v", err, tc.err)
			}
			if got := readFile(t, path); string(got) != string(good) {
				t.Fatalf("after a failed Add the file is\n%q\nwant it as it was:\n%q", got, good)
			}

			full = false
			if err := a.Add(Record{Experiment: "e", Rep: 3, Status: StatusOK, Seconds: 3}); err != nil {
				t.Fatalf("Add with room again: %v", err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			recs, err := ReadRecords(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 || recs[0].Rep != 1 || recs[1].Rep != 3 {
				t.Errorf("the file holds %+v, want repetitions 1 and 3", recs)
			}
		})
	}
}

// TestEarlierSchema: a records file written before the made_by,
// computed_cells and cpu_seconds columns, or before cpu_seconds alone,
// reads, those values empty, and appending to it first rewrites it whole
// in Record's columns, keeping every row.
func TestEarlierSchema(t *testing.T) {
	for _, lacks := range [][]string{laterColumns, {"cpu_seconds"}} {
		t.Run("without "+strings.Join(lacks, ","), func(t *testing.T) {
			var old []string
			for _, c := range RecordColumns() {
				if !slices.Contains(lacks, c) {
					old = append(old, c)
				}
			}
			row := make([]string, len(old))
			for i, c := range old {
				switch c {
				case "experiment":
					row[i] = "e"
				case "status":
					row[i] = StatusOK
				case "rep":
					row[i] = "1"
				case "seconds":
					row[i] = "0.5"
				case "cells":
					row[i] = "100"
				}
			}
			path := filepath.Join(t.TempDir(), "e.csv")
			text := strings.Join(old, ",") + "\n" + strings.Join(row, ",") + "\n"
			if err := os.WriteFile(path, []byte(text), 0o640); err != nil {
				t.Fatal(err)
			}
			recs, err := ReadRecords(path)
			if err != nil {
				t.Fatalf("reading a file of the earlier columns: %v", err)
			}
			if len(recs) != 1 || recs[0].Seconds != 0.5 || recs[0].Cells != 100 || recs[0].MadeBy != "" || recs[0].Computed != 0 || recs[0].CPUSeconds != 0 {
				t.Fatalf("read %+v", recs)
			}
			a, err := OpenAppend(path)
			if err != nil {
				t.Fatalf("OpenAppend on a file of the earlier columns: %v", err)
			}
			if err := a.Add(Record{Experiment: "e", Status: StatusOK, Rep: 2, Seconds: 0.25, Cells: 100, Computed: 40, MadeBy: "x", CPUSeconds: 0.75}); err != nil {
				t.Fatal(err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(string(data), "\n"); first != strings.Join(RecordColumns(), ",") {
				t.Errorf("header after the rewrite = %q, want Record's", first)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode after the rewrite = %v, want 0640", fi.Mode().Perm())
			}
			recs, err = ReadRecords(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 || recs[0].Seconds != 0.5 || recs[0].CPUSeconds != 0 || recs[1].Computed != 40 || recs[1].MadeBy != "x" || recs[1].CPUSeconds != 0.75 {
				t.Errorf("after the rewrite: %+v", recs)
			}
		})
	}
}

// TestCPUSecondsLast: cpu_seconds is the last column, after made_by, so
// that a file of the earlier columns is this one cut short at the right.
func TestCPUSecondsLast(t *testing.T) {
	cols := RecordColumns()
	if n := len(cols); n < 2 || cols[n-2] != "made_by" || cols[n-1] != "cpu_seconds" {
		t.Errorf("the last columns are %v; want made_by, cpu_seconds", cols[max(0, n-2):])
	}
}

// TestCPUSecondsFault: an ok record whose cpu_seconds is no finite,
// non-negative number is not used, as one whose seconds is not.
func TestCPUSecondsFault(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), -0.5} {
		r := Record{Status: StatusOK, Seconds: 1, CPUSeconds: v}
		if why := r.Fault(); !strings.Contains(why, "cpu_seconds") {
			t.Errorf("cpu_seconds %v: Fault() = %q; want it named", v, why)
		}
	}
	if why := (Record{Status: StatusOK, Seconds: 1, CPUSeconds: 2}).Fault(); why != "" {
		t.Errorf("cpu_seconds 2: Fault() = %q; want none", why)
	}
}
