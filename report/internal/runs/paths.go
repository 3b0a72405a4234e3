package runs

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/levlab/levlab/records"
)

// AbsPath returns p made absolute, or p as given where it cannot be.
func AbsPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// shownDir names a run's folder dir as the report shows it: within the
// results tree root, from the tree's own name on ("results/<machine>/<scale>"
// however root was given, so that no absolute path of the machine that
// wrote the report shows), elsewhere as given.
func shownDir(root, dir string) string {
	rel, err := filepath.Rel(AbsPath(root), AbsPath(dir))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return dir
	}
	return filepath.ToSlash(filepath.Join(filepath.Base(AbsPath(root)), rel))
}

// sameDir reports whether a and b name one folder.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// csvFiles returns the *.csv files directly in dir, in name order
// (records.CSVFiles); a folder that cannot be read holds none.
func csvFiles(dir string) []string {
	paths, _ := records.CSVFiles(dir)
	return paths
}
