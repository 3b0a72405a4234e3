package document

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/levlab/levlab/internal/alignview"
)

//go:embed report.css
var cssFile string

// css lays the report out for a screen of any width and for A4 paper: the
// page never scrolls sideways (a table wider than the column scrolls in
// its own box on a screen and wraps on paper), and on paper no chart or
// table is cut by a page break.
//
// It is report.css without the file's last newline.
var css = strings.TrimSuffix(cssFile, "\n")

func WriteHTML(w *bytes.Buffer, d *Doc) error {
	e := htmlText
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>%s</style>\n", e(d.Title), css)
	// ECharts inline: the report fetches nothing. A "</script" inside the
	// library would end the tag early; it holds none (checked in tests).
	w.WriteString("<script type=\"text/javascript\">\n/*\n" + strings.ReplaceAll(EChartsNotice, "*/", "* /") + "\nApache License 2.0: https://www.apache.org/licenses/LICENSE-2.0\n*/\n")
	w.WriteString(EChartsJS)
	w.WriteString("\n</script>\n</head>\n<body>\n")
	fmt.Fprintf(w, "<h1>%s</h1>\n", e(d.Title))
	if d.Byline != "" {
		fmt.Fprintf(w, "<p class=\"byline\">%s</p>\n", e(d.Byline))
	}
	w.WriteString("<nav><ul>\n")
	for _, s := range d.Sections {
		fmt.Fprintf(w, "<li><a href=\"#%s\">%s</a></li>\n", s.ID, e(shortTitle(s.Title)))
	}
	w.WriteString("</ul></nav>\n")
	for _, s := range d.Sections {
		if err := WriteHTMLSection(w, s); err != nil {
			return err
		}
	}
	w.WriteString("</body>\n</html>\n")
	return nil
}

// shortTitle is a section's title up to its dash, for the contents line.
func shortTitle(t string) string {
	if a, _, ok := strings.Cut(t, " — "); ok {
		return a
	}
	if a, _, ok := strings.Cut(t, ": "); ok {
		return a
	}
	return t
}

// WriteHTMLSection writes one section as a <section> element.
func WriteHTMLSection(w *bytes.Buffer, s Section) error {
	e := htmlText
	class := ""
	if s.Screen {
		class = ` class="screen"`
	}
	fmt.Fprintf(w, "<section id=\"%s\"%s>\n<h2>%s</h2>\n", s.ID, class, e(s.Title))
	if s.Source != "" {
		fmt.Fprintf(w, "<p class=\"source\">Source: %s</p>\n", e(s.Source))
	}
	for _, b := range s.Blocks {
		switch b := b.(type) {
		case Para:
			fmt.Fprintf(w, "<p>%s</p>\n", e(string(b)))
		case *Table:
			writeHTMLTable(w, b)
		case *Drawing:
			writeHTMLDrawing(w, b)
		case *Figure:
			if b.Empty() {
				continue // a single point is a number, which the text gives
			}
			el, sc, err := b.Render()
			if err != nil {
				return err
			}
			w.WriteString(el + "\n" + sc + "\n")
		default:
			return fmt.Errorf("report: block of type %T", b)
		}
	}
	w.WriteString("</section>\n")
	return nil
}

// drawingColors are the colours of a column's symbols by its edit: green
// a match, orange a substitution, red a gap and the symbol facing it.
var drawingColors = map[byte]string{alignview.Match: "color:#2a7a2a", alignview.Subst: "color:#b35900;font-weight:700",
	alignview.Ins: "color:#b00020;font-weight:700", alignview.Del: "color:#b00020;font-weight:700"}

// writeHTMLDrawing writes an alignment as preformatted lines, a column's
// symbols coloured by its edit, styled inline so that it reads the same
// without the report's stylesheet (in a notebook).
func writeHTMLDrawing(w *bytes.Buffer, d *Drawing) {
	e := htmlText
	class := "align"
	if d.Screen {
		class += " screen"
	}
	fmt.Fprintf(w, "<figure class=\"%s\" style=\"margin:.4em 0 1em\"><figcaption style=\"font-weight:600;font-size:.88em;padding:4px 0\">%s</figcaption>", class, e(d.Caption))
	w.WriteString("<pre style=\"overflow-x:auto;background:#f7f7f7;border:1px solid #ddd;padding:6px 8px;margin:0;font-size:.95em;line-height:1.3\">")
	for i, b := range d.blocks {
		if i > 0 {
			w.WriteString("\n\n")
		}
		var top, mid, bot strings.Builder
		for _, c := range b.Cols {
			style := drawingColors[c.Op]
			wd := max(c.A.Width, c.B.Width)
			fmt.Fprintf(&top, "<span style=\"%s\">%s</span>%s", style, e(c.A.Text), strings.Repeat(" ", wd-c.A.Width))
			fmt.Fprintf(&mid, "%s%s", e(c.Mark()), strings.Repeat(" ", wd-1))
			fmt.Fprintf(&bot, "<span style=\"%s\">%s</span>%s", style, e(c.B.Text), strings.Repeat(" ", wd-c.B.Width))
		}
		fmt.Fprintf(w, "A  %s\n   %s\nB  %s", top.String(), strings.TrimRight(mid.String(), " "), bot.String())
	}
	w.WriteString("</pre></figure>\n")
}

// AlignmentHTML returns the alignment of a and b (compared rune by rune)
// that cigar, an extended CIGAR with a as the query, says, drawn as the
// report draws its alignments: blocks of width columns (60 if width < 1)
// under a caption that gives what, the distance and the CIGAR, the
// symbols coloured by their edit, styled inline so that it reads the same
// on any page. A CIGAR that is no alignment of a and b is an error naming
// why.
func AlignmentHTML(what, a, b, cigar string, width int) (string, error) {
	if width < 1 {
		width = 60
	}
	d, err := DrawAlignment(what, a, b, cigar, width)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	writeHTMLDrawing(&buf, d)
	return buf.String(), nil
}

// writeHTMLTable writes a table in its own scrolling box; a cell's second
// line (after "\n") is the spread of its value, shown smaller below it
// (a <br>, so that the line breaks under any stylesheet: a notebook shows
// the section without the page's).
// A folded table shows its caption, and its rows on a click.
func writeHTMLTable(w io.Writer, t *Table) {
	e := htmlText
	if t.Folded {
		fmt.Fprintf(w, "<details><summary>%s (%d rows)</summary>\n", e(t.Caption), len(t.Rows))
	}
	class := ""
	if t.Prose {
		class = ` class="prose"`
	}
	// A table of three columns or fewer is narrow: on paper they sit side
	// by side.
	box := "table"
	if len(t.Head) <= 3 {
		box += " narrow"
	}
	// The head in a thead, which a printed table split over two pages
	// repeats on the second.
	fmt.Fprintf(w, "<div class=\"%s\"><table%s>\n<caption>%s</caption>\n<thead><tr>", box, class, e(t.Caption))
	for _, h := range t.Head {
		fmt.Fprintf(w, "<th>%s</th>", e(h))
	}
	fmt.Fprint(w, "</tr></thead>\n<tbody>\n")
	for i, r := range t.Rows {
		fmt.Fprint(w, "<tr>")
		for j, c := range r {
			v, sub, ok := strings.Cut(c, "\n")
			if id := t.link(i); j == 0 && id != "" {
				fmt.Fprintf(w, "<td><a href=\"#%s\">%s</a></td>", e(id), e(c))
			} else if ok {
				fmt.Fprintf(w, "<td>%s<br><span class=\"sub\">%s</span></td>", e(v), e(sub))
			} else {
				fmt.Fprintf(w, "<td>%s</td>", e(c))
			}
		}
		fmt.Fprint(w, "</tr>\n")
	}
	fmt.Fprint(w, "</tbody></table></div>\n")
	if t.Folded {
		fmt.Fprint(w, "</details>\n")
	}
}
