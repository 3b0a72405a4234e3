package chromium

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math"
)

// PDFOptions say how PrintPDF lays out the paper. Lengths are in inches.
type PDFOptions struct {
	// PaperWidth and PaperHeight: zero is A4 (8.27 × 11.69).
	PaperWidth, PaperHeight float64
	// Margin is the margin on every side.
	Margin float64
	// PrintBackground prints backgrounds (table heads, white chart
	// backgrounds); PreferCSSPageSize lets the page's @page size win over
	// PaperWidth and PaperHeight.
	PrintBackground, PreferCSSPageSize bool
	// Scale is the pixels per CSS pixel of the page's canvases (charts
	// drawn on a canvas are printed as images); zero is 2.
	Scale float64
	// Footer, where not empty, is the HTML of each page's footer, drawn in
	// the bottom margin: Chromium fills elements of class pageNumber,
	// totalPages, date and title. Its styles must be inline.
	Footer string
}

// PrintPDF opens htmlPath as Open does, at the width the paper leaves
// between its margins (96 CSS pixels an inch), switches the page to print
// media, lets its charts follow (a window resize event, then two animation
// frames) and prints it. It returns the PDF, which comes as a stream read
// in pieces, so that a report of many pages needs no single message of
// its size.
func PrintPDF(ctx context.Context, htmlPath string, o PDFOptions) ([]byte, error) {
	if o.PaperWidth <= 0 || o.PaperHeight <= 0 {
		o.PaperWidth, o.PaperHeight = 8.27, 11.69 // A4
	}
	if o.Scale <= 0 {
		o.Scale = 2
	}
	if o.Margin < 0 || 2*o.Margin >= min(o.PaperWidth, o.PaperHeight) {
		return nil, fmt.Errorf("chromium: margin %g in leaves no room on paper %g × %g in", o.Margin, o.PaperWidth, o.PaperHeight)
	}
	vp := Viewport{
		Width:  int(math.Round((o.PaperWidth - 2*o.Margin) * 96)),
		Height: int(math.Round((o.PaperHeight - 2*o.Margin) * 96)),
		Scale:  o.Scale,
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	p, err := Open(ctx, htmlPath, vp)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	pdf, err := p.printPDF(ctx, o)
	if err != nil {
		return nil, p.wrap(err)
	}
	return pdf, nil
}

// settle lets charts follow a change of layout: listeners of the resize
// event (the report's charts resize and lay out their legend there) run,
// then the browser draws twice.
const settle = `(async () => {
  window.dispatchEvent(new Event('resize'));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
})()`

func (p *Page) printPDF(ctx context.Context, o PDFOptions) ([]byte, error) {
	c, done := p.within(ctx)
	defer done()
	if err := p.b.call(c, p.session, "Emulation.setEmulatedMedia", map[string]any{"media": "print"}, nil); err != nil {
		return nil, err
	}
	if err := evaluate(c, p.b, p.session, settle, nil); err != nil {
		return nil, err
	}
	var printed struct {
		Stream string `json:"stream"`
	}
	if err := p.b.call(c, p.session, "Page.printToPDF", map[string]any{
		"paperWidth": o.PaperWidth, "paperHeight": o.PaperHeight,
		"marginTop": o.Margin, "marginBottom": o.Margin, "marginLeft": o.Margin, "marginRight": o.Margin,
		"printBackground": o.PrintBackground, "preferCSSPageSize": o.PreferCSSPageSize,
		"displayHeaderFooter": o.Footer != "",
		"headerTemplate":      "<span></span>", "footerTemplate": o.Footer,
		"transferMode": "ReturnAsStream",
	}, &printed); err != nil {
		return nil, err
	}
	// The stream is read in pieces, each base64 in JSON, and closed.
	var pdf bytes.Buffer
	for {
		var piece struct {
			Data          string `json:"data"`
			Base64Encoded bool   `json:"base64Encoded"`
			EOF           bool   `json:"eof"`
		}
		if err := p.b.call(c, p.session, "IO.read", map[string]any{"handle": printed.Stream, "size": 1 << 20}, &piece); err != nil {
			return nil, err
		}
		if piece.Base64Encoded {
			raw, err := base64.StdEncoding.DecodeString(piece.Data)
			if err != nil {
				return nil, fmt.Errorf("IO.read: %w", err)
			}
			pdf.Write(raw)
		} else {
			pdf.WriteString(piece.Data)
		}
		if piece.EOF {
			break
		}
	}
	if err := p.b.call(c, p.session, "IO.close", map[string]any{"handle": printed.Stream}, nil); err != nil {
		return nil, err
	}
	return pdf.Bytes(), nil
}
