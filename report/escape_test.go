package report

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/gocarina/gocsv"

	"github.com/levlab/levlab/internal/chromium"
	"github.com/levlab/levlab/records"
)

// Hostile strings, as a results folder from elsewhere may hold them. Each
// one that runs sets window.__pwned.
const (
	pwnScript = `</script><img src=x onerror=window.__pwned=1>`      // ends the inline <script>
	pwnMarker = `__f__(function(){window.__pwned=2})()__f__`         // go-echarts' function marker
	pwnImg    = `<img src=x onerror=window.__pwned=3>`               // the tooltip renders names as HTML
	pwnMD     = "[x](javascript:alert(1)) | `c` *b* _i_ ![i](x) <b>" // Markdown's own
)

var allPayloads = []string{pwnScript, pwnMarker, pwnImg, pwnMD}

// hostileResults writes a results folder whose every string field — of
// the records, of the published numbers, and the machine folder's name —
// carries one of payloads, with enough ok rows that the payload algorithms
// are drawn (peers, gpu-fast) and tabled. It returns the folder.
func hostileResults(t *testing.T, payloads ...string) string {
	t.Helper()
	dir := t.TempDir()
	// A folder name cannot hold "/": the machine gets the first payload
	// without it.
	machine := strings.ReplaceAll(payloads[0], "/", "")
	measured := filepath.Join(dir, machine, "paper")
	for _, d := range []string{measured, filepath.Join(dir, "published")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var recs []records.Record
	for i, p := range payloads {
		for _, n := range []int{1000, 2000} {
			for rep := 1; rep <= 2; rep++ {
				for _, exp := range []string{"peers", "gpu-fast"} {
					recs = append(recs, records.Record{
						Experiment: exp, Source: p, Scale: p, Algorithm: p, Ran: p, Workers: 1, RanWorkers: 1,
						Case: p, LenA: n, LenB: n, Rep: rep, Status: records.StatusOK,
						Seconds: float64(i+1) * 0.001 * float64(rep), Cells: int64(n * n), GCUPS: float64(i + 1),
						AllocBytes: 8000, CPU: p, Cores: 2, GPU: p, GoVersion: p, Commit: p, Timestamp: p,
					})
				}
			}
		}
		// The unknown experiment and a skipped point with a hostile note.
		recs = append(recs,
			records.Record{Experiment: p, Source: p, Scale: p, Algorithm: "tworow", Case: p, LenA: 10, LenB: 10, Rep: 1,
				Status: records.StatusOK, Seconds: 0.5, CPU: p, GPU: p, GoVersion: p, Commit: p, Timestamp: p},
			records.Record{Experiment: "peers", Source: p, Scale: p, Algorithm: p, Case: p, LenA: 3000, LenB: 3000,
				Status: records.StatusSkipped, Note: p, CPU: p, GPU: p, GoVersion: p, Commit: p, Timestamp: p},
		)
	}
	writeCSV(t, filepath.Join(measured, "hostile.csv"), recs)
	var pub []records.Published
	for _, p := range payloads {
		pub = append(pub,
			records.Published{Source: records.Seed000, Table: "Table 1", Experiment: "s000-table1", Algorithm: p, Workers: 1,
				Case: p, LenA: 10000, LenB: 10000, Metric: "seconds", Value: 1, Machine: p, Note: p},
			records.Published{Source: records.Seed003, Table: p, Experiment: p, Algorithm: p, Case: p, Metric: p, Value: 2, Machine: p, Note: p},
		)
	}
	writeCSV(t, filepath.Join(dir, "published", "hostile.csv"), pub)
	return dir
}

func writeCSV[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	b, err := gocsv.MarshalBytes(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileStringsStayText opens the report of hostileResults in
// headless Chromium: no payload may run (window.__pwned stays unset, no
// <img> appears, the console stays clean), every chart still draws, the
// payloads show literally in the page's text, and the tooltip of every
// series shows its name as text. Without chromium it skips, unless
// LEVLAB_REQUIRE_BROWSER=1, where it fails.
func TestHostileStringsStayText(t *testing.T) {
	if _, err := chromium.Available(); err != nil {
		if os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
			t.Fatalf("%v; LEVLAB_REQUIRE_BROWSER=1 forbids skipping (make deps installs it as root)", err)
		}
		t.Skipf("%v; skipping (set LEVLAB_REQUIRE_BROWSER=1 to make this a failure)", err)
	}
	for _, p := range allPayloads {
		t.Run(p, func(t *testing.T) { hostileInBrowser(t, p) })
	}
}

func hostileInBrowser(t *testing.T, p string) {
	path := filepath.Join(t.TempDir(), "report.html")
	if err := WriteFile(path, Options{Results: hostileResults(t, p)}); err != nil {
		t.Fatal(err)
	}
	// Show the tooltip of every point of every series of every chart, as a
	// mouse over it would, and keep what each showed; then give any image a
	// tooltip made the time to fail and fire its onerror.
	const probe = `(async () => {
  const tips = [];
  for (const el of document.querySelectorAll('[_echarts_instance_]')) {
    const c = echarts.getInstanceByDom(el);
    c.getOption().series.forEach((s, i) => {
      (s.data || []).forEach((_, j) => {
        c.dispatchAction({type: 'showTip', seriesIndex: i, dataIndex: j});
        const tip = [...el.querySelectorAll('div')].find(d => d.style.zIndex === '9999999');
        tips.push(tip ? tip.innerText : '');
        c.dispatchAction({type: 'hideTip'});
      });
    });
  }
  await new Promise(r => setTimeout(r, 500));
  return {pwned: String(window.__pwned), images: document.images.length, text: document.body.innerText, tips: tips};
})()`
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, raw, err := chromium.Inspect(ctx, path, probe)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Pwned  string
		Images int
		Text   string
		Tips   []string
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("probe: %v (%s)", err, raw)
	}
	if got.Pwned != "undefined" {
		t.Errorf("window.__pwned = %s: a payload ran", got.Pwned)
	}
	if got.Images != 0 {
		t.Errorf("%d <img> elements in the page; the report has none of its own", got.Images)
	}
	for _, e := range res.ConsoleErrors {
		t.Errorf("console: %s", e)
	}
	if res.Containers == 0 || res.Charts != res.Containers {
		t.Errorf("%d of %d chart containers hold a drawn chart; want all, and at least one", res.Charts, res.Containers)
	}
	if !strings.Contains(got.Text, p) {
		t.Errorf("the page's text lacks %q", p)
	}
	t.Logf("%d charts drawn, %d tooltips shown", res.Charts, len(got.Tips))
	shown := false
	for _, tip := range got.Tips {
		shown = shown || strings.Contains(tip, p)
	}
	if !shown {
		t.Errorf("no tooltip shows %q as text (%d tooltips shown)", p, len(got.Tips))
	}
}

// TestHostileStringsHTML checks the HTML's bytes where a browser cannot
// tell: no tag is written from data, no data string closes a <script>,
// and each chart's option (JSON inside <script>) holds no <, >, & or
// function marker.
func TestHostileStringsHTML(t *testing.T) {
	out := render(t, Options{Results: hostileResults(t, allPayloads...)})
	_, body, _ := strings.Cut(out, "</head>") // the library is in the head
	for _, bad := range []string{"<img", "<b>"} {
		if strings.Contains(body, bad) {
			t.Errorf("the HTML holds %q", bad)
		}
	}
	// Every </script> ends one of ours: the library's, or a chart's.
	if opened, closed := strings.Count(out, "<script"), strings.Count(strings.ToLower(out), "</script"); opened != closed {
		t.Errorf("%d <script> tags, %d </script>", opened, closed)
	}
	options := regexp.MustCompile(`let option_\w+ = (\{.*\})`).FindAllStringSubmatch(out, -1)
	if len(options) == 0 {
		t.Fatal("no chart option in the HTML")
	}
	for _, m := range options {
		if strings.ContainsAny(m[1], "<>&\u2028\u2029") || strings.Contains(m[1], "__f__") {
			t.Errorf("a chart's option holds <, >, &, a line separator or __f__: %.300s", m[1])
		}
	}
}

// TestHostileStringsMarkdown: in the Markdown report every payload is
// escaped, so that nothing renders as HTML, a link, an image, code or
// emphasis, and no table row is split.
func TestHostileStringsMarkdown(t *testing.T) {
	out := render(t, Options{Results: hostileResults(t, allPayloads...), Format: FormatMarkdown})
	for _, want := range []string{
		`\<img src=x onerror=window.\_\_pwned=3\>`,
		`\</script\>\<img src=x onerror=window.\_\_pwned=1\>`,
		`\_\_f\_\_(function(){window.\_\_pwned=2})()\_\_f\_\_`,
		"[x\\](javascript:alert(1)) \\| \\`c\\` \\*b\\* \\_i\\_ ![i\\](x) \\<b\\>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %s", want)
		}
	}
	for _, bad := range []string{"<img", "<b>", "](javascript:", "](x)", "`c`", "*b*", "</script", "_i_"} {
		// bad, with no backslash before it that is not itself escaped
		if regexp.MustCompile(`(^|[^\\])(\\\\)*` + regexp.QuoteMeta(bad)).MatchString(out) {
			t.Errorf("Markdown holds %q unescaped", bad)
		}
	}
	// A table row has as many unescaped bars as its header.
	bar := regexp.MustCompile(`(^|[^\\])(\\\\)*\|`)
	cols := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := len(bar.FindAllString(line, -1))
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("a table row with %d cells' bars, its header %d: %s", n, cols, line)
		}
	}
}

func TestMDText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, 0.38 [0.1–0.3] (x)", "plain text, 0.38 [0.1–0.3] (x)"},
		{"a|b", `a\|b`},
		{"[x](y) [x][y] [x]: z ![i](j)", `[x\](y) [x\][y] [x\]: z ![i\](j)`},
		{"<b>&amp; & x", `\<b\>\&amp; & x`},
		{"*e* _e_ snake_case __x", `\*e\* \_e\_ snake_case \_\_x`},
		{"`c` ~~s~~ \\", "\\`c\\` \\~\\~s\\~\\~ \\\\"},
		{"# h", `\# h`},
		{"one\ntwo\r\nthree", "one two  three"},
		{"- item", `\- item`},
		{"---", `\---`},
		{"-1.5", "-1.5"},
		{"1. item", `1\. item`},
		{"2) item", `2\) item`},
		{"0.38", "0.38"},
	} {
		if got := document.MdText(c.in); got != c.want {
			t.Errorf("mdText(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestScriptJSON(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"</script>&", `"\u003c/script\u003e\u0026"`},
		{"a\u2028b\u2029", `"a\u2028b\u2029"`},
		{"__f__x__f__", `"\u005f_f__x\u005f_f__"`},
		{"__f__f__", `"\u005f_f\u005f_f__"`},
		{map[string]string{"__f__": "1"}, `{"\u005f_f__":"1"}`},
	} {
		got, err := document.ScriptJSON(c.in)
		if err != nil || got != c.want {
			t.Errorf("scriptJSON(%q) = %s, %v; want %s", c.in, got, err, c.want)
		}
		var back any
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("scriptJSON(%q) = %s: not JSON: %v", c.in, got, err)
		}
	}
}
