package document

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// texPackages are the packages a document that \inputs the fragment of
// writeTeX must load: graphicx is in Debian's texlive-latex-base, booktabs
// in texlive-latex-recommended.
var texPackages = []string{"graphicx", "booktabs"}

// TeXDocument returns the smallest LaTeX document that sets the report's
// LaTeX fragment (Format "tex"): an article that loads the packages the
// fragment needs and \inputs the file fragment, named relative to the
// document. fragment is a file name and is not escaped: it must be of
// letters, digits and . _ / + - (the figures folder's rule).
func TeXDocument(fragment string) string {
	var b strings.Builder
	b.WriteString("\\documentclass{article}\n")
	for _, p := range texPackages {
		b.WriteString("\\usepackage{" + p + "}\n")
	}
	b.WriteString("\\begin{document}\n\\input{" + fragment + "}\n\\end{document}\n")
	return b.String()
}

// WriteTeX writes d as a LaTeX fragment for a student to \input into a
// report of their own: no preamble and no document environment, pure
// ASCII, so that it sets with pdflatex in any font encoding (OT1, or T1
// with lmodern) from Type 1 fonts, with no package beyond texPackages.
//
// The report is one \section, its sections \subsections under it: the
// fragment is a part of a larger document, and \section is the highest
// level every class has (article has no \chapter), so it sits as a
// section of an article and under a chapter of a report or book. Each
// heading is labelled levlab:<id>.
//
// Tables are table floats in booktabs' rules, the first column left
// aligned and the rest right; a table is shrunk to the text width where
// its natural width is more (a long cell), and one of more than six
// columns is set smaller and closer first. A cell's second line, its
// spread, is set smaller under the value. A chart is, with figs, a figure
// float of <figs>/<chart id>.png labelled levlab:fig:<chart id>, and with
// figs "" the table of its points. All text is escaped by texText.
//
// figs, like a chart id, must be of letters, digits and . _ / + -:
// anything else a file name in \includegraphics cannot hold in every
// LaTeX, and writeTeX returns an error naming it.
func WriteTeX(w *bytes.Buffer, d *Doc, figs string) error {
	if figs != "" {
		if err := texPathOK("figures folder", figs); err != nil {
			return err
		}
		for _, s := range d.Sections {
			for _, b := range s.Blocks {
				if c, ok := b.(*Figure); ok && !c.Empty() {
					if err := texPathOK("chart id", c.ID); err != nil {
						return err
					}
				}
			}
		}
	}
	fmt.Fprintf(w, "%% %s, written by levlab's report as a fragment to \\input.\n", oneLine(d.Title))
	fmt.Fprintf(w, "%% The preamble must load:")
	for _, p := range texPackages {
		fmt.Fprintf(w, " \\usepackage{%s}", p)
	}
	fmt.Fprintf(w, "\n%% (Debian: texlive-latex-base and texlive-latex-recommended).\n")
	fmt.Fprintf(w, "%% The text is ASCII and sets in any font encoding.\n\n")
	fmt.Fprintf(w, "\\section{%s}\\label{levlab}\n", TexText(d.Title))
	if d.Byline != "" {
		// Ragged right: the commit, the machines' names and the dates are
		// words TeX cannot break, and one may not fit a justified line.
		fmt.Fprintf(w, "\n{\\raggedright %s\\par}\n", TexText(d.Byline))
	}
	// Figures and tables numbered as every format numbers them
	// (Numbers): LaTeX's counter set before each caption, and what is
	// not numbered captioned in bold text alone.
	nums := Numbers(d)
	for _, s := range d.Sections {
		fmt.Fprintf(w, "\n\\subsection{%s}\\label{levlab:%s}\n", TexText(s.Title), TexLabel(s.ID))
		for _, b := range s.Blocks {
			switch b := b.(type) {
			case Para:
				writeTeXPara(w, string(b))
			case *Table:
				writeTeXTable(w, b, nums[b])
			case *Drawing:
				writeTeXDrawing(w, b, nums[b])
			case *Figure:
				switch {
				case b.Empty():
					fmt.Fprintf(w, "\n%s: no points to draw.\n", TexText(b.Title))
				case figs == "":
					writeTeXTable(w, b.asTable(), nums[b])
					for _, n := range b.Notes {
						writeTeXPara(w, n)
					}
				default:
					fmt.Fprintf(w, "\n\\begin{figure}[!htbp]\n\\centering\n\\includegraphics[width=\\linewidth]{%s/%s.png}\n%s\\label{levlab:fig:%s}\n",
						figs, b.ID, texCaption(b.Title, nums[b], "figure"), TexLabel(b.ID))
					for _, n := range b.Notes {
						fmt.Fprintf(w, "{\\small\\raggedright %s\\par}\n", TexText(n))
					}
					w.WriteString("\\end{figure}\n")
				}
			}
		}
	}
	return nil
}

// WriteTeXDrawing writes an alignment as a caption and a verbatim block,
// a symbol that is not ASCII as ? in each of its columns (the text is
// ASCII).
func WriteTeXDrawing(w *bytes.Buffer, d *Drawing) { writeTeXDrawing(w, d, "") }

// writeTeXDrawing is WriteTeXDrawing with the drawing's label ("Figure
// 3"; "" for none) before its caption.
func writeTeXDrawing(w *bytes.Buffer, d *Drawing, label string) {
	if label != "" {
		label += ". "
	}
	// Ragged right: a caption ends in a CIGAR, one word TeX cannot break.
	fmt.Fprintf(w, "\n{\\raggedright\\noindent\\textbf{%s}\\par}\n\\begin{verbatim}\n", TexText(label+d.Caption))
	for _, l := range d.Lines(true) {
		// Nothing in it may end the environment early.
		w.WriteString(strings.ReplaceAll(l, `\end{verbatim}`, `\end {verbatim}`) + "\n")
	}
	w.WriteString("\\end{verbatim}\n")
}

// writeTeXPara writes the paragraph p. One with a word of more than 24
// runes (a path, a file name), of more than 12 with a hyphen, an
// underscore or a slash, or of more than 11 with a digit (a commit's
// 12 hex digits), is a sloppypar, whose lines may stretch
// more than TeX's default allows, so that the word goes to a line of its
// own, or breaks at a / or _, rather than past the margin.
func writeTeXPara(w *bytes.Buffer, p string) {
	t := TexText(p)
	if t == "" {
		return
	}
	for _, word := range strings.Fields(p) {
		// A long word, or an identifier that breaks only at its hyphens
		// (s001-diagonal), may not fit a line's end.
		if n := utf8.RuneCountInString(word); n > 24 || n > 12 && strings.ContainsAny(word, "-_/") || n > 11 && strings.ContainsAny(word, "0123456789") {
			fmt.Fprintf(w, "\n\\begin{sloppypar}\n%s\n\\end{sloppypar}\n", t)
			return
		}
	}
	fmt.Fprintf(w, "\n%s\n", t)
}

// oneLine returns s on one line of ASCII, for a TeX comment: a line break
// would end the comment and make the rest of s TeX, and the fragment is
// ASCII throughout. A rune visible writes as its code point is written
// so; any other past ASCII is ?.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < ' ' || r == 0x7f:
			return ' '
		case r > 0x7e:
			return '?'
		}
		return r
	}, visible(s))
}

// texPathOK returns an error unless p, a path in \includegraphics, is of
// ASCII letters, digits and . _ / + - alone.
func texPathOK(what, p string) error {
	for _, r := range p {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9',
			r == '.', r == '_', r == '/', r == '+', r == '-':
		default:
			return fmt.Errorf("report: %s %q: LaTeX cannot include a figure from a path with %q in it; use ASCII letters, digits and . _ / + -", what, p, r)
		}
	}
	return nil
}

// TexLabel returns id as the key of a \label: ASCII letters, digits, - and
// ., every other rune a -.
func TexLabel(id string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' {
			return r
		}
		return '-'
	}, id)
}

// writeTeXTable writes t as a table float. Its tabular is in a
// \resizebox whose width is the tabular's own where that fits the line,
// and \linewidth where it does not, so that no table runs past the edge
// of the page; one of more than six columns is set in \footnotesize with
// less space between columns, so that it is seldom shrunk further.
func writeTeXTable(w *bytes.Buffer, t *Table, label string) {
	cols := len(t.Head)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		if c := TexText(t.Caption); c != "" {
			fmt.Fprintf(w, "\n%s\n", c)
		}
		return
	}
	size, spread := "\\small", "\\footnotesize"
	if cols > 6 {
		size, spread = "\\footnotesize\\setlength{\\tabcolsep}{4pt}", "\\scriptsize"
	}
	w.WriteString("\n\\begin{table}[!htbp]\n\\centering\n")
	if t.Caption != "" {
		fmt.Fprintf(w, "%s\n", texCaption(t.Caption, label, "table"))
	}
	fmt.Fprintf(w, "%s\n\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%%\n\\begin{tabular}{l%s}\n\\toprule\n",
		size, strings.Repeat("r", cols-1))
	// row writes a row; link, where not "", is the id of the section its
	// first cell refers to, whose number follows the cell's text.
	row := func(cells []string, link string) {
		for i := range cols {
			if i > 0 {
				w.WriteString(" & ")
			}
			if i < len(cells) {
				w.WriteString(texCell(cells[i], i == 0, spread))
			}
			if i == 0 && link != "" {
				w.WriteString(" (section~\\ref{levlab:" + TexLabel(link) + "})")
			}
		}
		w.WriteString(" \\\\\n")
	}
	if len(t.Head) > 0 {
		row(t.Head, "")
		w.WriteString("\\midrule\n")
	}
	for i, r := range t.Rows {
		row(r, t.link(i))
	}
	w.WriteString("\\bottomrule\n\\end{tabular}}\n\\end{table}\n")
}

// texCell returns a cell's text; a second line after "\n", the value's
// spread, goes under the value in the size spread, both in a tabular of
// one column aligned as the cell's own (left for the first column), top
// aligned so the row's baseline stays the value's.
func texCell(c string, first bool, spread string) string {
	v, s, ok := strings.Cut(c, "\n")
	if !ok {
		return TexText(c)
	}
	align := "r"
	if first {
		align = "l"
	}
	return fmt.Sprintf("\\begin{tabular}[t]{@{}%s@{}}%s\\\\{%s %s}\\end{tabular}", align, TexText(v), spread, TexText(s))
}

// TexText returns s as LaTeX text that sets s as it is, in ASCII alone:
// the report's text is plain, never TeX of its own, and some of it comes
// from CSV and folder names.
//
// The specials \ { } $ & # ^ _ ~ % and < > | " ` become commands or
// braced forms that print them; [ and ] are braced, and so is a * that
// starts s, so that neither becomes the optional argument or the star of
// a \\ before it in a table; {} goes between two runes that would join
// into one glyph (texLigature); a / or _ is followed by \allowbreak, so
// that a long path or name can break across lines. Line breaks and tabs
// become spaces, and every other control or format character its code
// point (visible: "{[}U+202E{]}"). Latin-1 letters become accent
// commands; the symbols the report uses (× – — µ ≤ ≥ ± → … ’ and
// superscript digits, a run of them one superscript: 10$^{-5}$) and a few
// more (texRunes, texSuper) become text or math
// commands; any other rune becomes ?.
func TexText(s string) string {
	s = visible(s)
	var b strings.Builder
	last := byte(0) // the last byte written
	sup := ""       // superscript runes not yet written: "×10⁻³⁰⁰" is one exponent
	for i, r := range s {
		if d, ok := texSuper[r]; ok {
			sup += d
			continue
		}
		if sup != "" {
			b.WriteString("$^{" + sup + "}$")
			sup, last = "", '$'
		}
		t := texRune(r, i == 0)
		if t == "" {
			continue
		}
		if texLigature(last, t[0]) {
			b.WriteString("{}")
		}
		b.WriteString(t)
		last = t[len(t)-1]
	}
	if sup != "" {
		b.WriteString("$^{" + sup + "}$")
	}
	return b.String()
}

// texSuper maps the superscript runes to what they raise: a run of them,
// a power of ten's exponent, is one superscript.
var texSuper = map[rune]string{
	'⁰': "0", '¹': "1", '²': "2", '³': "3", '⁴': "4", '⁵': "5", '⁶': "6", '⁷': "7", '⁸': "8", '⁹': "9", '⁺': "+", '⁻': "-",
}

// texRune returns the rune r as texText writes it; first says r starts
// the text.
func texRune(r rune, first bool) string {
	switch {
	case r == '\\':
		return `\textbackslash{}`
	case r == '$':
		return `$\$$` // \$ in text mode is from TS1, a font pdflatex may only have as a bitmap
	case r == '_':
		return `\_\allowbreak{}`
	case r == '{' || r == '}' || r == '&' || r == '#' || r == '%':
		return `\` + string(r)
	case r == '^':
		return `\textasciicircum{}`
	case r == '~':
		return `\textasciitilde{}`
	case r == '<':
		return `\textless{}`
	case r == '>':
		return `\textgreater{}`
	case r == '|':
		return `\textbar{}`
	case r == '"':
		return "''"
	case r == '`':
		return "\\`{}"
	case r == '[' || r == ']' || r == '*' && first:
		return "{" + string(r) + "}"
	case r == '/':
		return `/\allowbreak{}`
	case r < ' ' || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x2028 || r == 0x2029:
		return " "
	case r < 0x7f:
		return string(r)
	}
	if t, ok := TexRunes[r]; ok {
		return t
	}
	if t := TexLatin1(r); t != "" {
		return t
	}
	return "?"
}

// texLigature says whether the bytes a and b, side by side, would join
// into one glyph in TeX's fonts: -- and --- into dashes, ” “ and ,,
// into quotes, !` and ?` into inverted marks.
func texLigature(a, b byte) bool {
	return a == b && strings.IndexByte("-'`,", a) >= 0 || (a == '!' || a == '?') && b == '`'
}

// TexRunes are the runes beyond ASCII, letters with accents aside
// (texLatin1), that texText writes as commands: each in text or math
// mode, from fonts every pdflatex has in Type 1 (the text mode \S, \P,
// \pounds, \copyright and \textbullet are from TS1, which it may have
// only as a bitmap made by mktexpk).
var TexRunes = map[rune]string{
	'\u00a0': "~", '\u00ad': `\-`, '\u2002': " ", '\u2003': " ", '\u2009': `\,`, '\u202f': `\,`,
	'\u2010': "-", '\u2011': "-", '–': "--", '—': "---", '−': `$-$`,
	'‘': "`", '’': "'", '“': "``", '”': "''", '«': `$\ll$`, '»': `$\gg$`,
	'…': `\dots{}`, '•': `$\bullet$`, '·': `$\cdot$`, '†': `$\dagger$`, '‡': `$\ddagger$`,
	'×': `$\times$`, '÷': `$\div$`, '±': `$\pm$`, '≤': `$\leq$`, '≥': `$\geq$`, '≈': `$\approx$`, '≠': `$\neq$`,
	'∞': `$\infty$`, '¬': `$\neg$`, '°': `$^{\circ}$`, 'µ': `$\mu$`, 'μ': `$\mu$`,
	'→': `$\rightarrow$`, '←': `$\leftarrow$`, '↔': `$\leftrightarrow$`,
	'₀': `$_{0}$`, '₁': `$_{1}$`, '₂': `$_{2}$`, '₃': `$_{3}$`, '₄': `$_{4}$`, '₅': `$_{5}$`,
	'₆': `$_{6}$`, '₇': `$_{7}$`, '₈': `$_{8}$`, '₉': `$_{9}$`,
	'§': `$\S$`, '¶': `$\P$`, '©': `(c)`, '®': `(R)`, '£': `$\pounds$`,
	'¡': `\textexclamdown{}`, '¿': `\textquestiondown{}`, 'ª': `\textsuperscript{a}`, 'º': `\textsuperscript{o}`,
	'´': "'", '¨': "''", '¸': ",", '¯': "-",
	'ß': `\ss{}`, 'Æ': `\AE{}`, 'æ': `\ae{}`, 'Ø': `\O{}`, 'ø': `\o{}`, 'Å': `\AA{}`, 'å': `\aa{}`,
	'Œ': `\OE{}`, 'œ': `\oe{}`, 'Ł': `\L{}`, 'ł': `\l{}`, 'ı': `\i{}`,
}

// TexLatin1 returns the Latin-1 letter r (À to ÿ) with a grave, acute,
// circumflex, tilde, diaeresis or cedilla as its accent command on the
// base letter, or "" for any other rune.
func TexLatin1(r rune) string {
	// Each letter of U+00C0 to U+00FF, as its base and accent; a space
	// for those that are not a base letter and an accent.
	const (
		base   = "AAAAA  CEEEEIIII NOOOOO  UUUUY  aaaaa  ceeeeiiii nooooo  uuuuy y"
		accent = "`'^~\"  c`'^\"`'^\" ~`'^~\"  `'^\"'  `'^~\"  c`'^\"`'^\" ~`'^~\"  `'^\"' \""
	)
	if r < 0xc0 || r > 0xff || base[r-0xc0] == ' ' {
		return ""
	}
	l, a := string(base[r-0xc0]), accent[r-0xc0]
	if l == "i" {
		l = `\i` // the accent replaces the dot
	}
	if a == 'c' {
		return `\c{` + l + `}`
	}
	return `\` + string(a) + `{` + l + `}`
}

// texCaption is the caption of a float (LaTeX's "figure" or "table") as
// label ("Figure 3", "Table 5") numbers it: \caption with the float's
// counter set to the number, so that LaTeX prints the same; a caption
// numbered as another kind (a chart given as a table) or not at all is
// bold text, out of LaTeX's count.
func texCaption(caption, label, float string) string {
	kind, n, _ := strings.Cut(label, " ")
	if num, err := strconv.Atoi(n); err == nil && strings.ToLower(kind) == float {
		return fmt.Sprintf("\\setcounter{%s}{%d}\\caption{%s}", float, num-1, TexText(caption))
	}
	if label != "" {
		caption = label + ". " + caption
	}
	return fmt.Sprintf("{\\small\\textbf{%s}\\par}", TexText(caption))
}
