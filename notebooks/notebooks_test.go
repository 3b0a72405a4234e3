package notebooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/chromium"
)

// notebook is the part of an .ipynb file the tests read.
type notebook struct {
	Cells    []cell         `json:"cells"`
	Metadata map[string]any `json:"metadata"`
	Format   int            `json:"nbformat"`
	Minor    int            `json:"nbformat_minor"`
}

type cell struct {
	Type     string   `json:"cell_type"`
	Metadata cellMeta `json:"metadata"`
	Source   lines    `json:"source"`
	Count    *int     `json:"execution_count"`
	Outputs  []output `json:"outputs"`
}

type cellMeta struct {
	Tags     []string `json:"tags,omitempty"`
	Scrolled *bool    `json:"scrolled,omitempty"` // false: Jupyter never folds the output into a scroll box
}

type output struct {
	Type  string           `json:"output_type"`
	Name  string           `json:"name,omitempty"`
	Text  lines            `json:"text,omitempty"`
	Data  map[string]lines `json:"data,omitempty"`
	EName string           `json:"ename,omitempty"`
	Value string           `json:"evalue,omitempty"`
}

// lines is a notebook string: a string or a list of lines.
type lines string

func (l *lines) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*l = lines(s)
		return nil
	}
	var ls []string
	if err := json.Unmarshal(b, &ls); err != nil {
		// Non-text data (a JSON object of a widget, say): kept as raw JSON.
		*l = lines(b)
		return nil
	}
	*l = lines(strings.Join(ls, ""))
	return nil
}

func (c cell) tagged(tag string) bool { return slices.Contains(c.Metadata.Tags, tag) }

// isMain reports whether the cell runs a main (GoNB's %%), which must show
// something; a cell of declarations alone may not.
func (c cell) isMain() bool {
	for l := range strings.Lines(string(c.Source)) {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		return strings.HasPrefix(l, "%%")
	}
	return false
}

// text is everything the cell's outputs hold, as text.
func (c cell) text() string {
	var b strings.Builder
	for _, o := range c.Outputs {
		b.WriteString(string(o.Text))
		for _, d := range o.Data {
			b.WriteString(string(d))
		}
		b.WriteString(o.EName + o.Value)
	}
	return b.String()
}

func readNotebook(t *testing.T, path string) notebook {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return nb
}

// writeCells writes a notebook of cells into path: the notebook at src
// with its cells replaced, each cell copied from src as it is (so that the
// file stays valid) but for its source where the source is given.
func writeCells(t *testing.T, path, src string, cells []pick) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	all, _ := raw["cells"].([]any)
	var out []any
	for _, p := range cells {
		c, _ := all[p.index].(map[string]any)
		cp := make(map[string]any, len(c))
		for k, v := range c {
			cp[k] = v
		}
		if p.source != "" {
			cp["source"] = p.source
		}
		out = append(out, cp)
	}
	raw["cells"] = out
	data, err = json.MarshalIndent(raw, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pick is a cell of a notebook by index, and a new source, if not "".
type pick struct {
	index  int
	source string
}

func notebookFiles(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks in notebooks/ (%v)", err)
	}
	return paths
}

// TestCommittedClean needs no Jupyter: the notebooks are committed without
// outputs, for the GoNB kernel, every code cell unscrolled, and every code
// cell is either declarations or one main.
func TestCommittedClean(t *testing.T) {
	for _, path := range notebookFiles(t) {
		nb := readNotebook(t, path)
		if ks, _ := nb.Metadata["kernelspec"].(map[string]any); ks == nil || ks["name"] != "gonb" {
			t.Errorf("%s: kernelspec is %v; want the gonb kernel", path, nb.Metadata["kernelspec"])
		}
		mains := 0
		for i, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			if len(c.Outputs) > 0 || c.Count != nil {
				t.Errorf("%s: cell %d holds outputs; commit notebooks cleared (jupyter nbconvert --clear-output --inplace)", path, i)
			}
			if c.Metadata.Scrolled == nil || *c.Metadata.Scrolled {
				t.Errorf(`%s: cell %d lacks "scrolled": false in its metadata: Jupyter would squeeze a long output into a scroll box`, path, i)
			}
			if c.isMain() {
				mains++
			}
		}
		if mains == 0 {
			t.Errorf("%s: no cell runs anything (%%%%)", path)
		}
	}
}

// setup holds what running notebooks needs.
type setup struct {
	root    string
	env     []string // for jupyter: PATH, JUPYTER_DATA_DIR, LEVLAB_*
	workDir string
}

// requireJupyter returns the setup to run notebooks with, after installing
// the GoNB kernel into a Jupyter data folder of the test's own (so that
// the kernel's go.work is this checkout, whatever the user's kernel says).
// Without Jupyter or GoNB it skips, unless LEVLAB_REQUIRE_NOTEBOOKS=1.
func requireJupyter(t *testing.T) setup {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(root, ".tools", "bin")
	var missing []string
	if _, err := exec.LookPath("jupyter-nbconvert"); err != nil {
		missing = append(missing, "jupyter-nbconvert (Debian: jupyter-nbconvert jupyter-client python3-nbclient python3-ipykernel)")
	}
	if _, err := os.Stat(debianRequireJS); err != nil {
		missing = append(missing, debianRequireJS+" (Debian: libjs-requirejs)")
	}
	for _, tool := range []string{"gonb", "goimports"} {
		if _, err := os.Stat(filepath.Join(tools, tool)); err != nil {
			missing = append(missing, filepath.Join(".tools", "bin", tool))
		}
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("missing %s; run bash scripts/setup-notebooks.sh", strings.Join(missing, ", "))
		if os.Getenv("LEVLAB_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("%s (LEVLAB_REQUIRE_NOTEBOOKS=1 forbids skipping)", msg)
		}
		t.Skipf("%s; skipping (set LEVLAB_REQUIRE_NOTEBOOKS=1 to make this a failure)", msg)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	// LEVLAB_NOTEBOOK_OUT keeps the executed notebooks, their HTML and what
	// they wrote, for a look afterwards.
	work := os.Getenv("LEVLAB_NOTEBOOK_OUT")
	if work == "" {
		work = t.TempDir()
	} else if work, err = filepath.Abs(work); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	s := setup{root: root, workDir: work}
	s.env = append(os.Environ(),
		"PATH="+tools+string(os.PathListSeparator)+filepath.Dir(goBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"JUPYTER_DATA_DIR="+filepath.Join(work, "jupyter"),
		"LEVLAB_SCALE=quick",
		"LEVLAB_ROOT="+root,
		"LEVLAB_OUT="+filepath.Join(work, "out"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
	)
	// As scripts/setup-notebooks.sh installs it: its log goes nowhere.
	install := exec.Command(filepath.Join(tools, "gonb"), "--install", "--force_deps", "--go_work="+root,
		"--logtostderr=false", "--log_file=/dev/null", "--stderrthreshold=3")
	install.Env = s.env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("gonb --install: %v\n%s", err, out)
	}
	return s
}

// execute runs the notebook at in headlessly and returns the executed
// notebook and how long it took.
func (s setup) execute(t *testing.T, in string) (notebook, time.Duration) {
	t.Helper()
	out := strings.TrimSuffix(in, ".ipynb") + ".out.ipynb"
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "jupyter", "nbconvert", "--to", "notebook", "--execute",
		"--ExecutePreprocessor.kernel_name=gonb", "--ExecutePreprocessor.timeout=480",
		"--output", out, in)
	cmd.Env = s.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		t.Fatalf("nbconvert --execute %s: %v after %v\n%s", filepath.Base(in), err, took.Round(time.Millisecond), kernelNoise(stderr.String()))
	}
	return readNotebook(t, out), took
}

// kernelNoise drops GoNB's own log lines from nbconvert's stderr, keeping
// what says why a cell failed.
func kernelNoise(s string) string {
	var b strings.Builder
	for l := range strings.Lines(s) {
		if regexp.MustCompile(`^[IW]\d{4} `).MatchString(l) {
			continue
		}
		b.WriteString(l)
	}
	const keep = 8000
	if b.Len() > keep {
		return "…" + b.String()[b.Len()-keep:]
	}
	return b.String()
}

// chartElements counts the chart containers an output holds: go-echarts'
// <div class="item" id=…>.
var chartElement = regexp.MustCompile(`<div class="item" id="[^"]+"`)

// checkOutputs fails on any error output, any stderr or Go panic trace,
// any main cell that showed nothing, any figure cell without a chart, any
// GPU cell that does not say there is no GPU where there is none, any live
// cell that does not say it needs a browser, and any
// error box (nb.ShowError) in a cell not tagged error-expected. It returns
// the number of charts shown.
func checkOutputs(t *testing.T, name string, nb notebook) int {
	t.Helper()
	noGPU := cudaext.Available()
	charts := 0
	for i, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		where := fmt.Sprintf("%s, cell %d (%s)", name, i, firstLine(c))
		for _, o := range c.Outputs {
			switch {
			case o.Type == "error":
				t.Errorf("%s: error output %s: %s", where, o.EName, o.Value)
			case o.Type == "stream" && o.Name == "stderr":
				t.Errorf("%s: wrote to stderr:\n%s", where, o.Text)
			}
		}
		text := c.text()
		if strings.Contains(text, "panic:") || strings.Contains(text, "goroutine ") {
			t.Errorf("%s: shows a Go panic trace:\n%s", where, clip(text))
		}
		if strings.Contains(text, "<b>error:</b>") && !c.tagged("error-expected") {
			t.Errorf("%s: shows an error:\n%s", where, clip(text))
		}
		if c.isMain() && len(c.Outputs) == 0 {
			t.Errorf("%s: printed and showed nothing", where)
		}
		if c.tagged("live") && !strings.Contains(text, "No browser answered") {
			t.Errorf("%s: a live cell run headless that does not say it needs a browser:\n%s", where, clip(text))
		}
		if c.tagged("gpu") && noGPU != nil && !strings.Contains(strings.ToLower(text), "no gpu here") {
			t.Errorf("%s: a GPU cell on a machine without a GPU (%v) that does not say so:\n%s", where, noGPU, clip(text))
		}
		n := len(chartElement.FindAllString(text, -1))
		if c.tagged("figure") && n == 0 {
			t.Errorf("%s: a figure cell that drew no chart", where)
		}
		charts += n
	}
	return charts
}

func firstLine(c cell) string {
	l, _, _ := strings.Cut(strings.TrimSpace(string(c.Source)), "\n")
	return l
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// TestNotebooks executes every cell of every notebook headlessly at the
// quick scale — live ones too, which must give up on the browser and say
// so rather than hang — checks its outputs, then opens it exported to HTML
// in headless Chromium.
func TestNotebooks(t *testing.T) {
	s := requireJupyter(t)
	if _, err := chromium.Available(); err != nil && os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
		t.Fatalf("%v; LEVLAB_REQUIRE_BROWSER=1 forbids skipping", err)
	}
	var total time.Duration
	for _, path := range notebookFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
		t.Run(name, func(t *testing.T) {
			var keep []pick
			for i := range readNotebook(t, path).Cells {
				keep = append(keep, pick{index: i})
			}
			in := filepath.Join(s.workDir, name+".ipynb")
			writeCells(t, in, path, keep)
			done, took := s.execute(t, in)
			total += took
			t.Logf("executed in %v", took.Round(time.Millisecond))
			charts := checkOutputs(t, name, done)
			s.checkHTML(t, withoutLive(t, strings.TrimSuffix(in, ".ipynb")+".out.ipynb", done), charts)
			if name == "30-writeup" {
				checkWriteUp(t, filepath.Join(s.workDir, "out", "export"), s.root)
			}
		})
	}
	t.Logf("all notebooks executed in %v", total.Round(time.Millisecond))
}

// checkWriteUp checks what 30-writeup wrote to dir: Markdown whose images
// are figures beside it, linked relative to it, naming no folder of the
// machine that wrote it (root); a LaTeX fragment and the document that
// sets it; each figure as SVG and as a PNG at least 1600 px wide.
func checkWriteUp(t *testing.T, dir, root string) {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(dir, "levlab-report.md"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`).FindAllStringSubmatch(string(md), -1)
	if len(links) == 0 {
		t.Error("levlab-report.md links no figure")
	}
	for _, l := range links {
		if !strings.HasPrefix(l[1], "figures/") || !strings.HasSuffix(l[1], ".png") {
			t.Errorf("levlab-report.md links %s; want figures/<id>.png", l[1])
			continue
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(l[1])))
		if err != nil {
			t.Error(err)
			continue
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width < 1600 {
			t.Errorf("%s: %d px wide (%v); want at least 1600", l[1], cfg.Width, err)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(l[1], ".png")+".svg"))); err != nil {
			t.Errorf("no SVG beside %s: %v", l[1], err)
		}
	}
	for _, name := range []string{"levlab-report.md", "levlab-report.tex"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), root) {
			t.Errorf("%s names the folder %s of the machine that wrote it", name, root)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "levlab-main.tex")); err != nil {
		t.Error(err)
	}
}

// withoutLive writes the executed notebook nb (at path) without the outputs
// of its live cells, next to it, and returns that file's path. Run headless,
// a live cell's output is the note that it needs a browser, and GoNB's
// script that would connect the widgets to the kernel, which an HTML page
// opened from a file cannot reach: the page checks are about the rest.
func withoutLive(t *testing.T, path string, nb notebook) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	cells, _ := doc["cells"].([]any)
	for i, c := range nb.Cells {
		if c.tagged("live") && i < len(cells) {
			if m, ok := cells[i].(map[string]any); ok {
				m["outputs"] = []any{}
			}
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	trimmed := strings.TrimSuffix(path, ".out.ipynb") + ".page.ipynb"
	if err := os.WriteFile(trimmed, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return trimmed
}

// debianRequireJS is RequireJS as Debian's libjs-requirejs installs it
// (jupyter-notebook depends on it), where Debian's nbconvert points HTML
// exports.
const debianRequireJS = "/usr/share/javascript/requirejs/require.min.js"

// checkHTML exports the executed notebook to HTML and opens it in headless
// Chromium: every chart the outputs hold must be drawn, with no console
// error and no request.
func (s setup) checkHTML(t *testing.T, executed string, charts int) {
	t.Helper()
	if _, err := chromium.Available(); err != nil {
		t.Logf("%v: the HTML export is not opened", err)
		return
	}
	page := strings.TrimSuffix(strings.TrimSuffix(executed, ".out.ipynb"), ".page.ipynb") + ".html"
	// RequireJS as a live notebook has it (charts must draw with its
	// define present); MathJax, which no notebook needs, left out.
	cmd := exec.Command("jupyter", "nbconvert", "--to", "html",
		"--HTMLExporter.require_js_url=file://"+debianRequireJS, "--HTMLExporter.mathjax_url=data:text/javascript,",
		"--output", page, executed)
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert --to html: %v\n%s", err, kernelNoise(string(out)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := chromium.Check(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d charts drawn in %d containers", filepath.Base(page), res.Charts, res.Containers)
	if res.Containers != charts || res.Charts != charts {
		t.Errorf("%s: %d charts drawn in %d containers; want all %d the outputs hold", filepath.Base(page), res.Charts, res.Containers, charts)
	}
	for _, e := range res.ConsoleErrors {
		t.Errorf("%s: console: %s", filepath.Base(page), e)
	}
	for _, r := range res.Requests {
		t.Errorf("%s: requested %s; it must fetch nothing", filepath.Base(page), r)
	}
}

// TestBadFlags runs the exploration notebook's distance cell with bad
// flags: the cell must show the library's error, and no panic trace; and,
// without a GPU, with a GPU algorithm: the cell must say so.
func TestBadFlags(t *testing.T) {
	s := requireJupyter(t)
	src := readNotebook(t, "20-explore.ipynb")
	var cells []pick
	distance := -1
	for i, c := range src.Cells {
		switch {
		case c.Type == "code" && c.tagged("setup"):
			cells = append(cells, pick{index: i})
		case c.Type == "code" && c.tagged("distance"):
			distance = i
		}
	}
	if distance < 0 || len(cells) == 0 {
		t.Fatal("20-explore.ipynb: no cell tagged distance, or none tagged setup")
	}
	setupCells := len(cells)
	cases := []struct{ flags, want string }{
		{"--n=-5", "must not be negative"},
		{"--algo=nosuch", `algorithm "nosuch" is unknown`},
		{"--workers=-2", "out of range"},
		// Not bad: a peer's name times the peer (its point's Kind).
		{"--algo=ka-weihe --n=300", "ka-weihe"},
	}
	if cudaext.Available() != nil {
		// Not a bad flag, but a machine without a GPU: said, not an error.
		cases = append(cases, struct{ flags, want string }{"--algo=cuda-fast --n=100", "No GPU here"})
	}
	_, body, _ := strings.Cut(string(src.Cells[distance].Source), "\n")
	for _, tc := range cases {
		cells = append(cells, pick{index: distance, source: "%% " + tc.flags + "\n" + body})
	}
	in := filepath.Join(s.workDir, "bad-flags.ipynb")
	writeCells(t, in, "20-explore.ipynb", cells)
	done, took := s.execute(t, in)
	t.Logf("executed in %v", took.Round(time.Millisecond))
	ran := done.Cells[setupCells:]
	for i, tc := range cases {
		text := html.UnescapeString(ran[i].text())
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s: the cell shows\n%s\nwant the error %q", tc.flags, clip(text), tc.want)
		}
		if strings.Contains(text, "panic") || strings.Contains(text, "goroutine") {
			t.Errorf("%s: the cell shows a panic trace:\n%s", tc.flags, clip(text))
		}
		if (strings.HasPrefix(tc.want, "No GPU") || tc.want == "ka-weihe") && strings.Contains(text, "<b>error:</b>") {
			t.Errorf("%s: the cell shows an error box:\n%s", tc.flags, clip(text))
		}
		for _, o := range ran[i].Outputs {
			if o.Type == "error" {
				t.Errorf("%s: error output %s: %s; want the message shown and the run going on", tc.flags, o.EName, o.Value)
			}
		}
	}
}
