package nb

import (
	"context"
	"fmt"
	"time"

	"github.com/levlab/levlab/report"
)

// ExportFigure draws a figure of the report into dir as <id>.svg and
// <id>.png and returns their paths, the SVG first: the report's own chart
// (report.ExportFigures) — the same colours, lines, whiskers and units as
// the HTML, the legend above the plot, no title — at 800 × 480 CSS
// pixels, the PNG at 1600 × 960. Names from data are text in the SVG.
// Each call starts headless Chromium (about a second); ExportFigures draws
// many in one. A figure without a line, or without Chromium, is an error
// (the latter wraps chromium.ErrUnavailable and says how to install it).
func ExportFigure(dir string, f report.Figure) ([]string, error) {
	return ExportFigures(dir, []report.Figure{f})
}

// ExportFigures draws figures as ExportFigure does, with one Chromium,
// and returns the paths of their files in order, each SVG before its PNG.
func ExportFigures(dir string, figs []report.Figure) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	paths, err := report.ExportFigures(ctx, dir, figs)
	if err != nil {
		return nil, fmt.Errorf("nb: %w", err)
	}
	return paths, nil
}
