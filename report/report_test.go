package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
)

const fixture = "testdata/results"

func render(t *testing.T, o Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatalf("Write(%+v): %v", o, err)
	}
	return buf.String()
}

var sectionTitles = []string{
	"What this report read",
	"Report 000 (", "Report 001 (", "Report 002 (", "Report 003 (", "Report 004 (",
	"Beyond the reports", "Machine and method",
}

func TestFixtureHTML(t *testing.T) {
	out := render(t, Options{Results: fixture})
	for _, h := range sectionTitles {
		if !strings.Contains(out, "<h2>"+h) {
			t.Errorf("no section %q", h)
		}
	}
	for _, want := range []string{
		// Table 1, ours: medians with min–max over the three reps.
		"<td>0.2000 [0.1000–0.3000]</td>",         // fullmatrix
		"<td>0.05000 [0.04000–0.06000]</td>",      // tiled, 4 workers
		"<td>0.09000 [0.08000–0.1000]</td>",       // tiled, 8 workers
		"<td>0.38</td><td>0.15</td><td>0.13</td>", // published, as printed
		// The skipped CUDA point, with its note.
		"skipped: no GPU on the fixture box",
		// The paper folder is read, the quick one named as not read.
		"testdata/results/testbox-2c/paper",
		"testbox-2c/quick (the same machine at another scale",
		// The unknown algorithm is named, not drawn.
		`algorithm &#34;quantum-lev&#34;`,
		// Speedup of tiled 4 over fullmatrix at 10000: 0.2/0.05.
		"is 4.000× with 4 workers",
		"Fixture CPU @ 1.00GHz",
		"saveAsImage",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(out, "9.500") {
		t.Error("the quick folder's numbers reached the report; paper should be preferred")
	}
}

func TestOffline(t *testing.T) {
	out := render(t, Options{Results: fixture})
	if regexp.MustCompile(`(?i)<script[^>]*\bsrc=`).MatchString(out) {
		t.Error("the report loads a script from elsewhere")
	}
	if regexp.MustCompile(`(?i)<link[^>]*href=`).MatchString(out) {
		t.Error("the report links a stylesheet")
	}
	if strings.Contains(strings.ToLower(echartsJS), "</script") {
		t.Error("echarts.min.js holds </script, which would end the inline tag")
	}
	if !strings.Contains(out, "Apache ECharts") {
		t.Error("the ECharts notice is not in the page")
	}
	if charts, saves := strings.Count(out, `<div class="item" id=`), strings.Count(out, `"saveAsImage":{"show":true,"type":"png"`); charts == 0 || charts != saves {
		t.Errorf("%d charts, %d with a save-as-PNG button", charts, saves)
	}
	// Every chart div has its fixed id and its init script.
	for _, id := range []string{"r000fig3", "beyondgcups", "beyondtime"} {
		if !strings.Contains(out, `id="`+id+`"`) || !strings.Contains(out, "goecharts_"+id) {
			t.Errorf("chart %s missing", id)
		}
	}
}

func TestMarkdownSameNumbers(t *testing.T) {
	out := render(t, Options{Results: fixture, Format: FormatMarkdown})
	for _, want := range []string{
		"| 10000 | 0.38 | 0.15 | 0.13 | 0.2000 [0.1000–0.3000] | 0.05000 [0.04000–0.06000] | 0.09000 [0.08000–0.1000] |",
		"## Report 000 (", "## Beyond the reports", "## Machine and method",
		"skipped: no GPU on the fixture box",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(out, "<script") {
		t.Error("Markdown holds a script")
	}
}

func TestDeterministic(t *testing.T) {
	for _, f := range []string{FormatHTML, FormatMarkdown} {
		a := render(t, Options{Results: fixture, Format: f})
		b := render(t, Options{Results: fixture, Format: f})
		if a != b {
			t.Errorf("%s: two runs on the same CSV differ", f)
		}
	}
}

func TestNoResultsFolder(t *testing.T) {
	err := Write(&bytes.Buffer{}, Options{Results: filepath.Join(t.TempDir(), "nope")})
	if !errors.Is(err, ErrNoResults) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Write on a missing folder: %v; want ErrNoResults naming it", err)
	}
	if err := Write(&bytes.Buffer{}, Options{Results: fixture, Format: "pdf"}); err == nil || !strings.Contains(err.Error(), "pdf") {
		t.Errorf("Write with format pdf: %v", err)
	}
}

// copyPublished makes a results folder holding only the fixture's
// published numbers.
func copyPublished(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "published"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"000_table1.csv", "001_conclusions.csv"} {
		b, err := os.ReadFile(filepath.Join(fixture, "published", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "published", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestMissingData(t *testing.T) {
	t.Run("empty folder", func(t *testing.T) {
		out := render(t, Options{Results: t.TempDir()})
		for _, want := range []string{"Measured: none", "no published numbers", "Missing: no measured records at all.", "<h2>Report 000 ("} {
			if !strings.Contains(out, want) {
				t.Errorf("lacks %q", want)
			}
		}
	})
	t.Run("only published", func(t *testing.T) {
		out := render(t, Options{Results: copyPublished(t), Format: FormatMarkdown})
		for _, want := range []string{"Measured: none", "| 10000 | 0.38 | 0.15 | 0.13 | missing |", "Missing: our Table 1 and Figure 3 points"} {
			if !strings.Contains(out, want) {
				t.Errorf("lacks %q", want)
			}
		}
	})
	t.Run("empty CSV", func(t *testing.T) {
		dir := copyPublished(t)
		m := filepath.Join(dir, "box", "quick")
		os.MkdirAll(m, 0o755)
		os.WriteFile(filepath.Join(m, "s000-table1.csv"), nil, 0o644)
		out := render(t, Options{Results: dir, Format: FormatMarkdown})
		if !strings.Contains(out, "s000-table1.csv: empty") {
			t.Errorf("the empty file is not named:\n%s", out[:min(len(out), 1500)])
		}
	})
	t.Run("older schema", func(t *testing.T) {
		dir := copyPublished(t)
		m := filepath.Join(dir, "box", "paper")
		os.MkdirAll(m, 0o755)
		cols := records.RecordColumns()
		old := strings.Join(cols[:len(cols)-3], ",") + "\n" // an older schema: fewer columns
		os.WriteFile(filepath.Join(m, "s000-table1.csv"), []byte(old), 0o644)
		out := render(t, Options{Results: dir, Format: FormatMarkdown})
		if !strings.Contains(out, "Could not use:") || !strings.Contains(out, "s000-table1.csv") || !strings.Contains(out, "missing columns") {
			t.Errorf("the older schema is not reported:\n%s", out[:min(len(out), 1500)])
		}
	})
}

// The committed results give a report where no CPU experiment is missing.
func TestCommittedResults(t *testing.T) {
	out := render(t, Options{Results: "../results", Format: FormatMarkdown})
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Missing: ") || strings.HasPrefix(line, "Could not use:") || strings.HasPrefix(line, "Left out:") {
			t.Errorf("committed results: %s", line)
		}
		if strings.HasPrefix(line, "Missing experiments") {
			t.Errorf("committed results: %s", line)
		}
	}
	for _, h := range sectionTitles {
		if !strings.Contains(out, "## "+h) {
			t.Errorf("no section %q", h)
		}
	}
	// Report 003: ours beside the published speedups, with its charts.
	html := render(t, Options{Results: "../results"})
	for _, id := range []string{"r003ratio", "r003ranktime", "r003ranks"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("committed results: no chart %s in report 003's section", id)
		}
	}
	for _, want := range []string{"Published speedups", "Time (s, median [min–max]) and speedup over one process on one worker", "very large, 100000000 bytes", "Runtime vs CUDA workload ratio"} {
		if !strings.Contains(out, want) {
			t.Errorf("committed results: report 003's section lacks %q", want)
		}
	}
	if strings.Contains(out, "(levlab match) is not part of this build") {
		t.Error("committed results: report 003's section still says levlab match is not part of this build")
	}
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.html")
	if err := WriteFile(path, Options{Results: fixture}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := render(t, Options{Results: fixture}); string(got) != want {
		t.Error("WriteFile wrote other bytes than Write")
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "r.html"), Options{Results: fixture}); err == nil {
		t.Error("WriteFile into a missing folder: no error")
	}
}
