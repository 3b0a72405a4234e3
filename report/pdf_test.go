package report

import (
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestPDFWithinPages prints the committed report and the quick one to PDF
// and reads where each word lies (pdftotext -bbox, Debian's poppler-utils,
// which make deps installs): no word may run past its page's right edge;
// the committed report takes maxPDFPages A4 pages at most, and every page
// but the last is at least a third full.
func TestPDFWithinPages(t *testing.T) {
	needBrowser(t)
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("LEVLAB_REQUIRE_BROWSER") == "1" {
			t.Fatalf("no pdftotext (Debian: apt-get install poppler-utils); make deps installs it")
		}
		t.Skip("no pdftotext (Debian: apt-get install poppler-utils)")
	}
	// The committed report as levlab writes it: with its aligner, whose
	// drawn pairs take room too.
	for name, o := range map[string]Options{"committed": {Results: "../results", Align: levAlign}, "quick": {Results: quickResults(t)}} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			pdf := filepath.Join(dir, "report.pdf")
			o.Format = FormatPDF
			if err := WriteFile(pdf, o); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("pdftotext", "-bbox", pdf, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			pages := pageRe.FindAllSubmatchIndex(out, -1)
			if len(pages) == 0 {
				t.Fatalf("pdftotext found no page in %s", pdf)
			}
			words := 0
			for i, pg := range pages {
				width, _ := strconv.ParseFloat(string(out[pg[2]:pg[3]]), 64)
				height, _ := strconv.ParseFloat(string(out[pg[4]:pg[5]]), 64)
				end := len(out)
				if i+1 < len(pages) {
					end = pages[i+1][0]
				}
				lowest := 0.0 // the lowest word above the footer
				for _, w := range wordRe.FindAllSubmatch(out[pg[1]:end], -1) {
					words++
					xMax, _ := strconv.ParseFloat(string(w[1]), 64)
					yMax, _ := strconv.ParseFloat(string(w[2]), 64)
					if xMax > width+0.5 {
						t.Errorf("page %d: %q ends at %.1f pt, past the page's %.1f", i+1, w[3], xMax, width)
					}
					if yMax < height-footerBand {
						lowest = max(lowest, yMax)
					}
				}
				if name == "committed" && i+1 < len(pages) && lowest < height/3 {
					t.Errorf("page %d of %d: its text ends %.0f pt down a page of %.0f, less than a third full", i+1, len(pages), lowest, height)
				}
			}
			if name == "committed" && len(pages) > maxPDFPages {
				t.Errorf("the committed report prints on %d A4 pages; want %d at most", len(pages), maxPDFPages)
			}
			if words < 500 {
				t.Errorf("only %d words in the PDF's %d pages", words, len(pages))
			}
			if name == "committed" {
				sameNumbers(t, out, o)
			}
		})
	}
}

// maxPDFPages is the most A4 pages the committed report may print on, and
// footerBand the points at a page's foot that its footer takes.
const (
	maxPDFPages = 16
	footerBand  = 40
)

var (
	pageRe = regexp.MustCompile(`<page width="([0-9.]+)" height="([0-9.]+)">`)
	wordRe = regexp.MustCompile(`<word xMin="[0-9.-]+" yMin="[0-9.-]+" xMax="([0-9.-]+)" yMax="([0-9.-]+)">([^<]*)</word>`)
)

// sameNumbers checks that every figure and table the Markdown of o
// numbers is printed with the same number before the same first word of
// its caption in the PDF whose pdftotext -bbox output is bbox: paper
// numbers what it prints as the other formats do.
func sameNumbers(t *testing.T, bbox []byte, o Options) {
	t.Helper()
	var words []string
	for _, w := range wordRe.FindAllSubmatch(bbox, -1) {
		words = append(words, html.UnescapeString(string(w[3])))
	}
	printed := map[string]bool{}
	for i := 0; i+2 < len(words); i++ {
		if words[i] == "Figure" || words[i] == "Table" {
			printed[words[i]+" "+words[i+1]+" "+words[i+2]] = true
		}
	}
	md := filepath.Join(t.TempDir(), "report.md")
	o.Format = FormatMarkdown
	if err := WriteFile(md, o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range captionRe.FindAllStringSubmatch(string(b), -1) {
		n++
		if want := m[1] + " " + m[2] + ". " + m[3]; !printed[want] {
			t.Errorf("the Markdown's %q is not printed so in the PDF", want)
		}
	}
	if n < 20 {
		t.Errorf("only %d numbered captions in the Markdown", n)
	}
}

// captionRe is a numbered caption of the Markdown: its kind, number and
// first word.
var captionRe = regexp.MustCompile(`(?m)^(?:\*\*)?(Figure|Table) ([0-9]+)\. ([^\s*]+)`)
