package document

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/internal/chromium"
)

// WriteFigures draws every chart of d that has points as <dir>/<id>.svg
// and <dir>/<id>.png and returns their paths in the document's order, an
// SVG then its PNG. The figures are the HTML's charts — the same option,
// functions and layout — at figureWidth × figureHeight, on white, without
// the toolbox; the PNG has two pixels per CSS pixel (1600 wide). dir is
// made when missing, and each file is written whole or not at all. It
// needs headless Chromium: where there is none, the error wraps
// chromium.ErrUnavailable.
func WriteFigures(ctx context.Context, dir string, d *Doc) ([]string, error) {
	var cs []*Figure
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			if c, ok := b.(*Figure); ok && !c.Empty() {
				cs = append(cs, c)
			}
		}
	}
	return exportCharts(ctx, dir, cs)
}

// ExportFigures draws figures, as the report draws its charts, into dir as
// <ID>.svg and <ID>.png (see Section.Figures), and returns their paths in
// order, an SVG then its PNG: 800 × 480 CSS pixels, the PNG at 1600 × 960,
// on white, the title left to the page that shows them. An ID that is not
// a plain name (a letter, then letters, digits or _), two figures of one
// ID, or a figure without points is an error, and nothing is drawn. It
// takes about a second to start Chromium, then a fraction of one per
// figure; where Chromium is missing the error wraps
// chromium.ErrUnavailable.
func ExportFigures(ctx context.Context, dir string, figs []Figure) ([]string, error) {
	cs := make([]*Figure, 0, len(figs))
	seen := map[string]bool{}
	for _, f := range figs {
		if !ChartID().MatchString(f.ID) {
			return nil, fmt.Errorf("report: figure id %q: want a letter, then letters, digits or _", f.ID)
		}
		if seen[f.ID] {
			return nil, fmt.Errorf("report: two figures of id %s", f.ID)
		}
		seen[f.ID] = true
		c := &f
		if c.Empty() {
			return nil, fmt.Errorf("report: figure %s (%s) has no line to draw", f.ID, f.Title)
		}
		cs = append(cs, c)
	}
	return exportCharts(ctx, dir, cs)
}

// exportCharts writes the figures of cs (ids checked, none empty).
func exportCharts(ctx context.Context, dir string, cs []*Figure) ([]string, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	if _, err := chromium.Available(); err != nil {
		return nil, fmt.Errorf("report: figures need headless Chromium (Debian: apt-get install chromium): %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	page, err := figurePage(cs)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "levlab-figures-")
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer os.RemoveAll(tmp)
	pagePath := filepath.Join(tmp, "figures.html")
	if err := os.WriteFile(pagePath, page, 0o644); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	p, err := chromium.Open(ctx, pagePath, chromium.Viewport{Width: figureWidth + 40, Height: figureHeight + 40})
	if err != nil {
		return nil, fmt.Errorf("report: figures: %w", err)
	}
	defer p.Close()
	var paths []string
	for i, c := range cs {
		var got struct{ SVG, PNG string }
		if err := p.Evaluate(ctx, fmt.Sprintf("drawFigure(%d)", i), &got); err != nil {
			return nil, fmt.Errorf("report: figure %s: %w", c.ID, err)
		}
		png, ok := strings.CutPrefix(got.PNG, "data:image/png;base64,")
		if !ok {
			return nil, fmt.Errorf("report: figure %s: the browser gave no PNG (%.40q)", c.ID, got.PNG)
		}
		pngData, err := base64.StdEncoding.DecodeString(png)
		if err != nil {
			return nil, fmt.Errorf("report: figure %s: PNG: %w", c.ID, err)
		}
		if !strings.HasPrefix(got.SVG, "<svg") {
			return nil, fmt.Errorf("report: figure %s: the browser gave no SVG (%.40q)", c.ID, got.SVG)
		}
		svgData := []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + got.SVG + "\n")
		for _, f := range []struct {
			ext  string
			data []byte
		}{{"svg", svgData}, {"png", pngData}} {
			path := filepath.Join(dir, c.ID+"."+f.ext)
			if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(f.data); return err }); err != nil {
				return nil, fmt.Errorf("report: %w", err)
			}
			paths = append(paths, path)
		}
	}
	if res, err := p.Result(ctx); err == nil && len(res.ConsoleErrors) > 0 {
		return paths, fmt.Errorf("report: figures: the page showed errors: %s", strings.Join(res.ConsoleErrors, "; "))
	}
	return paths, nil
}

// figurePage is the page the figures are drawn in: ECharts, then each
// chart's option for export (as the HTML's, without the toolbox and on
// white) as JSON that no string leaves (scriptJSON), and drawFigure(i),
// which draws figure i on a canvas for its PNG and with the SVG renderer,
// server-side (no element), for its SVG, both laid out by chartJS as the
// HTML's charts are.
func figurePage(cs []*Figure) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>figures</title>\n")
	b.WriteString("<style>body{margin:0;background:#fff}div.figure{margin:20px}</style>\n")
	b.WriteString("<script type=\"text/javascript\">\n" + EChartsJS + "\n</script>\n</head>\n<body>\n")
	options := make([]map[string]any, len(cs))
	for i, c := range cs {
		fmt.Fprintf(&b, "<div class=\"figure\" id=\"%s\" style=\"width:%dpx;height:%dpx\"></div>\n", c.ID, figureWidth, figureHeight)
		_, o := c.Option(fmt.Sprintf("%dpx", figureWidth), fmt.Sprintf("%dpx", figureHeight))
		delete(o, "toolbox")
		o["backgroundColor"] = "#fff"
		options[i] = o
	}
	js, err := ScriptJSON(options)
	if err != nil {
		return nil, fmt.Errorf("report: figures: %w", err)
	}
	ids, err := ScriptJSON(chartIDs(cs))
	if err != nil {
		return nil, fmt.Errorf("report: figures: %w", err)
	}
	fmt.Fprintf(&b, `<script type="text/javascript">
"use strict";
const levlab = %s;
const options = %s;
const ids = %s;
// A fresh copy of figure i's option for each drawing: prepare writes
// functions into it, and ECharts keeps what it is given.
function figureOption(i) { return levlab.prepare(JSON.parse(JSON.stringify(options[i]))); }
function drawFigure(i) {
  const size = {width: %d, height: %d};
  const canvas = echarts.init(document.getElementById(ids[i]), null, Object.assign({renderer: 'canvas'}, size));
  canvas.setOption(figureOption(i));
  levlab.fit(canvas);
  const png = canvas.getDataURL({type: 'png', pixelRatio: 2, backgroundColor: '#fff'});
  canvas.dispose();
  const vector = echarts.init(null, null, Object.assign({renderer: 'svg', ssr: true}, size));
  vector.setOption(figureOption(i));
  levlab.fit(vector);
  const svg = vector.renderToSVGString();
  vector.dispose();
  return {svg: svg, png: png};
}
</script>
</body>
</html>
`, ChartJS, js, ids, figureWidth, figureHeight)
	return b.Bytes(), nil
}

func chartIDs(cs []*Figure) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

// pdfMargin is the margin of the PDF's pages, in inches (1.5 cm).
const pdfMargin = 1.5 / 2.54

// pdfFooter is each PDF page's footer: the report's byline (its date and
// levlab's commit) and the page's number of the pages.
func pdfFooter(d *Doc) string {
	line := "levlab"
	if d.Byline != "" {
		line = strings.TrimSuffix(d.Byline, ".")
		if i := strings.Index(line, " from "); i > 0 {
			// The runs are on the first page; the dates stay.
			dates := ""
			if j := strings.LastIndex(line, ", measured "); j > i {
				dates = line[j:]
			}
			line = line[:i] + dates
		}
	}
	return `<div style="font-size:8px;color:#666;width:100%;padding:0 1.5cm;display:flex;justify-content:space-between">` +
		`<span>` + htmlText(line) + `</span><span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`
}

// WritePDF writes d as a PDF of A4 pages: the HTML report (writeHTML),
// laid out for print at the width an A4 page leaves between margins of
// 1.5 cm (the page's own @page rules win where it has them), its charts
// drawn and sized to that width, printed by headless Chromium. Where
// Chromium is missing, the error wraps chromium.ErrUnavailable.
func WritePDF(ctx context.Context, w io.Writer, d *Doc) error {
	if _, err := chromium.Available(); err != nil {
		return fmt.Errorf("report: PDF needs headless Chromium (Debian: apt-get install chromium): %w", err)
	}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, d); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "levlab-pdf-")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer os.RemoveAll(tmp)
	path := filepath.Join(tmp, "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	pdf, err := chromium.PrintPDF(ctx, path, chromium.PDFOptions{
		Margin: pdfMargin, PrintBackground: true, PreferCSSPageSize: true,
		Footer: pdfFooter(d),
	})
	if err != nil {
		return fmt.Errorf("report: PDF: %w", err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return errors.New("report: PDF: the browser's print is not a PDF")
	}
	if _, err := w.Write(pdf); err != nil {
		return fmt.Errorf("report: PDF: %w", err)
	}
	return nil
}
