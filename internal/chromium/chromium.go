// Package chromium opens an HTML file in headless Chromium with networking
// off and reports what a reader would see: how many chart containers the
// page has, how many ECharts instances drew something in them, the errors
// its console showed, and any network request it attempted. Open keeps a
// page open at a chosen viewport for several evaluations, and PrintPDF
// prints a page as a PDF.
//
// It drives Debian's Chromium over the DevTools protocol on a pipe (no
// port is opened), with a client of its own (cdp.go) that speaks the few
// commands and events it needs. The report prints its PDF and exports its figures
// with it, and the report's and the notebooks' tests look at pages with
// it; it knows nothing of the rest of levlab.
package chromium

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Result is what Check saw once the page had loaded and its charts settled.
type Result struct {
	// Charts counts ECharts instances that drew something: a canvas with a
	// pixel unlike its first one, or an SVG with shapes or text in it.
	Charts int
	// Containers counts chart containers: go-echarts' <div class="item">
	// inside <div class="container">, and any element ECharts was
	// initialised on.
	Containers int
	// ConsoleErrors holds console.error calls, uncaught exceptions and the
	// browser's own error entries (a resource that failed to load), in the
	// order they came.
	ConsoleErrors []string
	// Requests holds the URL of every request the page attempted beyond
	// file:, data:, blob: and about: URLs. None of them reached the network:
	// each was failed before it left the browser.
	Requests []string
}

// Settle is how long Check waits, after the load event, for every container
// to hold a drawn chart before it reports what it has.
const Settle = 3 * time.Second

// DefaultTimeout bounds a Check whose context has no deadline.
const DefaultTimeout = 60 * time.Second

// ErrUnavailable is wrapped by the error of Available, and so of Check,
// when no Chromium is found.
var ErrUnavailable = errors.New("chromium: no chromium on PATH (Debian: apt-get install chromium)")

// Available returns the path of the Chromium executable, looking for
// chromium then chromium-browser on PATH, or an error wrapping
// ErrUnavailable.
func Available() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrUnavailable
}

// flags keep Chromium headless, runnable as root, and off the network: the
// background services that would phone home are disabled, every host
// resolves to nothing and every request goes to a proxy on a port nobody
// listens on — loopback's too ("<-loopback>" takes it off the implicit
// bypass list), unless server, where a page on 127.0.0.1 is served and
// 127.0.0.1 resolves. The page's own requests are in addition failed one
// by one through the Fetch domain (see Page).
func flags(server bool) []string {
	rules := "MAP * ~NOTFOUND"
	if server {
		rules += ", EXCLUDE 127.0.0.1"
	}
	fl := []string{
		"--headless",
		"--hide-scrollbars",
		"--mute-audio",
		"--no-sandbox",
		"--disable-gpu",
		"--enable-unsafe-swiftshader",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-quic",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-extensions",
		"--disable-default-apps",
		"--metrics-recording-only",
		"--window-size=1200,900",
		"--proxy-server=127.0.0.1:9",
		"--host-resolver-rules=" + rules,
	}
	if !server {
		fl = append(fl, "--proxy-bypass-list=<-loopback>")
	}
	return fl
}

// Check opens htmlPath in a fresh headless Chromium (its own empty profile
// in a temporary directory, removed afterwards), waits for the page to load
// and then up to Settle for the charts to draw, and returns what it saw. A
// page that throws or fetches is not an error: that is in the Result. The
// error reports a browser that could not be started or driven, or a page
// that did not load before ctx ended (DefaultTimeout when ctx has no
// deadline). A call takes about a second when every container draws, and
// Settle longer when one does not.
func Check(ctx context.Context, htmlPath string) (Result, error) {
	res, _, err := Inspect(ctx, htmlPath, "")
	return res, err
}

// Inspect is Check, then expr evaluated in the page once its charts have
// settled: its value (awaited when it is a promise) comes back as JSON,
// and what the page logged while expr ran is in the Result too. Tests use
// it to look further than Check does — what a script left in window, what
// a tooltip shows. An empty expr is not evaluated (the JSON is nil); an
// expr that throws is an error.
func Inspect(ctx context.Context, htmlPath, expr string) (Result, json.RawMessage, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	p, err := Open(ctx, htmlPath, Viewport{})
	if err != nil {
		return Result{}, nil, err
	}
	defer p.Close()
	var val json.RawMessage
	if expr != "" {
		if err := p.Evaluate(ctx, expr, &val); err != nil {
			res, _ := p.Result(ctx)
			return res, nil, err
		}
	}
	res, err := p.Result(ctx)
	if err != nil {
		return res, nil, err
	}
	return res, val, nil
}

// local reports whether u needs no network: the page's own file, inline
// data, and the browser's internal pages.
func local(u string) bool {
	for _, p := range []string{"file:", "data:", "blob:", "about:", "chrome:", "devtools:"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// countCharts runs in the page. It yields {ready, containers, charts}:
// ready once the page's document (not the tab's first about:blank) has
// loaded.
const countCharts = `(() => {
  if (location.href === 'about:blank' || document.readyState !== 'complete') return {ready: false};
  const els = new Set(document.querySelectorAll('.container > .item, [_echarts_instance_]'));
  const ec = (typeof echarts === 'object' || typeof echarts === 'function') && echarts &&
             typeof echarts.getInstanceByDom === 'function' ? echarts : null;
  const drew = (el) => {
    for (const c of el.querySelectorAll('canvas')) {
      if (!c.width || !c.height) continue;
      let px;
      try { px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; } catch (e) { continue; }
      for (let i = 4; i < px.length; i += 4) {
        if (px[i] !== px[0] || px[i+1] !== px[1] || px[i+2] !== px[2] || px[i+3] !== px[3]) return true;
      }
    }
    for (const s of el.querySelectorAll('svg')) {
      if (s.querySelector('path, text, polyline, polygon, circle, ellipse, line, image')) return true;
    }
    return false;
  };
  let charts = 0;
  for (const el of els) {
    const inst = ec ? ec.getInstanceByDom(el) : null;
    if (inst && !(inst.isDisposed && inst.isDisposed()) && drew(el)) charts++;
  }
  return {ready: true, containers: els.size, charts: charts};
})()`

// exceptionDetails is how the protocol tells of a script that threw.
type exceptionDetails struct {
	Text       string `json:"text"`
	LineNumber int    `json:"lineNumber"`
	URL        string `json:"url"`
	Exception  *struct {
		Description string `json:"description"`
	} `json:"exception"`
}

func (d *exceptionDetails) message() string {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg += " " + d.Exception.Description
	}
	return msg
}

// evaluate runs expr in the page of session, awaits its value when it is a
// promise, and decodes the value into v (when v is not nil; undefined
// reads as null).
func evaluate(ctx context.Context, b *browser, session, expr string, v any) error {
	var r struct {
		Result *struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *exceptionDetails `json:"exceptionDetails"`
	}
	params := map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}
	if err := b.call(ctx, session, "Runtime.evaluate", params, &r); err != nil {
		return err
	}
	if d := r.ExceptionDetails; d != nil {
		return fmt.Errorf("evaluate: %s", d.message())
	}
	if v == nil {
		return nil
	}
	var raw []byte
	if r.Result != nil {
		raw = r.Result.Value
	}
	if len(raw) == 0 { // undefined, which JSON cannot hold
		raw = []byte("null")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("evaluate: %w (value %s)", err, strings.TrimSpace(string(raw)))
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it: Chromium's output,
// for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
