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

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
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
	tab    context.Context // the tab's chromedp context: a call on it runs in the page
	cancel func()          // closes the tab and quits the browser
	out    *tailBuffer     // Chromium's output, for errors
	path   string
	origin string // a server page's scheme://host:port, whose requests go through; "" for a file

	charts, containers int

	mu                      sync.Mutex // guards the slices, which the event loops fill
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

// openPage starts Chromium (chromedp gives it an empty profile and removes
// it) and loads pageURL in p at vp.
func openPage(ctx context.Context, exe string, server bool, p *Page, pageURL string, vp Viewport) (*Page, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	p.out = &tailBuffer{max: 4096}
	// The browser lives until Close, not until ctx ends: it is started on
	// a context of its own, and ctx bounds each step.
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags(exe, server, p.out)...)
	tab, cancelTab := chromedp.NewContext(alloc)
	p.tab = tab
	p.cancel = func() {
		cancelTab()
		cancelAlloc()
	}
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(tab) }()
	select {
	case err := <-started:
		if err != nil {
			p.Close()
			return nil, p.wrap(fmt.Errorf("starting chromium: %w", err))
		}
	case <-ctx.Done():
		p.Close()
		return nil, p.wrap(fmt.Errorf("starting chromium: %w", ctx.Err()))
	}
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
	shot, err := chromedp.Call(c, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
	if err != nil {
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
func (p *Page) Close() { p.cancel() }

// within returns a context for one step on the page: the tab's, ended
// when ctx ends (DefaultTimeout when it has no deadline), so that a step
// never outlives its caller's deadline while the page outlives the step.
func (p *Page) within(ctx context.Context) (context.Context, func()) {
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(DefaultTimeout)
	}
	c, cancel := context.WithDeadline(p.tab, dl)
	stop := context.AfterFunc(ctx, cancel)
	return c, func() { stop(); cancel() }
}

// Evaluate runs expr in the page, awaits its value when it is a promise,
// and decodes the value into v (when v is not nil; a json.RawMessage takes
// it as it came). An expr that throws is an error.
func (p *Page) Evaluate(ctx context.Context, expr string, v any) error {
	c, done := p.within(ctx)
	defer done()
	if err := evaluate(c, expr, v); err != nil {
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

// listen starts the loops that file what the page logs and answer its
// requests: a request the page may make goes on, every other is failed
// (and filed) before it leaves the browser. They end with the tab.
func (p *Page) listen() {
	consoles := chromedp.Events(p.tab, runtime.ConsoleAPICalled)
	exceptions := chromedp.Events(p.tab, runtime.ExceptionThrown)
	logs := chromedp.Events(p.tab, log.EntryAdded)
	paused := chromedp.Events(p.tab, fetch.RequestPaused)
	go func() {
		for ev, err := range consoles {
			if err != nil {
				return
			}
			if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
				continue
			}
			var parts []string
			for _, a := range ev.Args {
				var s string
				switch {
				case a.Type == runtime.RemoteObjectTypeString && json.Unmarshal(a.Value, &s) == nil:
					parts = append(parts, s)
				case a.Description != "":
					parts = append(parts, a.Description)
				default:
					parts = append(parts, string(a.Value))
				}
			}
			p.note("console." + string(ev.Type) + ": " + strings.Join(parts, " "))
		}
	}()
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			if d == nil {
				continue
			}
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			p.note(fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		}
	}()
	go func() {
		for ev, err := range logs {
			if err != nil {
				return
			}
			if ev.Entry == nil || ev.Entry.Level != log.EntryLevelError {
				continue
			}
			msg := ev.Entry.Text
			if ev.Entry.URL != "" {
				msg += " (" + ev.Entry.URL + ")"
			}
			p.note("log: " + msg)
		}
	}()
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			u := ""
			if ev.Request != nil {
				u = ev.Request.URL
			}
			if p.allowed(u) {
				chromedp.Call(p.tab, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				continue
			}
			p.mu.Lock()
			p.requests = append(p.requests, u)
			p.mu.Unlock()
			chromedp.Call(p.tab, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonInternetDisconnected})
		}
	}()
}

// load lays the tab out at vp, opens pageURL in it and waits for its
// charts.
func (p *Page) load(ctx context.Context, pageURL string, vp Viewport) error {
	c, done := p.within(ctx)
	defer done()
	p.listen()
	if _, err := chromedp.Call(c, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		return err
	}
	if _, err := chromedp.Call(c, runtime.Enable, struct{}{}); err != nil {
		return err
	}
	if _, err := chromedp.Call(c, log.Enable, struct{}{}); err != nil {
		return err
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
		if _, err := chromedp.Call(c, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(vp.Width), Height: int64(h), DeviceScaleFactor: scale, Mobile: false,
		}); err != nil {
			return err
		}
	}
	nav, err := chromedp.Call(c, page.Navigate, page.NavigateParams{URL: pageURL})
	if err != nil {
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
		if err := evaluate(c, countCharts, &counts); err != nil {
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
