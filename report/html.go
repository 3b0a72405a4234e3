package report

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"
)

const css = `body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}
th{background:#eee}td{white-space:nowrap}td:last-child{white-space:normal}td:first-child,th:first-child{text-align:left}caption{caption-side:top;text-align:left;font-weight:bold;padding:4px 0}
.container{margin:1em 0}div.table{overflow-x:auto}p.note{color:#555}`

func writeHTML(w *bytes.Buffer, d *doc) error {
	e := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>%s</style>\n", e(d.title), css)
	// ECharts inline: the report fetches nothing. A "</script" inside the
	// library would end the tag early; it holds none (checked in tests).
	w.WriteString("<script type=\"text/javascript\">\n/*\n" + strings.ReplaceAll(echartsNotice, "*/", "* /") + "\nApache License 2.0: https://www.apache.org/licenses/LICENSE-2.0\n*/\n")
	w.WriteString(echartsJS)
	w.WriteString("\n</script>\n</head>\n<body>\n")
	fmt.Fprintf(w, "<h1>%s</h1>\n<nav><ul>\n", e(d.title))
	for _, s := range d.sections {
		fmt.Fprintf(w, "<li><a href=\"#%s\">%s</a></li>\n", s.id, e(s.title))
	}
	w.WriteString("</ul></nav>\n")
	for _, s := range d.sections {
		fmt.Fprintf(w, "<section id=\"%s\">\n<h2>%s</h2>\n", s.id, e(s.title))
		for _, b := range s.blocks {
			switch b := b.(type) {
			case para:
				fmt.Fprintf(w, "<p>%s</p>\n", e(string(b)))
			case *table:
				writeHTMLTable(w, b)
			case *chart:
				if b.empty() {
					fmt.Fprintf(w, "<p class=\"note\">%s: no points to draw.</p>\n", e(b.title))
					continue
				}
				el, sc, err := b.render()
				if err != nil {
					return err
				}
				w.WriteString(el + "\n" + sc + "\n")
			default:
				return fmt.Errorf("report: block of type %T", b)
			}
		}
		w.WriteString("</section>\n")
	}
	w.WriteString("</body>\n</html>\n")
	return nil
}

func writeHTMLTable(w io.Writer, t *table) {
	e := html.EscapeString
	fmt.Fprintf(w, "<div class=\"table\"><table>\n<caption>%s</caption>\n<tr>", e(t.caption))
	for _, h := range t.head {
		fmt.Fprintf(w, "<th>%s</th>", e(h))
	}
	fmt.Fprint(w, "</tr>\n")
	for _, r := range t.rows {
		fmt.Fprint(w, "<tr>")
		for _, c := range r {
			fmt.Fprintf(w, "<td>%s</td>", e(c))
		}
		fmt.Fprint(w, "</tr>\n")
	}
	fmt.Fprint(w, "</table></div>\n")
}
