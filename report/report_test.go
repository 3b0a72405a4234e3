package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

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
	"Key results",
	"Report 000 — ", "Report 001 — ", "Report 002 — ", "Report 003 — ", "Report 004 — ",
	"Beyond the reports", "Benchmarks: ", "Machines and method",
}

func TestFixtureHTML(t *testing.T) {
	out := render(t, Options{Results: fixture})
	for _, h := range sectionTitles {
		if !strings.Contains(out, "<h2>"+h) {
			t.Errorf("no section %q", h)
		}
	}
	for _, want := range []string{
		// Table 1, ours: medians with min–max over the three reps below.
		`<td>200 ms<br><span class="sub">100–300 ms</span></td>`,                  // fullmatrix
		`<td>50.0 ms<br><span class="sub">40.0–60.0 ms</span></td>`,               // tiled, 4 workers
		`<td>90.0 ms<br><span class="sub">80.0–100 ms</span></td>`,                // tiled, 8 workers
		"<td>report: 4 threads</td><td>0.15 s</td><td>1.30 s</td><td>4.05 s</td>", // published, as printed
		// The skipped CUDA point's reason, once.
		"On Fixture @ 1.00GHz, not run: no GPU on the fixture box.",
		// The paper folder is read, the quick one named as not read.
		"(results/testbox-2c/paper)", // named from the tree's own name on
		"testbox-2c/quick (the same machine at another scale",
		// The unknown algorithm is named, not drawn.
		`algorithm &#34;quantum-lev&#34;`,
		// Speedup of tiled 4 over fullmatrix at 10000: 0.2/0.05.
		"Ours: 4.00× (range 3.33–5.00) with 4 workers",
		"Fixture CPU @ 1.00GHz",
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
	if strings.Contains(strings.ToLower(document.EChartsJS), "</script") {
		t.Error("echarts.min.js holds </script, which would end the inline tag")
	}
	if !strings.Contains(out, "Apache ECharts") {
		t.Error("the ECharts notice is not in the page")
	}
	// Every chart div has its fixed id and its init script.
	for _, id := range []string{"r000fig3"} {
		if !strings.Contains(out, `id="`+id+`"`) || !strings.Contains(out, "goecharts_"+id) {
			t.Errorf("chart %s missing", id)
		}
	}
}

func TestMarkdownSameNumbers(t *testing.T) {
	out := render(t, Options{Results: fixture, Format: FormatMarkdown})
	for _, want := range []string{
		"| full matrix | 200 ms (100–300 ms) | — | — |",
		"| report: sequential (full matrix) | 0.38 s | 3.51 s | 10.12 s |",
		"## Report 000 — ", "## Beyond the reports", "## Machines and method",
		"no GPU on the fixture box",
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
	if err := Write(&bytes.Buffer{}, Options{Results: fixture, Format: "docx"}); err == nil || !strings.Contains(err.Error(), "docx") {
		t.Errorf("Write with format docx: %v", err)
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
		for _, want := range []string{"Measured: none", "no published numbers", "<h2>Report 000 — "} {
			if !strings.Contains(out, want) {
				t.Errorf("lacks %q", want)
			}
		}
	})
	t.Run("only published", func(t *testing.T) {
		out := render(t, Options{Results: copyPublished(t), Format: FormatMarkdown})
		for _, want := range []string{"Measured: none", "| report: sequential (full matrix) | 0.38 s | 3.51 s | 10.12 s |", "Ours: not measured in the runs read (experiments s000-table1 and s000-fig3)."} {
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

// The committed results give a report that names, for each machine's run,
// the experiments it lacks — those its folder holds no file of (the Intel
// Xeon's run, made before they were added on a machine not at hand since;
// the H200's, which holds the GPU experiments alone) — and at least one run
// lacks none. The H200's figures reach Key results.
func TestCommittedResults(t *testing.T) {
	out := render(t, Options{Results: "../results", Format: FormatMarkdown})
	machines, err := os.ReadDir("../results")
	if err != nil {
		t.Fatal(err)
	}
	var lacks []string
	whole := false
	for _, m := range machines {
		if !m.IsDir() || m.Name() == "published" {
			continue
		}
		var absent []string
		for _, e := range records.Experiments() {
			if _, err := os.Stat(filepath.Join("../results", m.Name(), "paper", e+".csv")); err != nil {
				absent = append(absent, e)
			}
		}
		if len(absent) == 0 {
			whole = true
			continue
		}
		lacks = append(lacks, "Not in results/"+m.Name()+"/paper (no record, run or skipped): "+strings.Join(absent, ", ")+".")
	}
	if !whole {
		t.Errorf("committed results: no machine's run holds every experiment")
	}
	for _, l := range lacks {
		if !strings.Contains(out, l) {
			t.Errorf("committed results: the report does not say what a run lacks (%q)", l)
		}
	}
	if !strings.Contains(out, "| [CUDA, a launch per antidiagonal, n = 150,000 (report 000, Table 2)](#r000) | 4.81 s (block 128; GPU not named) | — | ") ||
		!strings.Contains(out, "| ours: Intel Xeon + NVIDIA H200 (paper) |") {
		t.Errorf("committed results: Key results lack the GPU's row")
	}
	for _, line := range strings.Split(out, "\n") {
		if slices.Contains(lacks, line) {
			continue
		}
		if strings.Contains(line, "not measured in the runs read") || strings.HasPrefix(line, "Could not use:") || strings.HasPrefix(line, "Left out") || strings.HasPrefix(line, "Not in ") {
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
	for _, id := range []string{"r003ranktime", "r003ranks"} {
		// Split by machine where it has more lines than a chart draws.
		if !strings.Contains(html, `id="`+id+`"`) && !strings.Contains(html, `id="`+id+`_m1"`) {
			t.Errorf("committed results: no chart %s in report 003's section", id)
		}
	}
	for _, want := range []string{"The report's speedups", "Time by ranks (median), and below it the speedup over one process on one worker", "very large, 100,000,000 bytes", "Time by the share sent to the GPU, median with the spread below (report 003, Figures 2–3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("committed results: report 003's section lacks %q", want)
		}
	}
	if strings.Contains(out, "(levlab match) is not part of this build") {
		t.Error("committed results: report 003's section still says levlab match is not part of this build")
	}
	// Key results: a row per finding, the report's number, then each
	// machine's, the claim linked to its section.
	for _, c := range []struct{ start, theirs string }{
		{"| [OpenMP tiles, 8 threads, n = 50,000 (report 000, Table 1, on its 4 cores; its tiles fill the whole matrix, ours keep only their borders)](#r000) |", " 3.41 s |"},
		{"| [Fastest exact distance at the report's largest n, matrix Gcells/s (report 000's best rate, Table 2; both of random strings over 4 symbols, its a–d of Listing 1, our DNA; its distances not stated, ours about half the length; ours a bit-parallel band against its full DP: algorithmic, not parallel)](#beyond) |", " 4.68 (our division of its 150,000² in 4.81 s, CUDA, block 128; every cell computed) |"},
		{"| [Two rows instead of the whole matrix, largest n (report 004)](#r004) |", " no numbers published |"},
		{"| [Approximate pattern matching, pattern of 22, MB/s (report 003; the 22 is our reading of a cut-off label, \"22 Chars p\"; k = 2 is ours, the report states none; ours is apm-fast, whose q-gram filter skips most windows of a random text: algorithmic, not parallel)](#r003) |", " about 3.4 "},
		{"| [One pair of random DNA, beside edlib (beyond the reports)](#beyond) |", " — |"},
		{"| [Spelling suggestions within 1 edit, beside the obvious loop (beyond the reports; max 1 stops each pair once past 1 edit: algorithmic, not parallel)](#pairs) |", " — |"},
	} {
		i := strings.Index(out, "\n"+c.start)
		if i < 0 {
			t.Errorf("committed results: no key result %q", c.start)
			continue
		}
		line, _, _ := strings.Cut(out[i+1:], "\n")
		if cells := strings.Split(line, "|"); len(cells) != 7 || !strings.HasPrefix(line, c.start+c.theirs) || strings.TrimSpace(cells[3]) == "—" {
			t.Errorf("committed results: key result %q: want the report's %q, then a value on AMD EPYC and one cell per machine:\n%s", c.start, c.theirs, line)
		}
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

// A run read from outside the tree (o.Measured) may be the one machine
// asked for, though the tree holds no run of it.
func TestMeasuredMachineOutsideTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "elsewhere-2c", "quick")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(fixture, "testbox-2c", "paper"))); err != nil {
		t.Fatal(err)
	}
	out := render(t, Options{Results: fixture, Measured: dir, Machines: []string{"elsewhere-2c"}, Format: FormatMarkdown})
	if !strings.Contains(out, "elsewhere-2c/quick") || strings.Contains(out, "testbox-2c/paper)") {
		t.Errorf("the measured run is not the one read:\n%s", out[:min(len(out), 800)])
	}
}

// Each point not run names the reason, said above it, that it did not run
// for: GPU points however the layers worded it, and the others by theirs.
func TestNotRunReasons(t *testing.T) {
	ix := &runs.Index{Name: "box", Skips: []runs.Skip{
		{Key: runs.Key{Experiment: "gpu-fast", Algorithm: "cuda-fast", LenA: 10}, Note: "skipped: lev: cuda-fast: cudaext: CUDA unavailable: no driver"},
		{Key: runs.Key{Experiment: "s003-ratio", Algorithm: "apm-fast", GPURatio: 0.5}, Note: "skipped: lev: CountMatches: gpu ratio 0.5: cudaext: CUDA unavailable: no driver"},
		{Key: runs.Key{Experiment: "peers", Algorithm: "edlib", LenA: 10}, Note: "skipped: edlib: built without -tags edlib"},
	}}
	s := notRunSection(&runs.Set{Runs: []*runs.Index{ix}})
	var text []string
	var why []string
	for _, b := range s.Blocks {
		switch b := b.(type) {
		case document.Para:
			text = append(text, string(b))
		case *document.Table:
			for _, r := range b.Rows {
				why = append(why, r[1]+": "+r[len(r)-1])
			}
		}
	}
	all := strings.Join(text, "\n")
	if strings.Count(all, "CUDA is unavailable") != 1 || !strings.Contains(all, "(2) On box, not run: edlib: built without -tags edlib.") {
		t.Errorf("the reasons are not said once each:\n%s", all)
	}
	want := []string{"gpu-fast: the reason numbered 1 above", "s003-ratio: the reason numbered 1 above", "peers: the reason numbered 2 above"}
	if strings.Join(why, "; ") != strings.Join(want, "; ") {
		t.Errorf("rows point at %q; want %q", why, want)
	}
}

// TestWriteFiles writes the fixture's report in three formats from one
// reading: each file in the format its extension names, the Markdown and
// LaTeX linking the one figures folder relative to their own; an extension
// that names no format writes nothing.
func TestWriteFiles(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	figs := filepath.Join(dir, "figs")
	md, tex, html := filepath.Join(dir, "up", "r.md"), filepath.Join(dir, "up", "r.tex"), filepath.Join(dir, "r.html")
	if err := os.MkdirAll(filepath.Dir(md), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(Options{Results: fixture, Figures: figs}, md, tex, html); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		md:   "](../figs/r000fig3.png)",
		tex:  `\includegraphics[width=\linewidth]{../figs/r000fig3.png}`,
		html: "<!DOCTYPE html>",
	} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q", path, want)
		}
	}
	if _, err := os.Stat(filepath.Join(figs, "r000fig3.png")); err != nil {
		t.Errorf("figure not drawn: %v", err)
	}

	bad := filepath.Join(dir, "r.docx")
	err := WriteFiles(Options{Results: fixture}, filepath.Join(dir, "first.md"), bad)
	if err == nil || !strings.Contains(err.Error(), "r.docx") || !strings.Contains(err.Error(), ".tex") {
		t.Errorf("extension docx: %v; want an error naming the file and the formats", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "first.md")); !os.IsNotExist(err) {
		t.Errorf("first.md written beside a path that names no format (%v)", err)
	}
}

// TestKeyResultsSizesDiffer: where the machines' largest sizes differ (this
// machine's quick run beside the committed Intel paper run), a key result
// gives a run below the report's largest size its own largest, with the
// report's number there.
func TestKeyResultsSizesDiffer(t *testing.T) {
	out := render(t, Options{Results: "../results", Measured: "testdata/quick/amd-epyc-2c/quick", Format: FormatMarkdown})
	i := strings.Index(out, "\n| [OpenMP tiles, 8 threads, n = 50,000 (report 000, Table 1, on its 4 cores; its tiles fill the whole matrix, ours keep only their borders)](#r000) |")
	if i < 0 {
		t.Fatal("no key result of report 000's Table 1")
	}
	line, _, _ := strings.Cut(out[i+1:], "\n")
	if !regexp.MustCompile(`\| 3\.41 s \| [0-9.]+ ms at n = 10,000 \(8 workers on 2 cores; the report's there: 0\.13 s\)( † earlier code \([0-9a-f]+\))? \|.* \| [0-9.]+ s \(8 workers on 2 cores\)( † earlier code \([0-9a-f]+\))? \|$`).MatchString(line) {
		t.Errorf("report 000's Table 1 on two machines at different sizes:\n%s", line)
	}
}

// TestMeasuredBesideCommitted: a quick run one has just measured does not
// hide its machine folder's paper run (the committed reference), and with
// two scales read every machine's name says its scale; a paper run one has
// measured hides the quick one. A second folder of the same CPU (another
// VM, levlab run --name) is named by its folder.
func TestMeasuredBesideCommitted(t *testing.T) {
	quick := filepath.Join(fixture, "testbox-2c", "quick")
	out := render(t, Options{Results: fixture, Measured: quick, Format: FormatMarkdown})
	for _, want := range []string{"Fixture @ 1.00GHz, quick", "Fixture @ 1.00GHz, paper"} {
		if !strings.Contains(out, want) {
			t.Errorf("measured quick: the report does not name %q", want)
		}
	}
	if strings.Contains(out, "(the same machine as") {
		t.Error("measured quick: the paper run of its machine was left out")
	}
	out = render(t, Options{Results: fixture, Measured: filepath.Join(fixture, "testbox-2c", "paper"), Format: FormatMarkdown})
	if !strings.Contains(out, "testbox-2c/quick (the same machine as testbox-2c/paper, which is read)") {
		t.Error("measured paper: the quick run of its machine is not named as left out")
	}

	root := t.TempDir()
	for _, m := range []string{"testbox-2c", "my-vm"} {
		if err := os.CopyFS(filepath.Join(root, m, "paper"), os.DirFS(filepath.Join(fixture, "testbox-2c", "paper"))); err != nil {
			t.Fatal(err)
		}
	}
	out = render(t, Options{Results: root, Format: FormatMarkdown})
	for _, want := range []string{"Fixture @ 1.00GHz (my-vm)", "Fixture @ 1.00GHz (testbox-2c)"} {
		if !strings.Contains(out, want) {
			t.Errorf("two folders of one CPU: the report does not name %q", want)
		}
	}
	if !strings.Contains(out, "from Fixture @ 1.00GHz (my-vm) (paper), Fixture @ 1.00GHz (testbox-2c) (paper)") {
		t.Error("runs all at one scale: the byline does not name them with their scale once, after the name")
	}
}

// TestShardedRun: a run whose records are split over shards' files
// (levlab run --shard) reads as the one run they make; a repetition timed
// in two files is counted once and named.
func TestShardedRun(t *testing.T) {
	whole := render(t, Options{Results: fixture, Format: FormatMarkdown})
	root := filepath.Join(t.TempDir(), "results")
	for _, d := range []string{"published", "testbox-2c/quick", "testbox-2c/bench"} {
		if err := os.CopyFS(filepath.Join(root, d), os.DirFS(filepath.Join(fixture, d))); err != nil {
			t.Fatal(err)
		}
	}
	run := filepath.Join(root, "testbox-2c", "paper")
	os.MkdirAll(run, 0o755)
	files, _ := filepath.Glob(filepath.Join(fixture, "testbox-2c", "paper", "*.csv"))
	for _, f := range files {
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(in).ReadAll()
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".csv")
		for s := range 2 {
			part := [][]string{rows[0]}
			for i, r := range rows[1:] {
				if i%2 == s {
					part = append(part, r)
				}
			}
			if len(part) == 1 {
				continue // a shard with none of the experiment's points writes no file
			}
			var b bytes.Buffer
			w := csv.NewWriter(&b)
			w.WriteAll(part)
			os.WriteFile(filepath.Join(run, fmt.Sprintf("%s.shard-%d-of-2.csv", name, s)), b.Bytes(), 0o644)
		}
	}
	if sharded := render(t, Options{Results: root, Format: FormatMarkdown}); sharded != whole {
		t.Errorf("the report of the run in two shards' files differs from the run's")
	}
	// Shard 1's file again, as shard 0 of another count: its repetitions
	// are each counted once, and named.
	b, _ := os.ReadFile(filepath.Join(run, "peers.shard-1-of-2.csv"))
	os.WriteFile(filepath.Join(run, "peers.shard-0-of-3.csv"), b, 0o644)
	again := render(t, Options{Results: root, Format: FormatMarkdown})
	if !strings.Contains(again, "of this point again (first at ") || !strings.Contains(again, "peers.shard-0-of-3.csv") {
		t.Error("a repetition in two shards' files is not named")
	}
}
