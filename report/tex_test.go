package report

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/report/internal/document"
)

// texHostile are strings that, as TeX, would read a file, run a command,
// end the document, open math or comment out the rest of a line.
var texHostile = []string{
	`\input{/etc/passwd}`, `}\end{document}`, `100%`, `$x^2$`, `#1`,
	`\write18{rm -rf /}`, `a & b \\ c`, `~user_name`, `[opt]*`, "``--''",
}

func TestTeXText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, 0.38", "plain text, 0.38"},
		{`\input{/etc/passwd}`, `\textbackslash{}input\{/\allowbreak{}etc/\allowbreak{}passwd\}`},
		{`}\end{document}`, `\}\textbackslash{}end\{document\}`},
		{`100%`, `100\%`},
		{`$x^2$`, `$\$$x\textasciicircum{}2$\$$`},
		{`#1`, `\#1`},
		{`\write18{rm -rf /}`, `\textbackslash{}write18\{rm -rf /\allowbreak{}\}`},
		{`a & b_c ~d`, `a \& b\_\allowbreak{}c \textasciitilde{}d`},
		{`<b>|"q"`, `\textless{}b\textgreater{}\textbar{}''q''`},
		{"*[x]* `c`", "{*}{[}x{]}* \\`{}c\\`{}"},
		{"one\ntwo\r\tthree", "one two  three"},
		// No two runes join into a dash, a quote, ¡ or ¿.
		{"--a ---", "-{}-a -{}-{}-"},
		{"-–", "-{}--"},
		{"''x", "'{}'x"},
		{"!‘ ?‘", "!{}` ?{}`"},
		{",,", ",{},"},
		// The symbols the report uses, and others.
		{"2 × 3 – 4 — 5 µs ≤ ≥ ± → … ’ 10⁹ m²", `2 $\times$ 3 -- 4 --- 5 $\mu$s $\leq$ $\geq$ $\pm$ $\rightarrow$ \dots{} ' 10$^{9}$ m$^{2}$`},
		{"1.08×10⁻⁵ and 10³⁰⁰²", `1.08$\times$10$^{-5}$ and 10$^{3002}$`},
		{"Café Ñandú Ça ïì ÿ straße", "Caf\\'{e} \\~{N}and\\'{u} \\c{C}a \\\"{\\i}\\`{\\i} \\\"{y} stra\\ss{}e"},
		{"日本 ð Ω \u00a0", "?? ? ? ~"},
		// Controls and format characters show as their code points.
		{"\x00\x7f\u0085\xff", "{[}U+0000{]}{[}U+007F{]}{[}U+0085{]}?"},
		{"a\u202eb\u200bc\u00add", "a{[}U+202E{]}b{[}U+200B{]}c\\-d"},
	} {
		if got := document.TexText(c.in); got != c.want {
			t.Errorf("texText(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// TestTeXTextASCII: every rune up to U+2FFF comes out as printable ASCII
// with braces balanced, and every Latin-1 letter with an accent as a
// command, not ?.
func TestTeXTextASCII(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		got := document.TexText(string(r))
		depth := 0
		for i := 0; i < len(got); i++ {
			c := got[i]
			if c < ' ' || c > '~' {
				t.Fatalf("texText(%q) = %q: not printable ASCII", r, got)
			}
			if i > 0 && got[i-1] == '\\' {
				continue
			}
			switch c {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth < 0 {
				break
			}
		}
		if depth != 0 || (strings.Count(got, "$")-strings.Count(got, `\$`))%2 != 0 {
			t.Errorf("texText(%q) = %q: unbalanced", r, got)
		}
		if r >= 0xc0 && r <= 0xff && r != 0xd0 && r != 0xd7 && r != 0xde && r != 0xf0 && r != 0xf7 && r != 0xfe && got == "?" {
			t.Errorf("texText(%q) = ?; want a command", r)
		}
	}
}

func TestTeXRefusesPaths(t *testing.T) {
	d := &document.Doc{Title: "t", Sections: []document.Section{{ID: "s", Title: "s", Blocks: []any{
		&document.Figure{ID: "c1", Title: "c", Series: []document.FigureSeries{{Name: "a", Points: []document.FigurePoint{{X: 1, Y: 2}, {X: 2, Y: 3}}}}},
	}}}}
	for _, figs := range []string{"my figs", "figs%", `fig{s}`, "figs~", "f\u00e9"} {
		var buf bytes.Buffer
		if err := document.WriteTeX(&buf, d, figs); err == nil {
			t.Errorf("writeTeX(figs %q) = nil; want an error", figs)
		}
	}
	var buf bytes.Buffer
	if err := document.WriteTeX(&buf, d, "../out/figs_1"); err != nil {
		t.Errorf("writeTeX(figs ../out/figs_1) = %v", err)
	}
	if want := `\includegraphics[width=\linewidth]{../out/figs_1/c1.png}`; !strings.Contains(buf.String(), want) {
		t.Errorf("the fragment lacks %s", want)
	}
}

// texDoc is a small report: a para of every hostile string and the
// symbols, a table of 9 columns with spread cells, a chart, an empty
// chart, and a table whose cell is too long for any line.
func texDoc() *document.Doc {
	s := document.Section{ID: "r000", Title: "Report 000 — OpenMP (Ceccherelli, 2023): 10⁹ cells/s"}
	s.Add(document.Para(strings.Join(texHostile, " ")))
	s.P("Speedup 4.0× at 50 000 characters, 1.2 µs – 3 ms; ≤ 5 %% ≥ 2; a ± b → c … it’s “fine”.")
	var all strings.Builder
	for r := rune(0xa0); r < 0x3000; r++ {
		if _, ok := document.TexRunes[r]; ok || document.TexLatin1(r) != "" {
			all.WriteString(string(r) + " ")
		}
	}
	s.Add(document.Para(all.String()))
	s.P("Read from results/some-machine-name/paper/a_very_long_file_name_without_any_space.csv and results/published/000_ceccherelli_table1.csv.")
	wide := &document.Table{Caption: "Table 1: time (s) by length and workers, median over the repetitions, min–max below",
		Head: []string{"algorithm", "len_a", "len_b", "workers", "time (s)", "published (s)", "GCUPS", "ours/published", "note"}}
	for _, alg := range []string{"fullmatrix", "tiled", "myers-parallel", `\input{/etc/passwd}`} {
		wide.Rows = append(wide.Rows, []string{alg, "50000", "50000", "8", "1.234 s\n1.201–1.311", "0.38", "2.026\n1.907–2.081", "3.247×", "skipped: no GPU"})
	}
	c := &document.Figure{ID: "r000fig3", Title: "Figure 3: speedup $x^2$ & #1 by length", XName: "string length (characters)", YName: "speedup (×)",
		Series: []document.FigureSeries{{Name: "tiled_4", Points: []document.FigurePoint{{X: 1000, Y: 1.5, Lo: 1.4, Hi: 1.6}, {X: 10000, Y: 3.9, Lo: 3.9, Hi: 3.9}}}, {Name: "published", Published: true, Points: []document.FigurePoint{{X: 1000, Y: 1.2, Lo: 1.2, Hi: 1.2}}}}}
	s.Add(wide, c, &document.Figure{ID: "empty", Title: "Nothing"})
	long := &document.Table{Caption: "A long cell", Head: []string{"name", "value"},
		Rows: [][]string{{strings.Repeat("verylongname", 20), "1"}, {"*starred", "[0.1–0.3]\n[bracketed]"}}}
	s.Add(long)
	s2 := document.Section{ID: "end_here", Title: `}\end{document} %`}
	s2.P("The last paragraph.")
	return &document.Doc{Title: `Levenshtein \write18{x} report`, Sections: []document.Section{s, s2}}
}

// TestTeXCompiles writes texDoc as LaTeX, with its figure and without,
// and compiles each inside a minimal document with pdflatex (texCompile).
func TestTeXCompiles(t *testing.T) {
	for _, figs := range []string{"", "figs"} {
		t.Run("figs="+figs, func(t *testing.T) {
			dir := t.TempDir()
			var buf bytes.Buffer
			if err := document.WriteTeX(&buf, texDoc(), figs); err != nil {
				t.Fatal(err)
			}
			if figs != "" {
				writePNG(t, filepath.Join(dir, figs, "r000fig3.png"))
				if !strings.Contains(buf.String(), `\includegraphics[width=\linewidth]{figs/r000fig3.png}`) {
					t.Error("no \\includegraphics of the chart")
				}
			} else if !strings.Contains(buf.String(), "the figure's points") {
				t.Error("the chart is not a table of its points")
			}
			texCompile(t, dir, buf.Bytes(), "levlab:end-here")
		})
	}
}

// TestTeXCompilesReport compiles the report of the committed results,
// its charts as tables, its alignments drawn.
func TestTeXCompilesReport(t *testing.T) {
	texTools(t)
	d, err := load(Options{Results: "../results"})
	if err != nil {
		t.Fatal(err)
	}
	r := build(d, levAlign)
	var buf bytes.Buffer
	if err := document.WriteTeX(&buf, r, ""); err != nil {
		t.Fatal(err)
	}
	last := r.Sections[len(r.Sections)-1].ID
	texCompile(t, t.TempDir(), buf.Bytes(), "levlab:"+document.TexLabel(last))
}

func writePNG(t *testing.T, path string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 8))
	for x := range 16 {
		img.Set(x, x/2, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// texTools skips the test where pdflatex or booktabs is missing, unless
// LEVLAB_REQUIRE_TEX=1, where it fails.
func texTools(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("pdflatex"); err != nil {
		why = "no pdflatex on PATH"
	} else if out, err := exec.Command("kpsewhich", "booktabs.sty").Output(); err != nil || len(bytes.TrimSpace(out)) == 0 {
		why = "pdflatex finds no booktabs.sty"
	}
	if why == "" {
		return
	}
	why += "; Debian's texlive-latex-base and texlive-latex-recommended hold what the test needs (make deps installs them as root)"
	if os.Getenv("LEVLAB_REQUIRE_TEX") == "1" {
		t.Fatalf("%s; LEVLAB_REQUIRE_TEX=1 forbids skipping", why)
	}
	t.Skipf("%s; skipping (set LEVLAB_REQUIRE_TEX=1 to make this a failure)", why)
}

var (
	overfull = regexp.MustCompile(`Overfull \\hbox \(([0-9.]+)pt too wide\)[^\n]*`)
	type3    = regexp.MustCompile(`/Subtype\s*/Type3`)
)

// texCompile writes fragment as dir/report.tex and compiles it, inside
// TeXDocument (which loads texPackages alone), with pdflatex without shell
// escape. It fails the test where pdflatex fails, where the log shows a
// line more than 3pt too wide or a float too large for the page, where a
// font is a bitmap (Type 3, made by mktexpk: a glyph no Type 1 font of
// pdflatex has), or where the .aux lacks lastLabel (the text stopped
// early).
func texCompile(t *testing.T, dir string, fragment []byte, lastLabel string) {
	t.Helper()
	texTools(t)
	// No object streams, so that the PDF's font dictionaries are text.
	main := "\\pdfobjcompresslevel=0\n" + document.TeXDocument("report.tex")
	for name, b := range map[string][]byte{"report.tex": fragment, "main.tex": []byte(main)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "main.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(filepath.Join(dir, "main.log"))
	if err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, tail(out, 3000))
	}
	for _, m := range overfull.FindAllSubmatch(log, -1) {
		if pt, _ := strconv.ParseFloat(string(m[1]), 64); pt > 3 {
			t.Errorf("%s", m[0])
		}
	}
	if i := bytes.Index(log, []byte("Float too large")); i >= 0 {
		t.Errorf("%s", bytes.SplitN(log[i:], []byte("\n"), 2)[0])
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "main.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if type3.Match(pdf) {
		t.Error("the PDF holds a Type 3 (bitmap) font: a glyph set from no Type 1 font")
	}
	aux, _ := os.ReadFile(filepath.Join(dir, "main.aux"))
	if !bytes.Contains(aux, []byte(`\newlabel{`+lastLabel+`}`)) {
		t.Errorf("main.aux lacks the label %s: the text stopped early\n%s", lastLabel, tail(log, 3000))
	}
}

// tail returns the last n bytes of b.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
