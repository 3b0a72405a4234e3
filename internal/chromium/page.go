package chromium

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Viewport is the size a page is laid out at, in CSS pixels, and how many
// device pixels each one has. A zero Width keeps the window's 1200×900 at
// a scale of 1; a zero Height is 900 and a zero Scale is 1.
type Viewport struct {
	Width, Height int
	Scale         float64
}

// Page is an HTML file open in a headless Chromium of its own, loaded and
// with its charts settled, for several evaluations or a print. Close it.
type Page struct {
	b       *browser
	session string      // the page's: a command with it runs in the page
	out     *tailBuffer // Chromium's output, for errors
	path    string
	origin  string // a server page's scheme://host:port, whose requests go through; "" for a file

	charts, containers int

	mu                      sync.Mutex // guards session and the slices, which handle fills
	consoleErrors, requests []string
}

// Open starts a headless Chromium (its own empty profile in a temporary
// directory, removed by Close), lays the tab out at vp, opens htmlPath in
// it, and waits for the page to load and then up to Settle for its charts
// to draw, as Check does. The error reports a browser that could not be
// started or driven, or a page that did not load before ctx ended
// (DefaultTimeout when ctx has no deadline).
func Open(ctx context.Context, htmlPath string, vp Viewport) (*Page, error) {
	exe, err := Available()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(htmlPath)
	if err != nil {
		return nil, fmt.Errorf("chromium: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("chromium: %w", err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	return openPage(ctx, exe, false, &Page{path: htmlPath}, pageURL, vp)
}

// OpenServer is Open for a page served on this machine's loopback
// interface (http://127.0.0.1:PORT/…, a Jupyter server a test started,
// say): the page's requests to its own origin, WebSockets included, go
// through, every other is failed and listed in the Result as Open does.
// It waits for the document to load, not for charts (a live page draws
// them later: poll Charts).
func OpenServer(ctx context.Context, pageURL string, vp Viewport) (*Page, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" {
		return nil, fmt.Errorf("chromium: %s: want an http://127.0.0.1:PORT/ address", pageURL)
	}
	exe, err := Available()
	if err != nil {
		return nil, err
	}
	return openPage(ctx, exe, true, &Page{path: u.Path, origin: u.Scheme + "://" + u.Host}, pageURL, vp)
}

// openPage starts Chromium (an empty profile of its own, removed by
// Close) and loads pageURL in p at vp.
func openPage(ctx context.Context, exe string, server bool, p *Page, pageURL string, vp Viewport) (*Page, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	p.out = &tailBuffer{max: 4096}
	// The browser lives until Close, not until ctx ends: ctx bounds each
	// step.
	b, err := launch(exe, flags(server), p.out, p.handle)
	if err != nil {
		return nil, p.wrap(fmt.Errorf("starting chromium: %w", err))
	}
	p.b = b
	session, err := b.attach(ctx)
	if err != nil {
		p.Close()
		return nil, p.wrap(fmt.Errorf("starting chromium: %w", err))
	}
	p.mu.Lock()
	p.session = session
	p.mu.Unlock()
	if err := p.load(ctx, pageURL, vp); err != nil {
		err = p.wrap(err)
		p.Close()
		return nil, err
	}
	return p, nil
}

// Charts counts, now, the chart containers of the page and those drawn.
func (p *Page) Charts(ctx context.Context) (charts, containers int, err error) {
	var counts struct {
		Charts     int `json:"charts"`
		Containers int `json:"containers"`
	}
	err = p.Evaluate(ctx, countCharts, &counts)
	return counts.Charts, counts.Containers, err
}

// Screenshot returns the page's viewport as PNG.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	c, done := p.within(ctx)
	defer done()
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON
	}
	if err := p.b.call(c, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, p.wrap(err)
	}
	return shot.Data, nil
}

// allowed reports whether the page may fetch u: its file's own, or its
// server's.
func (p *Page) allowed(u string) bool {
	return local(u) || (p.origin != "" && (u == p.origin || strings.HasPrefix(u, p.origin+"/")))
}

// Close quits the page's Chromium and removes its profile.
func (p *Page) Close() { p.b.close() }

// within returns a context for one step on the page: ctx, with
// DefaultTimeout when it has no deadline.
func (p *Page) within(ctx context.Context) (context.Context, func()) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}

// Evaluate runs expr in the page, awaits its value when it is a promise,
// and decodes the value into v (when v is not nil; a json.RawMessage takes
// it as it came). An expr that throws is an error.
func (p *Page) Evaluate(ctx context.Context, expr string, v any) error {
	c, done := p.within(ctx)
	defer done()
	if err := evaluate(c, p.b, p.session, expr, v); err != nil {
		return p.wrap(err)
	}
	return nil
}

// eventsSettle is how long Result waits after a round trip to the page for
// the event loops to take what came before it.
const eventsSettle = 50 * time.Millisecond

// Result returns what the page showed so far: its charts as counted once
// they settled, and every console error and request up to now.
func (p *Page) Result(ctx context.Context) (Result, error) {
	res := Result{Charts: p.charts, Containers: p.containers}
	// A round trip, so that events sent before it have arrived; the loops
	// that read them get a moment to file them.
	err := p.Evaluate(ctx, "0", nil)
	time.Sleep(eventsSettle)
	p.mu.Lock()
	res.ConsoleErrors = append([]string(nil), p.consoleErrors...)
	res.Requests = append([]string(nil), p.requests...)
	p.mu.Unlock()
	return res, err
}

func (p *Page) wrap(err error) error {
	tail := p.out.String()
	if tail != "" {
		tail = "\nchromium output (tail):\n" + tail
	}
	return fmt.Errorf("chromium: %s: %w%s", p.path, err, tail)
}

// note files a console error.
func (p *Page) note(msg string) {
	p.mu.Lock()
	p.consoleErrors = append(p.consoleErrors, msg)
	p.mu.Unlock()
}

// remoteObject is a value the page passed to the console.
type remoteObject struct {
	Type        string          `json:"type"`
	Value       json.RawMessage `json:"value"`
	Description string          `json:"description"`
}

// handle files what the page logs and answers its requests: a request the
// page may make goes on, every other is failed (and filed) before it
// leaves the browser. The browser calls it for each event, in order.
func (p *Page) handle(ev event) {
	p.mu.Lock()
	mine := ev.session != "" && ev.session == p.session
	p.mu.Unlock()
	if !mine {
		return
	}
	switch ev.method {
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string         `json:"type"`
			Args []remoteObject `json:"args"`
		}
		if json.Unmarshal(ev.params, &e) != nil || (e.Type != "error" && e.Type != "assert") {
			return
		}
		var parts []string
		for _, a := range e.Args {
			var s string
			switch {
			case a.Type == "string" && json.Unmarshal(a.Value, &s) == nil:
				parts = append(parts, s)
			case a.Description != "":
				parts = append(parts, a.Description)
			default:
				parts = append(parts, string(a.Value))
			}
		}
		p.note("console." + e.Type + ": " + strings.Join(parts, " "))
	case "Runtime.exceptionThrown":
		var e struct {
			ExceptionDetails *exceptionDetails `json:"exceptionDetails"`
		}
		if json.Unmarshal(ev.params, &e) != nil || e.ExceptionDetails == nil {
			return
		}
		d := e.ExceptionDetails
		p.note(fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, d.message()))
	case "Log.entryAdded":
		var e struct {
			Entry *struct {
				Level, Text, URL string
			} `json:"entry"`
		}
		if json.Unmarshal(ev.params, &e) != nil || e.Entry == nil || e.Entry.Level != "error" {
			return
		}
		msg := e.Entry.Text
		if e.Entry.URL != "" {
			msg += " (" + e.Entry.URL + ")"
		}
		p.note("log: " + msg)
	case "Fetch.requestPaused":
		var e struct {
			RequestID string `json:"requestId"`
			Request   *struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		if json.Unmarshal(ev.params, &e) != nil {
			return
		}
		u := ""
		if e.Request != nil {
			u = e.Request.URL
		}
		ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
		defer cancel()
		if p.allowed(u) {
			p.b.call(ctx, p.session, "Fetch.continueRequest", map[string]any{"requestId": e.RequestID}, nil)
			return
		}
		p.mu.Lock()
		p.requests = append(p.requests, u)
		p.mu.Unlock()
		p.b.call(ctx, p.session, "Fetch.failRequest", map[string]any{"requestId": e.RequestID, "errorReason": "InternetDisconnected"}, nil)
	}
}

// load lays the tab out at vp, opens pageURL in it and waits for its
// charts.
func (p *Page) load(ctx context.Context, pageURL string, vp Viewport) error {
	c, done := p.within(ctx)
	defer done()
	call := func(method string, params any) error { return p.b.call(c, p.session, method, params, nil) }
	if err := call("Fetch.enable", map[string]any{"patterns": []map[string]string{{"urlPattern": "*"}}}); err != nil {
		return err
	}
	for _, domain := range []string{"Runtime", "Log"} {
		if err := call(domain+".enable", nil); err != nil {
			return err
		}
	}
	if vp.Width > 0 {
		// Before the navigation, so that the page's scripts see this size
		// and device pixel ratio from their start.
		h, scale := vp.Height, vp.Scale
		if h <= 0 {
			h = 900
		}
		if scale <= 0 {
			scale = 1
		}
		if err := call("Emulation.setDeviceMetricsOverride", map[string]any{
			"width": vp.Width, "height": h, "deviceScaleFactor": scale, "mobile": false,
		}); err != nil {
			return err
		}
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.b.call(c, p.session, "Page.navigate", map[string]any{"url": pageURL}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigate: %s", nav.ErrorText)
	}
	// The tab's about:blank may still be loading when the file's
	// navigation starts, so rather than trust a load event, wait for the
	// file's document itself to be complete; then, since charts draw on
	// animation frames after that, poll until every container holds a drawn
	// chart, or Settle has passed.
	var deadline time.Time
	for {
		var counts struct {
			Ready      bool `json:"ready"`
			Charts     int  `json:"charts"`
			Containers int  `json:"containers"`
		}
		if err := evaluate(c, p.b, p.session, countCharts, &counts); err != nil {
			return err
		}
		if counts.Ready && p.origin != "" {
			return nil // a live page: its charts come later
		}
		if counts.Ready {
			if deadline.IsZero() {
				deadline = time.Now().Add(Settle)
			}
			p.charts, p.containers = counts.Charts, counts.Containers
			if p.charts >= p.containers || time.Now().After(deadline) {
				return nil
			}
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-c.Done():
			if deadline.IsZero() {
				return fmt.Errorf("waiting for the page to load: %w", ctx.Err())
			}
			return ctx.Err()
		}
	}
}
