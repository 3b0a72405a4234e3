package chromium

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOpenServer opens a page a loopback server serves: its own requests
// go through (the page's script fetches from its origin), another host's
// is failed and listed; a page elsewhere than 127.0.0.1 is refused.
func TestOpenServer(t *testing.T) {
	if _, err := OpenServer(context.Background(), "http://example.com/", Viewport{}); err == nil || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("OpenServer of example.com: %v; want a refusal naming 127.0.0.1", err)
	}
	needBrowser(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/data":
			w.Write([]byte("served"))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><p id="p">waiting</p><img src="http://other.example/x.png"><script>
fetch('/data').then(r => r.text()).then(t => { document.getElementById('p').textContent = t; });
</script>`))
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := OpenServer(ctx, srv.URL+"/", Viewport{Width: 800, Height: 600})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var text string
	for deadline := time.Now().Add(10 * time.Second); text != "served" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := p.Evaluate(ctx, `document.getElementById('p').textContent`, &text); err != nil {
			t.Fatal(err)
		}
	}
	if text != "served" {
		t.Errorf("the page's fetch from its own server gave %q; want \"served\"", text)
	}
	res, err := p.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Requests) != 1 || !strings.HasPrefix(res.Requests[0], "http://other.example/") {
		t.Errorf("requests listed %q; want the other host's alone", res.Requests)
	}
	png, err := p.Screenshot(ctx)
	if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Errorf("Screenshot: %d bytes, %v; want a PNG", len(png), err)
	}
}
