package document

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// WriteMarkdown writes d as Markdown, each chart as the table of its
// points.
func WriteMarkdown(w *bytes.Buffer, d *Doc) { WriteMarkdownFigs(w, d, "") }

// WriteMarkdownFigs writes d as Markdown. figs is the path, relative to
// the Markdown file, of the folder the figures were exported to, as
// <figs>/<chart id>.png; with it each chart is that image, its title as
// a caption and the table of its points (the numbers), and with "" the
// table alone.
func WriteMarkdownFigs(w *bytes.Buffer, d *Doc, figs string) {
	m := MdText
	fmt.Fprintf(w, "# %s\n", m(d.Title))
	if d.Byline != "" {
		fmt.Fprintf(w, "\n%s\n", m(d.Byline))
	}
	// Figures and tables numbered as every format numbers them (Numbers).
	nums := Numbers(d)
	label := func(b any) string {
		if n := nums[b]; n != "" {
			return n + ". "
		}
		return ""
	}
	for _, s := range d.Sections {
		fmt.Fprintf(w, "\n## %s\n", m(s.Title))
		for _, b := range s.Blocks {
			switch b := b.(type) {
			case Para:
				fmt.Fprintf(w, "\n%s\n", m(string(b)))
			case *Table:
				if n := label(b); n != "" {
					t := *b
					t.Caption = n + b.Caption
					b = &t
				}
				writeMDTable(w, b)
			case *Drawing:
				text := strings.Join(b.Lines(false), "\n")
				fence := MdFence(text)
				fmt.Fprintf(w, "\n%s\n\n%s\n%s\n%s\n", m(label(b)+b.Caption), fence, text, fence)
			case *Figure:
				if b.Empty() {
					fmt.Fprintf(w, "\n%s: no points to draw.\n", m(b.Title))
					continue
				}
				// The number on the image's caption, or on the table of
				// points where it stands alone.
				n, t := label(b), b.asTable()
				if figs != "" {
					fmt.Fprintf(w, "\n![%s](%s)\n\n%s\n", MdAlt(b.Title), mdPath(figs+"/"+b.ID+".png"), m(n+b.Title))
				} else {
					t.Caption = n + t.Caption
				}
				writeMDTable(w, t)
				for _, n := range b.Notes {
					fmt.Fprintf(w, "\n%s\n", m(n))
				}
			}
		}
	}
}

// MdFence returns a code fence that text cannot close: more backticks
// than its longest run of them, three at least.
func MdFence(text string) string {
	run, longest := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// writeMDTable writes t as a table; a cell's second line, its spread,
// follows its value in parentheses.
func writeMDTable(w io.Writer, t *Table) {
	m := MdText
	fmt.Fprintf(w, "\n**%s**\n\n|", m(t.Caption))
	for _, h := range t.Head {
		fmt.Fprintf(w, " %s |", m(h))
	}
	fmt.Fprint(w, "\n|")
	for range t.Head {
		fmt.Fprint(w, " --- |")
	}
	fmt.Fprint(w, "\n")
	for i, r := range t.Rows {
		fmt.Fprint(w, "|")
		for j, c := range r {
			if v, spread, ok := strings.Cut(c, "\n"); ok {
				c = m(v) + " (" + m(spread) + ")"
			} else {
				c = m(c)
			}
			if id := t.link(i); j == 0 && id != "" {
				c = "[" + MdAlt(r[0]) + "](#" + id + ")"
			}
			fmt.Fprintf(w, " %s |", c)
		}
		fmt.Fprint(w, "\n")
	}
}

// MdAlt returns s as the text of an image, as mdText does with every [
// and ] escaped besides, so that no bracket of s ends the text early.
func MdAlt(s string) string {
	var b strings.Builder
	esc := false // the rune before was an escaping backslash
	for _, r := range MdText(s) {
		if !esc && (r == '[' || r == ']') {
			b.WriteByte('\\')
		}
		esc = !esc && r == '\\'
		b.WriteRune(r)
	}
	return b.String()
}

// mdPath returns the relative path p as the destination of a Markdown
// link: every byte but an ASCII letter, a digit, - . _ ~ and / is
// percent-encoded, so that a space or parenthesis does not end the link,
// and a colon cannot make the path a URL of a scheme (javascript:).
func mdPath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// MdText returns s as Markdown (CommonMark with GitHub's tables and
// strikethrough) that shows s as it is, on one line: the report's text is
// plain — a heading, a paragraph, a caption or a table cell, never
// Markdown of its own — and some of it comes from CSV and folder names.
// Line breaks become spaces (a row or paragraph stays one), and every
// other control or format character its code point (visible); \, `, *, ~,
// |, #, < and > are always escaped (no code, emphasis, strikethrough, cell
// break, heading end, HTML or autolink); _ where it is not between two
// letters or digits (there it cannot start or end emphasis); & before a
// letter, digit or # (an entity); ] before (, [ or : (so that no link,
// image or link definition forms: a [text] alone is text when nothing
// defines it); and a -, +, = or "1." or "1)" that starts s and would
// start a list or a rule ("- x", "---", "1. x"; not "-1" or "0.38").
func MdText(s string) string {
	rs := []rune(visible(s))
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return 0
		}
		return rs[i]
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	lead := 0 // the first rune that is not a space
	for lead < len(rs) && rs[lead] == ' ' {
		lead++
	}
	digits := lead // the end of the digits s starts with
	for digits < len(rs) && rs[digits] >= '0' && rs[digits] <= '9' {
		digits++
	}
	var b strings.Builder
	for i, r := range rs {
		var esc bool
		switch r {
		case '\n', '\r':
			b.WriteByte(' ')
			continue
		case '\\', '`', '*', '~', '|', '#', '<', '>':
			esc = true
		case '_':
			esc = !word(at(i-1)) || !word(at(i+1))
		case '&':
			esc = word(at(i+1)) || at(i+1) == '#'
		case ']':
			esc = at(i+1) == '(' || at(i+1) == '[' || at(i+1) == ':'
		case '-', '+', '=':
			esc = i == lead && !word(at(i+1)) // "- x", "---"; not "-1"
		case '.', ')':
			esc = i == digits && digits > lead && (at(i+1) == ' ' || at(i+1) == '\t' || at(i+1) == 0) // "1. x"; not "0.38"
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
