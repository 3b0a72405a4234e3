package nb

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/report"
)

func TestSetupFromEnvironment(t *testing.T) {
	out := t.TempDir()
	t.Setenv("LEVLAB_ROOT", "")
	t.Setenv("LEVLAB_SCALE", "")
	t.Setenv("LEVLAB_REPS", "")
	t.Setenv("LEVLAB_OUT", out)
	e, err := Setup() // found upwards from notebooks/nb
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	if e.Root != root || e.Results != filepath.Join(root, "results") {
		t.Errorf("Root %s, Results %s; want %s and its results", e.Root, e.Results, root)
	}
	if e.Scale != experiments.Quick || e.Reps != QuickReps {
		t.Errorf("scale %s, reps %d; want quick and %d", e.Scale, e.Reps, QuickReps)
	}
	if want := filepath.Join(out, experiments.CurrentMachine().Slug(), "quick"); e.Measured != want {
		t.Errorf("Measured %s; want %s", e.Measured, want)
	}
	t.Setenv("LEVLAB_SCALE", "paper")
	if e, err := Setup(); err != nil || e.Reps != experiments.DefaultReps {
		t.Errorf("paper: reps %d, %v; want %d", e.Reps, err, experiments.DefaultReps)
	}
	for _, bad := range [][2]string{{"LEVLAB_SCALE", "huge"}, {"LEVLAB_REPS", "0"}, {"LEVLAB_ROOT", t.TempDir()}} {
		t.Run(bad[0], func(t *testing.T) {
			t.Setenv(bad[0], bad[1])
			if _, err := Setup(); err == nil || !strings.Contains(err.Error(), bad[0]) {
				t.Errorf("%s=%s: error %v; want one naming the variable", bad[0], bad[1], err)
			}
		})
	}
}

func TestPairAndAlphabet(t *testing.T) {
	a, b, err := Pair(100, 70, "ACGTACGT", 7)
	if err != nil || len(a) != 100 || len(b) != 70 {
		t.Fatalf("Pair: %d, %d, %v", len(a), len(b), err)
	}
	for _, c := range string(a) + string(b) {
		if !strings.ContainsRune("ACGT", c) {
			t.Fatalf("symbol %q outside the alphabet", c)
		}
	}
	if a2, _, _ := Pair(100, 70, "ACGT", 7); string(a2) != string(a) {
		t.Error("the same seed and alphabet gave another pair")
	}
	if _, _, err := Pair(-5, 3, "AC", 1); err == nil || !strings.Contains(err.Error(), "must not be negative") {
		t.Errorf("negative length: %v", err)
	}
	if _, _, err := Pair(5, 3, "", 1); err == nil {
		t.Error("empty alphabet: no error")
	}
	for _, k := range []int{1, 4, 26, 62, 63, 256} {
		s, err := Alphabet(k)
		seen := map[byte]bool{}
		for i := range len(s) {
			seen[s[i]] = true
		}
		if err != nil || len(s) != k || len(seen) != k {
			t.Errorf("Alphabet(%d): %d symbols, %d distinct, %v", k, len(s), len(seen), err)
		}
	}
	if _, err := Alphabet(257); err == nil {
		t.Error("Alphabet(257): no error")
	}
}

func TestSectionHTMLNewIDs(t *testing.T) {
	secs, err := report.Sections(report.Options{Results: "../../results"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Section(secs, "r001")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Figures) == 0 {
		t.Fatal("r001 has no figures")
	}
	h1, h2 := SectionHTML(s), SectionHTML(s)
	for _, f := range s.Figures {
		if strings.Contains(h1, `id="`+f.ID+`"`) {
			t.Errorf("chart id %s kept", f.ID)
		}
	}
	if h1 == h2 {
		t.Error("two displays of a section have the same ids")
	}
	if n := strings.Count(h1, "<script type=\"text/javascript\">{"); n != len(s.Figures) {
		t.Errorf("%d scripts in blocks; want %d", n, len(s.Figures))
	}
	if _, err := Section(secs, "r999"); err == nil || !strings.Contains(err.Error(), "r000") {
		t.Errorf("unknown section: %v", err)
	}
}

// TestFigureHTML: a notebook's figure is the report's chart of the same
// data, its script in a block; a point JSON cannot hold is left out, not
// the chart; a figure the report refuses shows why, and no script.
func TestFigureHTML(t *testing.T) {
	f := report.Figure{ID: "nbtest", Title: "t", Series: []report.FigureSeries{Line("s", []float64{1, 2}, []float64{3, 4})}}
	h := FigureHTML(f)
	want, err := f.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if h != blockScripts(want)+"\n" || !strings.Contains(h, `<div class="item" id="nbtest"`) || !strings.Contains(h, "<script type=\"text/javascript\">{") ||
		!strings.HasSuffix(strings.TrimSpace(h), "}</script>") {
		t.Errorf("figure HTML:\n%s", h)
	}
	if h := FigureHTML(report.Figure{Title: "no id"}); !strings.Contains(h, `id="nbfig`) {
		t.Errorf("a figure without an id gets none:\n%s", h)
	}
	nan := report.Figure{Series: []report.FigureSeries{Line("s", []float64{1, 2, math.Inf(1)}, []float64{math.NaN(), 4, 5})}}
	if got := nan.Series[0].Points; len(got) != 1 || got[0].X != 2 {
		t.Errorf("Line kept %v; want the one finite point (2, 4)", got)
	}
	bars := report.Figure{Labels: []string{"a", "b"}, Series: []report.FigureSeries{{Name: "v", Points: []report.FigurePoint{{Y: 1}, {Y: math.NaN()}}}}}
	for _, h := range []string{FigureHTML(nan), FigureHTML(bars)} {
		if !strings.Contains(h, "<script") || strings.Contains(h, "error:") {
			t.Errorf("a chart with NaN or infinity:\n%s", h)
		}
	}
	bad := report.Figure{ID: `x" onclick="alert(1)`}
	if h := FigureHTML(bad); strings.Contains(h, "<script") || strings.Contains(h, `" onclick`) || !strings.Contains(h, "error:") {
		t.Errorf("a chart with a bad id:\n%s", h)
	}
	// The library must see no define: not RequireJS' (hidden), and not a
	// local variable of that name (it would see that one instead).
	lib := EChartsHTML()
	if !strings.Contains(lib, "window.define = undefined") || regexp.MustCompile(`(var|let|const)\s+define\b`).MatchString(lib) {
		t.Error("EChartsHTML does not hide RequireJS' define from the library")
	}
}

func TestErrorsShowTheMessageAlone(t *testing.T) {
	err := fmt.Errorf("lev: %w: algorithm %q is unknown", errors.New("invalid option"), "<x>")
	h := ErrorHTML(err)
	if !strings.Contains(h, "algorithm &#34;&lt;x&gt;&#34; is unknown") {
		t.Errorf("ErrorHTML: %s", h)
	}
	if !NoGPU(fmt.Errorf("lev: cuda-fast: %w", cudaext.ErrUnavailable)) || NoGPU(err) {
		t.Error("NoGPU does not tell cudaext.ErrUnavailable")
	}
}

func TestExportFigures(t *testing.T) {
	needBrowser(t)
	secs, err := report.Sections(report.Options{Results: "../../results"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s, _ := Section(secs, "r004")
	for _, f := range s.Figures {
		paths, err := ExportFigure(dir, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil || len(data) < 1000 {
				t.Errorf("%s: %d bytes, %v", p, len(data), err)
			}
		}
	}
	if _, err := ExportFigure(dir, report.Figure{ID: "empty"}); err == nil {
		t.Error("a figure without points: no error")
	}
}

func TestMedianSeconds(t *testing.T) {
	recs := []records.Record{
		{Status: records.StatusOK, Algorithm: "a", Seconds: 3},
		{Status: records.StatusOK, Algorithm: "a", Seconds: 1},
		{Status: records.StatusSkipped, Algorithm: "a", Seconds: 100},
		{Status: records.StatusOK, Algorithm: "a", Seconds: 2},
		{Status: records.StatusOK, Algorithm: "a", Seconds: 10},
		{Status: records.StatusOK, Algorithm: "b", Seconds: 7},
	}
	isA := func(r records.Record) bool { return r.Algorithm == "a" }
	if m, n := MedianSeconds(recs, isA); m != 2.5 || n != 4 {
		t.Errorf("median %g of %d; want 2.5 of 4", m, n)
	}
	if m, n := MedianSeconds(recs, func(records.Record) bool { return false }); m != 0 || n != 0 {
		t.Errorf("none: %g of %d", m, n)
	}
}

// TestCommittedSections: the report of the committed paper-scale runs holds
// every machine's.
func TestCommittedSections(t *testing.T) {
	secs, err := Env{Results: "../../results"}.CommittedSections()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Section(secs, "r000")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"AMD EPYC: full matrix", "Intel Xeon @ 2.80GHz: full matrix"} {
		if !strings.Contains(s.Markdown, m) {
			t.Errorf("report 000's section of the committed runs lacks %q", m)
		}
	}
}

// TestTableAlignment: numbers, with or without their units, right-aligned;
// text left-aligned, a note included.
func TestTableAlignment(t *testing.T) {
	h := TableHTML("", []string{"algorithm", "time", "n", "note"}, [][]string{
		{"myers", "2.76 ms", "20,000", "no GPU here (below)"},
		{"tiled", "—", "3,000", ""},
	})
	for _, c := range []struct{ cell, align string }{
		{">myers<", "left"}, {">2.76 ms<", "right"}, {">20,000<", "right"}, {">no GPU here (below)<", "left"}, {">note<", "left"}, {">time<", "right"},
	} {
		i := strings.Index(h, c.cell)
		if i < 0 || !strings.HasSuffix(h[:i], "text-align:"+c.align+"\"") {
			t.Errorf("%s: not %s-aligned in\n%s", c.cell, c.align, h)
		}
	}
}

// TestExportDir: the cell's flag, else LEVLAB_OUT's export folder, else
// levlab-writeup in the temporary folder, said to be temporary; never the
// repository.
func TestExportDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("LEVLAB_ROOT", "../..")
	t.Setenv("LEVLAB_OUT", "")
	env, err := Setup()
	if err != nil {
		t.Fatal(err)
	}
	if env.Export != "" {
		t.Errorf("Export %q without LEVLAB_OUT; want none", env.Export)
	}
	for _, c := range []struct {
		env       Env
		flag      string
		want      string
		temporary bool
	}{
		{env, filepath.Join(tmp, "mine"), filepath.Join(tmp, "mine"), false},
		{Env{Export: filepath.Join(tmp, "out", "export")}, "", filepath.Join(tmp, "out", "export"), false},
		{env, "", filepath.Join(tmp, "levlab-writeup"), true},
	} {
		dir, temporary, err := c.env.ExportDir(c.flag)
		if err != nil || dir != c.want || temporary != c.temporary {
			t.Errorf("ExportDir(%q) with Export %q: %s, %v, %v; want %s, %v", c.flag, c.env.Export, dir, temporary, err, c.want, c.temporary)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Errorf("%s not made: %v", dir, err)
		}
	}
}
