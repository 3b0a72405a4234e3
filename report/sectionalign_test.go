package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/levlab/levlab/lev"
)

// levAlign is what levlab gives Options.Align.
func levAlign(a, b string) (string, error) {
	al, err := lev.AlignString(a, b)
	return al.CIGAR(), err
}

// TestAlignSection reads the fixture's align experiment and align.txt:
// the pairs drawn, a table per case (the same algorithm and length in
// two cases kept apart), the command beside edlib-aligner.
func TestAlignSection(t *testing.T) {
	md := render(t, Options{Results: fixture, Format: FormatMarkdown, Align: levAlign})
	_, sec, ok := strings.Cut(md, "## Alignment: which edits, not only how many")
	if !ok {
		t.Fatalf("no Alignment section:\n%s", md)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	for _, want := range []string{
		"The reports' example, A → B: distance 3, CIGAR 1X3=1X1=1D\n\n```\nA  kitten-\n   .|||.|\nB  sitting\n```",
		"| lev.Align, 2 workers | 1.50 ms (64.0 KiB) |", // diverged
		"| lev.Align, 2 workers | 5.00 ms (128 KiB) |",  // dna
		"| the distance alone (auto), 2 workers | 2.00 ms (1.00 KiB) |",
		"DNA 1% diverged at n = 1,000: the alignment took 1.50 ms and the distance alone 500 µs, 3.00× as fast",
		"| DNA 1% diverged, 1,000,000 × 1,000,000 | 350 ms (45.0 MiB) | 2.00 s (12.0 MiB) | 5.71× as fast; 5.00–6.67× over the runs |",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("Alignment section lacks %q:\n%s", want, sec)
		}
	}
	html := render(t, Options{Results: fixture, Align: levAlign})
	if !strings.Contains(html, `<figure class="align"`) || !strings.Contains(html, `<span style="color:#b35900;font-weight:700">k</span>`) {
		t.Errorf("the HTML draws no coloured alignment")
	}
	tex := render(t, Options{Results: fixture, Format: FormatTeX, Align: levAlign})
	if !strings.Contains(tex, "\\begin{verbatim}\nA  kitten-\n   .|||.|\nB  sitting\n\\end{verbatim}") {
		t.Errorf("the LaTeX draws no verbatim alignment")
	}
	// Without an aligner the section says so, and still shows the runs.
	md = render(t, Options{Results: fixture, Format: FormatMarkdown})
	if !strings.Contains(md, "No aligner was given to draw the pairs") || strings.Contains(md, "```\nA  kitten") || !strings.Contains(md, "| lev.Align, 2 workers | 5.00 ms (128 KiB) |") {
		t.Errorf("the Alignment section without an aligner:\n%s", md)
	}
	// An aligner's error is said, not drawn.
	md = render(t, Options{Results: fixture, Format: FormatMarkdown, Align: func(a, b string) (string, error) { return "1=", nil }})
	if !strings.Contains(md, "walks past") && !strings.Contains(md, "stop") {
		t.Errorf("a wrong CIGAR from the aligner is not reported:\n%s", md)
	}
}

func TestAlignmentHTML(t *testing.T) {
	h, err := document.AlignmentHTML("hostile <b>", "<script>", "<scrip>", "6=1I1=", 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, "<script>") || strings.Contains(h, "<b>") || !strings.Contains(h, "Hostile &lt;b&gt;") || !strings.Contains(h, "CIGAR 6=1I1=") {
		t.Errorf("AlignmentHTML escapes nothing or misdraws:\n%s", h)
	}
}

// TestAlignmentHTMLRefuses: a CIGAR that is no alignment of the pair is
// an error, not a drawing.
func TestAlignmentHTMLRefuses(t *testing.T) {
	for _, cigar := range []string{"6=", "7=1I", "3Q", "6=2I"} {
		if _, err := document.AlignmentHTML("", "kitten", "sitting", cigar, 60); err == nil {
			t.Errorf("AlignmentHTML with CIGAR %q: no error", cigar)
		}
	}
}

// TestDrawingEscapes: a pair holding a code fence or the end of the
// verbatim environment stays inside its block in Markdown and LaTeX.
func TestDrawingEscapes(t *testing.T) {
	d, err := document.DrawAlignment("", "a```b", "\\end{verbatim}", "5X9D", 60)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(d.Lines(false), "\n")
	if f := document.MdFence(text); f != "````" {
		t.Errorf("fence %q for a text holding ```", f)
	}
	var buf bytes.Buffer
	document.WriteTeXDrawing(&buf, d)
	if strings.Count(buf.String(), `\end{verbatim}`) != 1 {
		t.Errorf("the drawing ends the verbatim early:\n%s", buf.String())
	}
}

// TestDrawingASCII: in LaTeX a wide symbol is a ? for each of its
// columns, the columns in step; a caption may start with any letter.
func TestDrawingASCII(t *testing.T) {
	d, err := document.DrawAlignment("élan", "日x", "本x", "1X1=", 60)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Lines(true), "\n"); got != "A  ??x\n   . |\nB  ??x" {
		t.Errorf("ASCII lines:\n%s", got)
	}
	if !strings.HasPrefix(d.Caption, "Élan, ") {
		t.Errorf("caption %q", d.Caption)
	}
}
