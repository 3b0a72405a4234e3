package notebooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/chromium"
	"github.com/levlab/levlab/report"
)

// jupyterServer is a Jupyter Notebook server a test started on 127.0.0.1,
// serving dir.
type jupyterServer struct {
	base, token string
	cmd         *exec.Cmd
	log         *os.File
}

// startJupyter starts Debian's jupyter-notebook on a free port of
// 127.0.0.1 with a random token, serving dir with the test's kernel, and
// waits until it answers; it is stopped when the test ends.
func startJupyter(t *testing.T, s setup, dir string) *jupyterServer {
	t.Helper()
	if _, err := exec.LookPath("jupyter-notebook"); err != nil {
		msg := "no jupyter-notebook (Debian: jupyter-notebook); run bash scripts/setup-notebooks.sh"
		if os.Getenv("LEVLAB_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("%s (LEVLAB_REQUIRE_NOTEBOOKS=1 forbids skipping)", msg)
		}
		t.Skip(msg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	tok := make([]byte, 16)
	rand.Read(tok)
	js := &jupyterServer{base: fmt.Sprintf("http://127.0.0.1:%d", port), token: hex.EncodeToString(tok)}
	js.log, err = os.Create(filepath.Join(s.workDir, "jupyter-server.log"))
	if err != nil {
		t.Fatal(err)
	}
	js.cmd = exec.Command("jupyter-notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--port-retries=0", "--NotebookApp.token="+js.token, "--NotebookApp.notebook_dir="+dir, "--allow-root")
	js.cmd.Env = s.env
	js.cmd.Stdout, js.cmd.Stderr = js.log, js.log
	js.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := js.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-js.cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { js.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-js.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		js.log.Close()
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(js.base + "/api/status?token=" + js.token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return js
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(js.log.Name())
			t.Fatalf("jupyter-notebook did not answer on %s within 60 s:\n%s", js.base, log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// klogLine is a line of GoNB's own log: severity, date, time, pid, file.
var klogLine = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\]`)

// livePage is a notebook open in the server, in headless Chromium.
type livePage struct {
	t    *testing.T
	p    *chromium.Page
	shot string // where screenshots go
}

func (js *jupyterServer) open(t *testing.T, ctx context.Context, name, shots string) *livePage {
	t.Helper()
	p, err := chromium.OpenServer(ctx, js.base+"/notebooks/"+name+"?token="+js.token, chromium.Viewport{Width: 1300, Height: 2400})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	lp := &livePage{t: t, p: p, shot: filepath.Join(shots, strings.TrimSuffix(name, ".ipynb"))}
	lp.wait(ctx, 60*time.Second, "the kernel to start", `!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected() && Jupyter.notebook.kernel_busy === false)`)
	// Opened and not yet run, a committed notebook is trusted and unchanged
	// (its kernel's language_info is what GoNB reports).
	var state struct {
		Trusted, Dirty bool
	}
	lp.eval(ctx, `({Trusted: Jupyter.notebook.trusted, Dirty: Jupyter.notebook.dirty})`, &state)
	if !state.Trusted || state.Dirty {
		lp.fail("%s opened trusted %v, with unsaved changes %v; want trusted and unchanged", name, state.Trusted, state.Dirty)
	}
	return lp
}

// eval evaluates expr in the page into v.
func (lp *livePage) eval(ctx context.Context, expr string, v any) {
	lp.t.Helper()
	if err := lp.p.Evaluate(ctx, expr, v); err != nil {
		lp.fail("%v", err)
	}
}

// wait polls expr, a JavaScript boolean, until it is true or d has passed.
func (lp *livePage) wait(ctx context.Context, d time.Duration, what, expr string) {
	lp.t.Helper()
	deadline := time.Now().Add(d)
	for {
		var ok bool
		if err := lp.p.Evaluate(ctx, expr, &ok); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			lp.fail("waited %v for %s", d, what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// screenshot keeps the page as name.png beside the others.
func (lp *livePage) screenshot(name string) {
	png, err := lp.p.Screenshot(context.Background())
	if err != nil {
		lp.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := lp.shot + "-" + name + ".png"
	if err := os.WriteFile(path, png, 0o644); err != nil {
		lp.t.Logf("screenshot %s: %v", name, err)
		return
	}
	lp.t.Logf("screenshot: %s", path)
}

// noScrollBox fails when an output of the notebook sits in a scroll box:
// Jupyter's auto-scroll (class output_scroll) or any output area shorter
// than what it holds. Every code cell says "scrolled": false for this.
func (lp *livePage) noScrollBox(ctx context.Context) {
	lp.t.Helper()
	var boxed []string
	lp.eval(ctx, `Jupyter.notebook.get_cells().flatMap((c, i) => {
		if (c.cell_type !== 'code') { return []; }
		const o = c.output_area.element[0];
		const inner = o.closest('.output_wrapper') ? o.closest('.output_wrapper').querySelector('.output') : o;
		const scrolled = o.classList.contains('output_scroll') || (inner && inner.classList.contains('output_scroll'));
		const clipped = inner && inner.scrollHeight > inner.clientHeight + 2 && getComputedStyle(inner).overflowY !== 'visible';
		return scrolled || clipped ? ['cell ' + (i + 1) + ': ' + inner.clientHeight + ' px shown of ' + inner.scrollHeight] : [];
	})`, &boxed)
	for _, b := range boxed {
		lp.fail("an output sits in a scroll box (%s)", b)
	}
}

// fail takes a screenshot, says where, and stops the test.
func (lp *livePage) fail(format string, args ...any) {
	lp.t.Helper()
	lp.screenshot("failed")
	lp.t.Fatalf(format, args...)
}

// TestLiveNotebook drives a real Jupyter Notebook in headless Chromium: it
// runs every cell of 20-explore, moves the length slider twice and wants
// the cell to say at once what it times with an estimate, and the table to
// show each new length within 20 s, then stops the cell; it
// runs 00-quickstart and wants its figure drawn. No output of either may
// sit in a scroll box. Screenshots of the
// sliders before and after the moves, and of any failure, stay in the
// test's folder (LEVLAB_NOTEBOOK_OUT keeps it).
func TestLiveNotebook(t *testing.T) {
	s := requireJupyter(t)
	if _, err := chromium.Available(); err != nil {
		if os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
			t.Fatalf("%v; LEVLAB_REQUIRE_BROWSER=1 forbids skipping", err)
		}
		t.Skip(err)
	}
	dir := filepath.Join(s.workDir, "live")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"20-explore.ipynb", "00-quickstart.ipynb"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Trusted as scripts/setup-notebooks.sh trusts them, in the test's own
	// Jupyter data folder.
	trust := exec.Command("jupyter", "trust", filepath.Join(dir, "20-explore.ipynb"), filepath.Join(dir, "00-quickstart.ipynb"))
	trust.Env = s.env
	if out, err := trust.CombinedOutput(); err != nil {
		t.Fatalf("jupyter trust: %v\n%s", err, out)
	}
	js := startJupyter(t, s, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	t.Run("20-explore", func(t *testing.T) {
		lp := js.open(t, ctx, "20-explore.ipynb", s.workDir)
		lp.eval(ctx, `Jupyter.notebook.execute_all_cells(), true`, nil)
		// The last cell is the live one: its sliders appear once every
		// cell above has run.
		const live = `Jupyter.notebook.get_cells().at(-1).output_area.element[0]`
		lp.wait(ctx, 4*time.Minute, "the sliders and the first result",
			`(() => { const o = `+live+`; return o.querySelectorAll('input[type=range]').length === 2 && o.querySelectorAll('select').length === 2 && /Timed so far/.test(o.innerText); })()`)
		lp.eval(ctx, `Jupyter.notebook.get_cells().at(-2).element[0].scrollIntoView(), true`, nil)
		lp.screenshot("before")

		// What the cell says the moment a move lands, before the table
		// answers: kept as it shows, for it goes once the point is timed.
		lp.eval(ctx, `(() => { const o = `+live+`; window.levlabSaid = []; new MutationObserver(() => { for (const m of o.innerText.matchAll(/Timing [^\n]*/g)) { if (!window.levlabSaid.includes(m[0])) { window.levlabSaid.push(m[0]); } } }).observe(o, {subtree: true, childList: true, characterData: true}); return true; })()`, nil)
		for _, n := range []int{20000, 3000} {
			lp.eval(ctx, fmt.Sprintf(`(() => { const s = %s.querySelector('input[type=range]'); s.value = '%d'; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change')); return true; })()`, live, n), nil)
			want := report.Count(n)
			// The newest row comes first; its length is the second cell.
			lp.wait(ctx, 20*time.Second, fmt.Sprintf("the table to show length %s", want),
				fmt.Sprintf(`(() => { const td = %s.querySelector('table tr:nth-child(2) td:nth-child(2)'); return !!td && td.innerText.trim() === %q; })()`, live, want))
			var shown string
			lp.eval(ctx, fmt.Sprintf(`Array.from(%s.querySelectorAll('span[id$="-v0"]')).map(e => e.innerText).join()`, live), &shown)
			if shown != want {
				lp.fail("after moving the slider to %d the value beside it reads %q", n, shown)
			}
			lp.screenshot(fmt.Sprintf("after-%d", n))
		}
		var said []string
		lp.eval(ctx, `window.levlabSaid`, &said)
		if !slices.ContainsFunc(said, func(l string) bool {
			return strings.Contains(l, "at length 20,000") && strings.Contains(l, ": about ")
		}) {
			lp.fail("moving the length to 20,000 did not first say what it times and an estimate; the cell said: %q", said)
		}
		lp.noScrollBox(ctx)
		var charts int
		lp.eval(ctx, `Array.from(`+live+`.querySelectorAll('[_echarts_instance_]')).length`, &charts)
		if charts == 0 {
			lp.fail("the live cell shows no chart")
		}
		// Stop ends the cell: the kernel goes idle.
		lp.eval(ctx, `(() => { const b = Array.from(`+live+`.querySelectorAll('button')).find(b => b.innerText.trim() === 'Stop'); b.click(); return true; })()`, nil)
		lp.wait(ctx, 20*time.Second, "Stop to end the cell", `Jupyter.notebook.kernel_busy === false`)
		res, err := lp.p.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.ConsoleErrors {
			// GoNB's widgets talk to the kernel over a WebSocket of their
			// own; Jupyter's page also sees the kernel's replies on that
			// comm, which it did not open, and logs this. The widgets work
			// (the moves above were answered).
			if strings.HasPrefix(e, "console.error: Comm promise not found for comm id ") {
				continue
			}
			t.Errorf("console: %s", e)
		}
		for _, r := range res.Requests {
			t.Errorf("requested %s; a notebook must fetch nothing but its server", r)
		}
	})

	// The kernel's own log goes nowhere (its spec says so): the terminal
	// running Jupyter shows no GoNB error lines.
	t.Cleanup(func() {
		b, err := os.ReadFile(js.log.Name())
		if err != nil {
			t.Error(err)
			return
		}
		for l := range strings.Lines(string(b)) {
			if klogLine.MatchString(l) {
				t.Errorf("the kernel logged to the terminal: %s", l)
			}
		}
	})

	t.Run("00-quickstart", func(t *testing.T) {
		lp := js.open(t, ctx, "00-quickstart.ipynb", s.workDir)
		lp.eval(ctx, `Jupyter.notebook.execute_all_cells(), true`, nil)
		lp.wait(ctx, 4*time.Minute, "every cell to run", `Jupyter.notebook.get_cells().every(c => c.cell_type !== 'code' || (c.input_prompt_number !== null && c.input_prompt_number !== '*')) && Jupyter.notebook.kernel_busy === false`)
		deadline := time.Now().Add(10 * time.Second)
		for {
			charts, containers, err := lp.p.Charts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if containers > 0 && charts == containers {
				break
			}
			if time.Now().After(deadline) {
				lp.fail("00-quickstart: %d of %d charts drawn", charts, containers)
			}
			time.Sleep(250 * time.Millisecond)
		}
		lp.eval(ctx, `Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code').at(-1).output_area.element[0].scrollIntoView(), true`, nil)
		lp.screenshot("done")
		lp.noScrollBox(ctx)
		var errs []string
		lp.eval(ctx, `Array.from(document.querySelectorAll('.output_error, .output_stderr')).map(e => e.innerText.slice(0, 300))`, &errs)
		for _, e := range errs {
			t.Errorf("00-quickstart shows an error: %s", e)
		}
	})
}
