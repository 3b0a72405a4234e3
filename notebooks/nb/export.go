package nb

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/report"
)

// ExportFigure draws a figure of the report into dir as <id>.svg and
// <id>.png and returns their paths, the SVG first: the report's own chart
// (report.ExportFigures) — the same colours, lines, whiskers and units as
// the HTML, the legend above the plot, no title — at 800 × 480 CSS
// pixels, the PNG at 1600 × 960. Names from data are text in the SVG.
// Each call starts headless Chromium (about a second); ExportFigures draws
// many in one. A figure without a line, or without Chromium, is an error
// (the latter wraps browser.ErrUnavailable and says how to install it).
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
