package nb

import (
	"errors"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/janpfeifer/gonb/gonbui"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/report"
)

// EChartsHTML returns a <script> that defines the global echarts from the
// library the report embeds (report.EChartsJS), unless the page has it
// already. Jupyter's RequireJS would take an anonymous UMD module for
// itself, so window.define is hidden while the library runs (and no local
// variable may be named define: the library would see that one).
func EChartsHTML() string {
	return "<script type=\"text/javascript\">\n/*\n" + strings.ReplaceAll(report.EChartsNotice(), "*/", "* /") +
		"\n*/\n(function () {\nif (window.echarts) { return; }\nvar saved = window.define;\nwindow.define = undefined;\ntry {\n" +
		report.EChartsJS() + "\n} finally { window.define = saved; }\n})();\n</script>\n" +
		"<p style=\"color:#555;font-size:smaller\">ECharts 5.6.0 loaded (Apache-2.0).</p>\n"
}

// LoadECharts displays EChartsHTML: the first figure cell of a notebook
// calls it once, before any chart.
func LoadECharts() { display(EChartsHTML()) }

// blockScripts puts the body of every <script> of h in a JavaScript block:
// a chart's script declares its variables with let, which a page may do
// once per name outside a block. h is HTML this package or the report
// wrote, whose every "</script>" ends one of their scripts.
func blockScripts(h string) string {
	var b strings.Builder
	for {
		open := strings.Index(h, "<script")
		if open < 0 {
			break
		}
		gt := strings.Index(h[open:], ">")
		end := strings.Index(h[open:], "</script>")
		if gt < 0 || end < gt {
			break
		}
		gt += open
		end += open
		b.WriteString(h[:gt+1])
		b.WriteString("{\n")
		b.WriteString(h[gt+1 : end])
		b.WriteString("\n}</script>")
		h = h[end+len("</script>"):]
	}
	b.WriteString(h)
	return b.String()
}

// SectionHTML returns a report section for a notebook: its element, with
// the scripts of its charts in blocks (see FigureHTML) and every chart id
// made new, so that a page may show the section of two reports (ours and
// the committed one, say) and run its cell again.
func SectionHTML(s report.Section) string {
	h := s.HTML
	ids := make([]string, 0, len(s.Figures))
	for _, f := range s.Figures {
		ids = append(ids, f.ID)
	}
	// Longest first, so that no id is replaced inside a longer one.
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	var pairs []string
	for _, id := range ids {
		pairs = append(pairs, id, ChartID(id+"x"))
	}
	if len(pairs) > 0 {
		h = strings.NewReplacer(pairs...).Replace(h)
	}
	return blockScripts(h)
}

// ShowSection displays a section of the report, tables and charts (call
// LoadECharts first when it has Figures).
func ShowSection(s report.Section) { display(SectionHTML(s)) }

// ShowMarkdown displays Markdown. md is shown as Markdown, HTML in it
// included: text from data (a CSV field, a file name) goes in through
// report.MarkdownText.
func ShowMarkdown(md string) {
	gonbui.DisplayMarkdown(md)
	gonbui.Sync()
}

// ShowHTML displays HTML. Text from data goes in through
// html.EscapeString (or TableHTML, NoteHTML, ErrorHTML, which escape it).
func ShowHTML(h string) { display(h) }

// ErrorHTML returns err's message as a notebook shows a failure: the
// message alone, in a red box, without any trace.
func ErrorHTML(err error) string {
	return "<div style=\"border-left:4px solid #c00;background:#fee;padding:6px 10px;white-space:pre-wrap\"><b>error:</b> " +
		html.EscapeString(err.Error()) + "</div>\n"
}

// ShowError displays err's message (nothing when err is nil) and reports
// whether there was one, so that a cell reads
//
//	if nb.ShowError(err) {
//		return
//	}
func ShowError(err error) bool {
	if err == nil {
		return false
	}
	display(ErrorHTML(err))
	return true
}

// NoteHTML returns a note: something the reader should know that is not a
// failure, such as a GPU cell on a machine without one.
func NoteHTML(format string, args ...any) string {
	return "<div style=\"border-left:4px solid #888;background:#f4f4f4;padding:6px 10px;white-space:pre-wrap\">" +
		html.EscapeString(fmt.Sprintf(format, args...)) + "</div>\n"
}

// Note displays NoteHTML.
func Note(format string, args ...any) { display(NoteHTML(format, args...)) }

// NoGPU reports whether err says that no GPU is usable here (it wraps
// cudaext.ErrUnavailable, as lev's cuda-* algorithms do without one).
func NoGPU(err error) bool { return errors.Is(err, cudaext.ErrUnavailable) }

// numberCell matches a cell that is a number, with its unit if any
// ("1,234", "0.5", "-3", "2.76 ms", "3.1×", "145 GCUPS"), or a dash for none.
var numberCell = regexp.MustCompile(`^(—|-?[0-9][0-9,]*(\.[0-9]+)?( ?[a-zA-Zµ×%/]+)?)$`)

// TableHTML returns a table: a column of numbers (numberCell) is
// right-aligned, any other, and the first, left-aligned.
func TableHTML(caption string, head []string, rows [][]string) string {
	e := html.EscapeString
	var b strings.Builder
	b.WriteString("<table style=\"border-collapse:collapse\">")
	if caption != "" {
		fmt.Fprintf(&b, "<caption style=\"text-align:left;font-weight:bold\">%s</caption>", e(caption))
	}
	// A column of numbers is right-aligned, so that their digits line up;
	// any other, text, left-aligned.
	right := make([]bool, len(head))
	for i := range right {
		right[i] = i > 0
		for _, r := range rows {
			if i < len(r) && r[i] != "" && !numberCell.MatchString(r[i]) {
				right[i] = false
				break
			}
		}
	}
	cell := func(tag string, i int, s string) {
		align := "left"
		if i < len(right) && right[i] {
			align = "right"
		}
		fmt.Fprintf(&b, "<%s style=\"border:1px solid #bbb;padding:2px 8px;text-align:%s\">%s</%s>", tag, align, e(s), tag)
	}
	b.WriteString("<tr>")
	for i, h := range head {
		cell("th", i, h)
	}
	b.WriteString("</tr>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for i, c := range r {
			cell("td", i, c)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>\n")
	return b.String()
}

// ShowTable displays TableHTML.
func ShowTable(caption string, head []string, rows [][]string) {
	display(TableHTML(caption, head, rows))
}

var chartSeq atomic.Int64

// ChartID returns a new id for a chart: unique in the page, across cells
// and runs of a cell.
func ChartID(prefix string) string {
	// gonbui's ids are random, so two runs of a cell do not collide; the
	// sequence keeps them apart within one run.
	return fmt.Sprintf("%s%s%d", prefix, strings.NewReplacer("-", "", "_", "").Replace(gonbui.UniqueId()), chartSeq.Add(1))
}

// display sends h to the notebook and waits until GoNB has it: output still
// in the pipe when a cell's program ends can be lost.
func display(h string) {
	gonbui.DisplayHTML(h)
	gonbui.Sync()
}

// ShowAlignment displays a and b, compared rune by rune, aligned by
// lev.AlignString and drawn as the report draws alignments (blocks of 60
// columns, the distance and CIGAR in the caption, the symbols coloured by
// their edit); an error is shown as ShowError shows it.
func ShowAlignment(what, a, b string) {
	cigar, err := AlignCIGAR(a, b)
	if ShowError(err) {
		return
	}
	h, err := report.AlignmentHTML(what, a, b, cigar, 60)
	if ShowError(err) {
		return
	}
	display(h)
}

// AlignCIGAR is lev.AlignString's CIGAR of a and b, on one worker: the
// aligner report.Options.Align takes.
func AlignCIGAR(a, b string) (string, error) {
	al, err := lev.AlignString(a, b, lev.WithWorkers(1))
	return al.CIGAR(), err
}
