package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
)

// heldOnce are names that one file holds as constants, and the code
// elsewhere names by them: a name spelled out again could drift from its
// constant unseen.
var heldOnce = []struct {
	home string         // the file, from the module's root
	what string         // the names, in words
	re   *regexp.Regexp // a spelling of one of them in code
}{
	{"records/names.go", "the course reports' files (records.Seed…)",
		regexp.MustCompile(regexp.QuoteMeta(records.Seed000) + "|" + regexp.QuoteMeta(records.Seed001) + "|" + regexp.QuoteMeta(records.Seed002) + "|" +
			regexp.QuoteMeta(records.Seed003) + "|" + regexp.QuoteMeta(records.Seed004))},
	{"records/names.go", "a case compared or listed (records.Case…)",
		regexp.MustCompile(`(Case\s*[!=]=\s*|\[\]string\{\s*|Case:\s*)"(random|dna|identical|partial|diverged|different|words)"`)},
	{"report/build.go", "a section's id (report.Section…)", regexp.MustCompile(`Section\{ID: "|\bid:\s+"`)},
	{"spec/spec.go", "a figure's axis compared (spec.Dim…, spec.Y…)", regexp.MustCompile(`\bf\.(X|Y)\s*[!=]=\s*"`)},
}

// TestNamesHeldOnce: the names above are spelled out only in their home,
// in non-test Go, comments aside.
func TestNamesHeldOnce(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "//")
			for _, h := range heldOnce {
				if filepath.ToSlash(rel) != h.home && h.re.MatchString(code) {
					t.Errorf("%s:%d spells out %s, which %s holds: name its constant", rel, i+1, h.what, h.home)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("read %d Go files under %s, want the whole module", files, root)
	}
}
