package document

import (
	"fmt"
	"html"
	"strings"
	"unicode"
)

// visible returns s with each rune that would act rather than show written
// as its code point in brackets, "[U+001B]": a control character (C0 but
// tab, line feed and carriage return, which every format lays out as
// white space; DEL; C1), a format character (Unicode's Cf: the
// bidirectional controls, U+202E among them, that turn the text after
// them around, the zero-width joiners and spaces, the byte order mark)
// and a line or paragraph separator. Some of the report's text comes
// from files a person may have edited by hand (a kept spec's title) or a
// program wrote (a failed point's note): a terminal showing the Markdown
// must not take an escape sequence, nor a browser's or PDF viewer's bidi
// algorithm an override, from it, and two names must not look alike for
// an invisible rune between. The soft hyphen stays: a hint where a word
// may break, which each format honours or drops.
func visible(s string) string {
	if !strings.ContainsFunc(s, acts) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if acts(r) {
			fmt.Fprintf(&b, "[U+%04X]", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// acts reports whether visible writes r as its code point.
func acts(r rune) bool {
	switch r {
	case '\t', '\n', '\r', '\u00ad':
		return false
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// htmlText returns s as HTML text that shows it: visible, then escaped.
func htmlText(s string) string { return html.EscapeString(visible(s)) }
