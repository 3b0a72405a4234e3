package chromium

import (
	"context"
	"fmt"
	"math"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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
		o.PaperWidth, o.PaperHeight = chromedp.PaperA4.Width, chromedp.PaperA4.Height
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
	if _, err := chromedp.Call(c, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		return nil, err
	}
	if err := evaluate(c, settle, nil); err != nil {
		return nil, err
	}
	footer := o.Footer != ""
	return chromedp.Run(c, chromedp.PrintToPDF(func(q *page.PrintToPDFParams) {
		q.PaperWidth, q.PaperHeight = o.PaperWidth, o.PaperHeight
		q.MarginTop, q.MarginBottom, q.MarginLeft, q.MarginRight = &o.Margin, &o.Margin, &o.Margin, &o.Margin
		q.PrintBackground, q.PreferCSSPageSize = &o.PrintBackground, &o.PreferCSSPageSize
		q.DisplayHeaderFooter = &footer
		q.HeaderTemplate, q.FooterTemplate = "<span></span>", o.Footer
		q.TransferMode = page.PrintToPDFTransferModeReturnAsStream
	}))
}
