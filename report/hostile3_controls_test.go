//go:build unix

package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"
)

// controls are runes a title edited by hand may hold that must not reach
// a report as they are: ESC (a terminal's escapes), NUL, and Unicode's
// bidirectional and invisible format characters.
var controls = []rune{0x1b, 0x00, 0x07, 0x7f, 0x9b, 0x202e, 0x202d, 0x2066, 0x200f, 0x061c, 0xfeff, 0x200d}

// rawControl returns the first of controls in s, or -1.
func rawControl(s string) rune {
	for _, r := range s {
		for _, c := range controls {
			if r == c {
				return r
			}
		}
	}
	return -1
}

// TestControlsVisible: every control and format character of a title, a
// paragraph, a table or a chart is written as its code point (U+001B), in
// every format: none reaches the report as it is, where it would recolour
// a terminal or turn the text around it backwards.
func TestControlsVisible(t *testing.T) {
	evil := "A\x1b[31mB\x00C\u202eD\u2066E\u200fF\x07G\x7fH\u009bI\ufeffJ\u200dK\u061cL"
	c := &document.Figure{ID: "c1", Title: "chart " + evil, XName: "x " + evil, YName: "time (s)",
		Series: []document.FigureSeries{{Name: "s " + evil, Points: []document.FigurePoint{{X: 1, Y: 1, Lo: 1, Hi: 1}, {X: 2, Y: 2, Lo: 2, Hi: 2}}}}}
	d := &document.Doc{Title: "title " + evil, Byline: "by " + evil, Sections: []document.Section{{ID: "s", Title: "section " + evil, Blocks: []any{
		document.Para("para " + evil), &document.Table{Caption: "caption " + evil, Head: []string{"h " + evil}, Rows: [][]string{{"cell " + evil}}}, c,
	}}}}
	var md, tex, page bytes.Buffer
	document.WriteMarkdown(&md, d)
	if err := document.WriteTeX(&tex, d, ""); err != nil {
		t.Fatal(err)
	}
	if err := document.WriteHTML(&page, d); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, text string }{{"Markdown", md.String()}, {"LaTeX", tex.String()}, {"HTML", page.String()}} {
		if r := rawControl(f.text); r >= 0 {
			t.Errorf("%s: U+%04X written as it is", f.name, r)
		}
		for _, w := range []string{"U+001B", "U+0000", "U+202E", "U+2066", "U+FEFF"} {
			if n := strings.Count(f.text, w); n < 4 {
				t.Errorf("%s: %s shown %d times, want one for each title, paragraph and table (4 at least)", f.name, w, n)
			}
		}
	}

	// A kept spec's title, edited by hand, in every format of a report.
	root := t.TempDir()
	ownRun(t, filepath.Join(root, "box", "quick"), "mine", ownRecords("mine", ownPoint{"a", "random", 100, 0.5}),
		map[string]string{"mine.toml": specText("mine", `Evil\u001B[2J\u0000\u202Eeltit`, "random", "a")})
	for _, format := range []string{FormatMarkdown, FormatTeX, FormatHTML} {
		var buf bytes.Buffer
		if err := Write(&buf, Options{Results: root, Only: []string{"mine"}, Format: format}); err != nil {
			t.Fatal(err)
		}
		if r := rawControl(buf.String()); r >= 0 {
			t.Errorf("%s report of a spec titled with controls: U+%04X written as it is", format, r)
		}
	}
}
