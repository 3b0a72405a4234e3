package nb

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/report"
)

// FigureFormats are the files ExportFigure writes for each figure.
var FigureFormats = []string{"svg", "png"}

// palette colours a figure's series in order, as the report does.
var palette = []color.RGBA{
	{0x54, 0x70, 0xc6, 0xff}, {0x91, 0xcc, 0x75, 0xff}, {0xfa, 0xc8, 0x58, 0xff}, {0xee, 0x66, 0x66, 0xff},
	{0x73, 0xc0, 0xde, 0xff}, {0x3b, 0xa2, 0x72, 0xff}, {0xfc, 0x84, 0x52, 0xff}, {0x9a, 0x60, 0xb4, 0xff},
	{0xea, 0x7c, 0xcc, 0xff}, {0x2f, 0x45, 0x54, 0xff}, {0xb8, 0x86, 0x0b, 0xff}, {0x00, 0x8b, 0x8b, 0xff},
}

// ExportFigure draws a figure of the report into dir as <id>.svg and
// <id>.png (15 × 9 cm; the PNG at 150 dpi) and returns their paths: each
// series a line through its medians, dashed for the course report's own
// numbers, with bars from min to max where the repetitions spread. On a
// log axis, points at or below zero are left out. The names (title, axes,
// series, mark) are drawn as text: gonum's SVG writer escapes them for
// XML (vg/vgsvg), and the PNG holds pixels.
func ExportFigure(dir string, f report.Figure) ([]string, error) {
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XName
	p.Y.Label.Text = f.YName
	p.Legend.Top, p.Legend.Left = true, true // most curves rise: the top left is free
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(4)
	if f.XLog {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	if f.YLog {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	keep := func(pt report.FigurePoint) bool {
		return (!f.XLog || pt.X > 0) && (!f.YLog || pt.Lo > 0 && pt.Y > 0)
	}
	drawn := 0
	for i, s := range f.Series {
		var xys plotter.XYs
		var errs plotter.YErrors
		spread := false
		for _, pt := range s.Points {
			if !keep(pt) || math.IsNaN(pt.Y) || math.IsInf(pt.Y, 0) {
				continue
			}
			xys = append(xys, plotter.XY{X: pt.X, Y: pt.Y})
			errs = append(errs, struct{ Low, High float64 }{pt.Y - pt.Lo, pt.Hi - pt.Y})
			spread = spread || pt.Lo != pt.Hi
		}
		if len(xys) == 0 {
			continue
		}
		col := palette[i%len(palette)]
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("nb: figure %s, series %s: %w", f.ID, s.Name, err)
		}
		line.Color, points.Color = col, col
		points.Shape = draw.CircleGlyph{}
		if s.Published {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			points.Shape = draw.PyramidGlyph{}
		}
		p.Add(line, points)
		p.Legend.Add(s.Name, line, points)
		if spread {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{xys, errs})
			if err != nil {
				return nil, fmt.Errorf("nb: figure %s, series %s: %w", f.ID, s.Name, err)
			}
			eb.Color = col
			p.Add(eb)
		}
		drawn++
	}
	if drawn == 0 {
		return nil, fmt.Errorf("nb: figure %s (%s) has no point to draw", f.ID, f.Title)
	}
	if f.MarkY > 0 {
		h := plotter.NewFunction(func(float64) float64 { return f.MarkY })
		h.Color, h.Dashes = color.Gray{Y: 0x88}, []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(h)
		p.Legend.Add(f.MarkName, h)
		// A function sets no range: make room for the line.
		p.Y.Max = max(p.Y.Max, f.MarkY*1.05)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("nb: %w", err)
	}
	var paths []string
	for _, ext := range FigureFormats {
		path := filepath.Join(dir, fileName(f.ID)+"."+ext)
		w, err := p.WriterTo(15*vg.Centimeter, 9*vg.Centimeter, ext)
		if err != nil {
			return nil, fmt.Errorf("nb: figure %s: %w", f.ID, err)
		}
		if err := writeFile(path, func(fh io.Writer) error { _, err := w.WriteTo(fh); return err }); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// ExportMarkdown writes sections of the report as one Markdown file,
// dir/name, headed by title, and returns its path. The title is text
// (report.MarkdownText escapes it: it may name a results folder); the
// sections' Markdown is the report's, escaped there.
func ExportMarkdown(dir, name, title string, secs []report.Section) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("nb: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", report.MarkdownText(title))
	for _, s := range secs {
		b.WriteString("\n" + s.Markdown)
	}
	path := filepath.Join(dir, fileName(name))
	return path, writeFile(path, func(fh io.Writer) error { _, err := io.WriteString(fh, b.String()); return err })
}

// fileName keeps letters, digits, '-', '_' and '.' of s.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// writeFile writes path whole or not at all (atomicfile).
func writeFile(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("nb: %w", err)
	}
	return nil
}
