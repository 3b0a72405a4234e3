//go:build linux

package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/levlab/levlab/records"
)

// BenchmarkReportMillion writes the report of a run of over a million
// records — the committed Intel paper-scale run, each point given hundreds
// of reps more, file by file as a run writes them — beside the published
// numbers. It reports the process's peak resident
// memory (Linux's ru_maxrss), which the setup, written a row at a time,
// does not raise much:
//
//	go test -run '^$' -bench ReportMillion -benchtime 1x ./report
func BenchmarkReportMillion(b *testing.B) {
	const committed = "../results"
	src := records.RunDir(committed, "intel-xeon-2.80ghz-2c", records.ScalePaper)
	files, err := records.CSVFiles(src)
	if err != nil || len(files) == 0 {
		b.Skipf("no committed run at %s: %v", src, err)
	}
	root := b.TempDir()
	if err := os.CopyFS(records.PublishedPath(root), os.DirFS(records.PublishedPath(committed))); err != nil {
		b.Fatal(err)
	}
	var all [][]records.Record
	total := 0
	for _, f := range files {
		rows, err := records.ReadRows(f)
		if err != nil {
			b.Fatal(err)
		}
		var recs []records.Record
		for _, r := range rows {
			recs = append(recs, r.Record)
		}
		all = append(all, recs)
		for _, r := range recs {
			if r.Status == records.StatusOK {
				total++ // the records repeated
			}
		}
	}
	const want = 1_000_000
	reps := (want + total - 1) / total
	dir := records.RunDir(root, "bigbox", records.ScalePaper)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	n := 0
	for i, recs := range all {
		a, err := records.OpenAppend(filepath.Join(dir, filepath.Base(files[i])))
		if err != nil {
			b.Fatal(err)
		}
		most := 0
		for _, r := range recs {
			most = max(most, r.Rep)
		}
		for rep := range reps {
			for _, r := range recs {
				if r.Status != records.StatusOK && rep > 0 {
					continue // a point not run is said once
				}
				r.Rep += rep * most // a new rep of its point, never a repeat
				if err := a.Add(r); err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
		if err := a.Close(); err != nil {
			b.Fatal(err)
		}
	}
	all = nil
	runtime.GC()
	b.ResetTimer()
	for b.Loop() {
		if err := Write(io.Discard, Options{Results: root, Machines: []string{"bigbox"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var md bytes.Buffer
	if err := Write(&md, Options{Results: root, Machines: []string{"bigbox"}, Format: FormatMarkdown}); err != nil {
		b.Fatal(err)
	}
	if strings.Contains(md.String(), "Left out of") || strings.Contains(md.String(), "Could not use") {
		b.Fatalf("records of the generated run were left out or not read: the report measured is not the run's")
	}
	b.ReportMetric(float64(n), "records")
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB") // Linux: KiB
	}
}
