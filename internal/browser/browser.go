// Package browser opens an HTML file in headless Chromium with networking
// off and reports what a reader would see: how many chart containers the
// page has, how many ECharts instances drew something in them, the errors
// its console showed, and any network request it attempted.
//
// It drives Chromium through the DevTools protocol over
// --remote-debugging-pipe (fds 3 and 4, JSON messages ended by a NUL byte),
// so it needs no library beyond the standard one, and no port is opened.
// Tests of the report use it; it knows nothing of the rest of levlab.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
var ErrUnavailable = errors.New("browser: no chromium on PATH (Debian: apt-get install chromium)")

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
// resolves to nothing and every non-loopback request goes to a proxy on a
// port nobody listens on. The page's own requests are in addition failed
// one by one through the Fetch domain (see Check).
var flags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-extensions",
	"--disable-default-apps",
	"--metrics-recording-only",
	"--hide-scrollbars",
	"--mute-audio",
	"--window-size=1200,900",
	"--proxy-server=127.0.0.1:9",
	"--proxy-bypass-list=<-loopback>",
	"--host-resolver-rules=MAP * ~NOTFOUND",
	"--remote-debugging-pipe",
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
	exe, err := Available()
	if err != nil {
		return Result{}, nil, err
	}
	abs, err := filepath.Abs(htmlPath)
	if err != nil {
		return Result{}, nil, fmt.Errorf("browser: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return Result{}, nil, fmt.Errorf("browser: %w", err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()

	profile, err := os.MkdirTemp("", "levlab-chromium-")
	if err != nil {
		return Result{}, nil, fmt.Errorf("browser: profile: %w", err)
	}
	defer os.RemoveAll(profile)

	b, err := start(exe, append(flags, "--user-data-dir="+profile, "about:blank"))
	if err != nil {
		return Result{}, nil, err
	}
	defer b.close()

	res, val, err := b.check(ctx, pageURL, expr)
	if err != nil {
		return res, nil, fmt.Errorf("browser: %s: %w%s", htmlPath, err, b.stderrTail())
	}
	return res, val, nil
}

// check opens pageURL in a new tab of b, collects the Result and, when expr
// is not empty, evaluates it once the charts have settled.
func (b *conn) check(ctx context.Context, pageURL, expr string) (Result, json.RawMessage, error) {
	var res Result
	var val json.RawMessage
	// Filled by the event handler, under b.mu.
	var consoleErrors, requests []string

	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return res, nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return res, nil, err
	}
	session := attached.SessionID

	// Events arrive on the reader goroutine, which calls the handler with
	// b.mu held; it only appends to the slices above or answers paused
	// requests.
	b.mu.Lock()
	b.onEvent = func(ev message) {
		if ev.SessionID != session {
			return
		}
		switch ev.Method {
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string `json:"type"`
				Args []struct {
					Type        string          `json:"type"`
					Value       json.RawMessage `json:"value"`
					Description string          `json:"description"`
				} `json:"args"`
			}
			if json.Unmarshal(ev.Params, &p) == nil && (p.Type == "error" || p.Type == "assert") {
				var parts []string
				for _, a := range p.Args {
					var s string
					if json.Unmarshal(a.Value, &s) == nil {
						parts = append(parts, s)
					} else if a.Description != "" {
						parts = append(parts, a.Description)
					} else {
						parts = append(parts, string(a.Value))
					}
				}
				consoleErrors = append(consoleErrors, "console."+p.Type+": "+strings.Join(parts, " "))
			}
		case "Runtime.exceptionThrown":
			var p struct {
				Details struct {
					Text      string `json:"text"`
					URL       string `json:"url"`
					Line      int    `json:"lineNumber"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			if json.Unmarshal(ev.Params, &p) == nil {
				d := p.Details
				msg := d.Text
				if d.Exception.Description != "" {
					msg += " " + d.Exception.Description
				}
				consoleErrors = append(consoleErrors, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.Line+1, msg))
			}
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Level string `json:"level"`
					Text  string `json:"text"`
					URL   string `json:"url"`
				} `json:"entry"`
			}
			if json.Unmarshal(ev.Params, &p) == nil && p.Entry.Level == "error" {
				msg := p.Entry.Text
				if p.Entry.URL != "" {
					msg += " (" + p.Entry.URL + ")"
				}
				consoleErrors = append(consoleErrors, "log: "+msg)
			}
		case "Fetch.requestPaused":
			var p struct {
				RequestID string `json:"requestId"`
				Request   struct {
					URL string `json:"url"`
				} `json:"request"`
			}
			if json.Unmarshal(ev.Params, &p) != nil {
				return
			}
			if local(p.Request.URL) {
				b.send(session, "Fetch.continueRequest", map[string]any{"requestId": p.RequestID})
				return
			}
			requests = append(requests, p.Request.URL)
			b.send(session, "Fetch.failRequest", map[string]any{"requestId": p.RequestID, "errorReason": "InternetDisconnected"})
		}
	}
	b.mu.Unlock()

	for _, m := range []struct {
		method string
		params any
	}{
		{"Fetch.enable", map[string]any{"patterns": []map[string]any{{"urlPattern": "*"}}}},
		{"Runtime.enable", nil},
		{"Log.enable", nil},
	} {
		if err := b.call(ctx, session, m.method, m.params, nil); err != nil {
			return res, nil, err
		}
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.call(ctx, session, "Page.navigate", map[string]any{"url": pageURL}, &nav); err != nil {
		return res, nil, err
	}
	if nav.ErrorText != "" {
		return res, nil, fmt.Errorf("navigate: %s", nav.ErrorText)
	}
	// The new tab's about:blank may still be loading when the file's
	// navigation starts, so rather than trust a load event, wait for the
	// file's document itself to be complete; then, since charts draw on
	// animation frames after that, poll until every container holds a drawn
	// chart, or Settle has passed.
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	var deadline time.Time
	for {
		var counts struct {
			Ready      bool `json:"ready"`
			Charts     int  `json:"charts"`
			Containers int  `json:"containers"`
		}
		if err := b.evaluate(ctx, session, countCharts, &counts); err != nil {
			return res, nil, err
		}
		if counts.Ready {
			if deadline.IsZero() {
				deadline = time.Now().Add(Settle)
			}
			res.Charts, res.Containers = counts.Charts, counts.Containers
			if res.Charts >= res.Containers || time.Now().After(deadline) {
				break
			}
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-b.done:
			return res, nil, fmt.Errorf("chromium exited before the page was checked")
		case <-ctx.Done():
			if deadline.IsZero() {
				return res, nil, fmt.Errorf("waiting for the page to load: %w", ctx.Err())
			}
			return res, nil, ctx.Err()
		}
	}
	if expr != "" {
		if err := b.evaluate(ctx, session, expr, &val); err != nil {
			return res, nil, err
		}
	}
	// A last round trip, so that events sent before the count (and during
	// expr) are in res.
	if err := b.evaluate(ctx, session, "0", nil); err != nil {
		return res, nil, err
	}
	b.mu.Lock()
	res.ConsoleErrors, res.Requests = consoleErrors, requests
	b.onEvent = nil
	b.mu.Unlock()
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
// ready once the file's document (not the tab's first about:blank) has
// loaded.
const countCharts = `(() => {
  if (location.protocol !== 'file:' || document.readyState !== 'complete') return {ready: false};
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

// evaluate runs expr in the page of session, awaits its value when it is a
// promise, and decodes the value into v (when v is not nil).
func (b *conn) evaluate(ctx context.Context, session, expr string, v any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}
	if err := b.call(ctx, session, "Runtime.evaluate", params, &r); err != nil {
		return err
	}
	if r.Exception != nil {
		return fmt.Errorf("evaluate: %s", r.Exception.Text)
	}
	if v == nil {
		return nil
	}
	if len(r.Result.Value) == 0 { // undefined, which JSON cannot hold
		r.Result.Value = json.RawMessage("null")
	}
	if err := json.Unmarshal(r.Result.Value, v); err != nil {
		return fmt.Errorf("evaluate: %w (value %s)", err, bytes.TrimSpace(r.Result.Value))
	}
	return nil
}
