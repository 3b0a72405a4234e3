package report

import (
	"strings"
	"testing"
)

// TestAlignSection reads the fixture's align experiment and align.txt:
// the pairs drawn, a table per case (the same algorithm and length in
// two cases kept apart), the command beside edlib-aligner.
func TestAlignSection(t *testing.T) {
	md := render(t, Options{Results: fixture, Format: FormatMarkdown})
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
		"DNA 1% diverged at n = 1,000: the alignment took 1.50 ms, 3.00× the distance alone",
		"| DNA 1% diverged, 1,000,000 × 1,000,000 | 350 ms (45.0 MB) | 2.00 s (12.0 MB) | 0.175× |",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("Alignment section lacks %q:\n%s", want, sec)
		}
	}
	html := render(t, Options{Results: fixture})
	if !strings.Contains(html, `<figure class="align">`) || !strings.Contains(html, `<span class="as">k</span>`) {
		t.Errorf("the HTML draws no coloured alignment")
	}
	tex := render(t, Options{Results: fixture, Format: FormatTeX})
	if !strings.Contains(tex, "\\begin{verbatim}\nA  kitten-\n   .|||.|\nB  sitting\n\\end{verbatim}") {
		t.Errorf("the LaTeX draws no verbatim alignment")
	}
}
