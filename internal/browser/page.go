package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	b       *conn
	path    string
	profile string
	session string
	origin  string // a server page's scheme://host:port, whose requests go through; "" for a file

	charts, containers int
	// Filled by the event handler, under b.mu.
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
		return nil, fmt.Errorf("browser: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	return openPage(ctx, exe, flags, &Page{path: htmlPath}, pageURL, vp)
}

// openPage starts Chromium with fl and a new empty profile, and loads
// pageURL in p at vp.
func openPage(ctx context.Context, exe string, fl []string, p *Page, pageURL string, vp Viewport) (*Page, error) {
	profile, err := os.MkdirTemp("", "levlab-chromium-")
	if err != nil {
		return nil, fmt.Errorf("browser: profile: %w", err)
	}
	b, err := start(exe, append(slices.Clone(fl), "--user-data-dir="+profile, "about:blank"))
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	p.b, p.profile = b, profile
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	if err := p.load(ctx, pageURL, vp); err != nil {
		err = p.wrap(err)
		p.Close()
		return nil, err
	}
	return p, nil
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
		return nil, fmt.Errorf("browser: %s: want an http://127.0.0.1:PORT/ address", pageURL)
	}
	exe, err := Available()
	if err != nil {
		return nil, err
	}
	// Loopback stays off the dead proxy here, and 127.0.0.1 resolves;
	// every other host still resolves to nothing.
	fl := slices.DeleteFunc(slices.Clone(flags), func(f string) bool {
		return strings.HasPrefix(f, "--proxy-bypass-list=") || strings.HasPrefix(f, "--host-resolver-rules=")
	})
	fl = append(fl, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
	return openPage(ctx, exe, fl, &Page{path: u.Path, origin: u.Scheme + "://" + u.Host}, pageURL, vp)
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
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON, which []byte decodes
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
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
func (p *Page) Close() {
	p.b.close()
	os.RemoveAll(p.profile)
}

// Evaluate runs expr in the page, awaits its value when it is a promise,
// and decodes the value into v (when v is not nil; a json.RawMessage takes
// it as it came). An expr that throws is an error.
func (p *Page) Evaluate(ctx context.Context, expr string, v any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	if err := p.b.evaluate(ctx, p.session, expr, v); err != nil {
		return p.wrap(err)
	}
	return nil
}

// Result returns what the page showed so far: its charts as counted once
// they settled, and every console error and request up to now.
func (p *Page) Result(ctx context.Context) (Result, error) {
	res := Result{Charts: p.charts, Containers: p.containers}
	// A round trip, so that events sent before it are in res.
	err := p.Evaluate(ctx, "0", nil)
	p.b.mu.Lock()
	res.ConsoleErrors = append([]string(nil), p.consoleErrors...)
	res.Requests = append([]string(nil), p.requests...)
	p.b.mu.Unlock()
	return res, err
}

func (p *Page) wrap(err error) error {
	return fmt.Errorf("browser: %s: %w%s", p.path, err, p.b.stderrTail())
}

// load opens pageURL in a new tab of p's browser, laid out at vp, and
// waits for its charts.
func (p *Page) load(ctx context.Context, pageURL string, vp Viewport) error {
	b := p.b
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		return err
	}
	session := attached.SessionID
	p.session = session

	// Events arrive on the reader goroutine, which calls the handler with
	// b.mu held; it only appends to p's slices or answers paused requests.
	b.mu.Lock()
	b.onEvent = func(ev message) {
		if ev.SessionID != session {
			return
		}
		switch ev.Method {
		case "Runtime.consoleAPICalled":
			var m struct {
				Type string `json:"type"`
				Args []struct {
					Type        string          `json:"type"`
					Value       json.RawMessage `json:"value"`
					Description string          `json:"description"`
				} `json:"args"`
			}
			if json.Unmarshal(ev.Params, &m) == nil && (m.Type == "error" || m.Type == "assert") {
				var parts []string
				for _, a := range m.Args {
					var s string
					if json.Unmarshal(a.Value, &s) == nil {
						parts = append(parts, s)
					} else if a.Description != "" {
						parts = append(parts, a.Description)
					} else {
						parts = append(parts, string(a.Value))
					}
				}
				p.consoleErrors = append(p.consoleErrors, "console."+m.Type+": "+strings.Join(parts, " "))
			}
		case "Runtime.exceptionThrown":
			var m struct {
				Details struct {
					Text      string `json:"text"`
					URL       string `json:"url"`
					Line      int    `json:"lineNumber"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			if json.Unmarshal(ev.Params, &m) == nil {
				d := m.Details
				msg := d.Text
				if d.Exception.Description != "" {
					msg += " " + d.Exception.Description
				}
				p.consoleErrors = append(p.consoleErrors, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.Line+1, msg))
			}
		case "Log.entryAdded":
			var m struct {
				Entry struct {
					Level string `json:"level"`
					Text  string `json:"text"`
					URL   string `json:"url"`
				} `json:"entry"`
			}
			if json.Unmarshal(ev.Params, &m) == nil && m.Entry.Level == "error" {
				msg := m.Entry.Text
				if m.Entry.URL != "" {
					msg += " (" + m.Entry.URL + ")"
				}
				p.consoleErrors = append(p.consoleErrors, "log: "+msg)
			}
		case "Fetch.requestPaused":
			var m struct {
				RequestID string `json:"requestId"`
				Request   struct {
					URL string `json:"url"`
				} `json:"request"`
			}
			if json.Unmarshal(ev.Params, &m) != nil {
				return
			}
			if p.allowed(m.Request.URL) {
				b.send(session, "Fetch.continueRequest", map[string]any{"requestId": m.RequestID})
				return
			}
			p.requests = append(p.requests, m.Request.URL)
			b.send(session, "Fetch.failRequest", map[string]any{"requestId": m.RequestID, "errorReason": "InternetDisconnected"})
		}
	}
	b.mu.Unlock()

	type command struct {
		method string
		params any
	}
	cmds := []command{
		{"Fetch.enable", map[string]any{"patterns": []map[string]any{{"urlPattern": "*"}}}},
		{"Runtime.enable", nil},
		{"Log.enable", nil},
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
		cmds = append(cmds, command{"Emulation.setDeviceMetricsOverride", map[string]any{
			"width": vp.Width, "height": h, "deviceScaleFactor": scale, "mobile": false,
		}})
	}
	for _, m := range cmds {
		if err := b.call(ctx, session, m.method, m.params, nil); err != nil {
			return err
		}
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.call(ctx, session, "Page.navigate", map[string]any{"url": pageURL}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigate: %s", nav.ErrorText)
	}
	// The new tab's about:blank may still be loading when the file's
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
		if err := b.evaluate(ctx, session, countCharts, &counts); err != nil {
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
		case <-b.done:
			return fmt.Errorf("chromium exited before the page was checked")
		case <-ctx.Done():
			if deadline.IsZero() {
				return fmt.Errorf("waiting for the page to load: %w", ctx.Err())
			}
			return ctx.Err()
		}
	}
}
