package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/levlab/levlab/internal/chromium"
)

func TestWritePDF(t *testing.T) {
	needBrowser(t)
	var out bytes.Buffer
	start := time.Now()
	if err := document.WritePDF(timeout(t), &out, smallDoc(3, plainNames)); err != nil {
		t.Fatal(err)
	}
	t.Logf("PDF in %v: %d bytes", time.Since(start).Round(time.Millisecond), out.Len())
	if !bytes.HasPrefix(out.Bytes(), []byte("%PDF-")) {
		t.Errorf("writePDF wrote %q…; want a PDF", out.Bytes()[:min(out.Len(), 16)])
	}
}

// svgText parses an SVG file as XML: its root must be <svg>; it returns
// the names of its elements and its text.
func svgText(t *testing.T, path string) (elements map[string]bool, text string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	elements = map[string]bool{}
	var b strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			elements[tok.Name.Local] = true
		case xml.CharData:
			b.Write(tok)
			b.WriteByte('\n')
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element <%s>; want <svg>", path, root)
	}
	return elements, b.String()
}

func TestWriteFigures(t *testing.T) {
	needBrowser(t)
	dir := filepath.Join(t.TempDir(), "figures") // made by writeFigures
	d := smallDoc(3, plainNames)
	empty := &document.Figure{ID: "nothing", Title: "no points"}
	d.Sections[0].Add(empty)
	start := time.Now()
	paths, err := document.WriteFigures(timeout(t), dir, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("figures in %v: %v", time.Since(start).Round(time.Millisecond), paths)
	want := []string{filepath.Join(dir, "smalltime.svg"), filepath.Join(dir, "smalltime.png")}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("paths %q; want %q (a chart without points draws nothing)", paths, want)
	}
	f, err := os.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", paths[1], err)
	}
	if b := img.Bounds(); b.Dx() < 1600 || b.Dy() < 900 {
		t.Errorf("PNG of %d × %d px; want at least 1600 wide", b.Dx(), b.Dy())
	}
	if r, g, b, _ := img.At(2, 2).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
		t.Errorf("PNG corner %x %x %x; want white", r, g, b)
	}
	_, text := svgText(t, paths[0])
	for _, want := range []string{"algorithm-0", "algorithm-2", "time (s)", "string length (characters)", " ms", "10,000"} {
		if !strings.Contains(text, want) {
			t.Errorf("the SVG's text lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"Time vs length", "e-", "E-", "save as PNG"} {
		if strings.Contains(text, bad) {
			t.Errorf("the SVG's text holds %q:\n%s", bad, text)
		}
	}
}

// TestFigureHostileNames: names from data stay text in the SVG, which
// holds no element but the drawing's, and the files, opened in Chromium —
// the SVG alone and inlined in a page, as a notebook shows it — run
// nothing.
func TestFigureHostileNames(t *testing.T) {
	needBrowser(t)
	hostile := []string{`</script><img src=x onerror=alert(1)>`, `__f__(function(){window.__pwned=1})()__f__`, pwnImg, pwnScript}
	f := document.Figure{ID: "hostile", Title: hostile[0], XName: hostile[1], YName: hostile[2], MarkY: 3, MarkName: hostile[3]}
	for i, h := range hostile {
		f.Series = append(f.Series, document.FigureSeries{Name: h, Points: []document.FigurePoint{
			{X: 1, Y: float64(i + 1), Lo: float64(i), Hi: float64(i + 2)}, {X: 2, Y: float64(i + 2), Lo: float64(i + 2), Hi: float64(i + 2)},
		}})
	}
	dir := t.TempDir()
	paths, err := document.ExportFigures(timeout(t), dir, []document.Figure{f})
	if err != nil {
		t.Fatal(err)
	}
	elements, text := svgText(t, paths[0])
	for _, bad := range []string{"img", "script", "foreignObject", "a", "iframe"} {
		if elements[bad] {
			t.Errorf("the SVG holds a <%s> element", bad)
		}
	}
	for _, h := range hostile {
		if !strings.Contains(text, h) {
			t.Errorf("the SVG's text lacks %q", h)
		}
	}
	svg, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	_, inline, _ := strings.Cut(string(svg), "\n") // the XML declaration
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte("<!DOCTYPE html>\n<html><body>\n"+inline+"</body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const probe = `(async () => {
  await new Promise(r => setTimeout(r, 300));
  return {pwned: String(window.__pwned), images: document.getElementsByTagName('img').length, text: document.documentElement.textContent};
})()`
	for _, p := range []string{paths[0], page} {
		res, raw, err := chromium.Inspect(timeout(t), p, probe)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Pwned  string
			Images int
			Text   string
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %v (%s)", p, err, raw)
		}
		if got.Pwned != "undefined" || got.Images != 0 {
			t.Errorf("%s: window.__pwned = %s, %d <img>: a name ran", p, got.Pwned, got.Images)
		}
		for _, h := range hostile {
			if !strings.Contains(got.Text, h) {
				t.Errorf("%s: the text lacks %q", p, h)
			}
		}
		for _, e := range res.ConsoleErrors {
			t.Errorf("%s: console: %s", p, e)
		}
	}
}

// TestExportFiguresRefuses: ids that cannot be file names, two figures of
// one id, and a figure without a line are errors before any drawing.
func TestExportFiguresRefuses(t *testing.T) {
	line := []document.FigureSeries{{Name: "s", Points: []document.FigurePoint{{X: 1, Y: 1, Lo: 1, Hi: 1}, {X: 2, Y: 2, Lo: 2, Hi: 2}}}}
	dir := t.TempDir()
	for _, c := range []struct {
		figs []document.Figure
		want string
	}{
		{[]document.Figure{{ID: "../x", Series: line}}, "figure id"},
		{[]document.Figure{{ID: "a b", Series: line}}, "figure id"},
		{[]document.Figure{{ID: "a", Series: line}, {ID: "a", Series: line}}, "two figures"},
		{[]document.Figure{{ID: "a"}}, "no line"},
	} {
		if paths, err := document.ExportFigures(context.Background(), dir, c.figs); err == nil || !strings.Contains(err.Error(), c.want) || paths != nil {
			t.Errorf("%+v: %v, %q; want an error about %q", c.figs, err, paths, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused figures left %d files", len(entries))
	}
}
