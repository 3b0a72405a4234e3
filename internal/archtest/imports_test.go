package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/levlab/levlab"

// mayUse lists, for every package of the module (relative to it), the
// packages of the module it may depend on, directly or not; anything means
// no restriction. A new package must be given its line here, or the test
// fails: experiments and report join when they land, with report kept off
// lev.
var mayUse = map[string][]string{
	"cudaext":              {"internal/atomicfile"},
	"lev":                  {"cudaext", "internal/atomicfile", "internal/bitpar", "internal/option", "internal/sysmem"}, // atomicfile through cudaext's CUBIN cache
	"lev/levtest":          {"lev", "cudaext", "internal/atomicfile", "internal/bitpar", "internal/option", "internal/sysmem"},
	"match":                {"cudaext", "internal/atomicfile", "internal/bitpar", "internal/option"}, // beside lev, not on it
	"cmd/levlab":           anything,
	"internal/alignview":   {},
	"internal/archtest":    {},
	"internal/chromium":    {},
	"internal/buildinfo":   {},
	"internal/edlib":       {},
	"internal/mpi":         {"lev", "cudaext", "internal/atomicfile", "internal/bitpar", "internal/option", "internal/sysmem"}, // lev.Ranks, for Comm.Link
	"internal/matrixshard": {"internal/mpi", "lev", "cudaext", "internal/atomicfile", "internal/bitpar", "internal/option", "internal/sysmem", "internal/buildinfo", "records"},
	"internal/atomicfile":  {},
	"internal/bitpar":      {},
	"internal/option":      {},
	"internal/shard":       {},
	"internal/sysmem":      {},
	"records":              {},
	"spec":                 {"internal/progrun", "records"},
	"internal/progrun":     {},
	"report":               {"records", "spec", "internal/progrun", "report/internal/document", "report/internal/runs", "internal/alignview", "internal/atomicfile", "internal/chromium", "internal/buildinfo"},
	// The report's document — its model, renderers and export — knows
	// nothing of records or runs: the write-up (report) builds it.
	"report/internal/document": {"internal/alignview", "internal/atomicfile", "internal/chromium"},
	// The runs read — chosen, tallied, aggregated, dated against their
	// code — know records and spec, and nothing of the document.
	"report/internal/runs": {"records", "spec", "internal/progrun"},
	"experiments":          {"lev", "match", "cudaext", "records", "spec", "internal/progrun", "internal/atomicfile", "internal/bitpar", "internal/option", "internal/shard", "internal/sysmem", "internal/buildinfo", "internal/edlib"},
	"notebooks":            {},
	"notebooks/nb":         {"experiments", "lev", "lev/levtest", "match", "cudaext", "records", "spec", "internal/progrun", "report", "report/internal/document", "report/internal/runs", "internal/alignview", "internal/shard", "internal/atomicfile", "internal/bitpar", "internal/option", "internal/sysmem", "internal/chromium", "internal/buildinfo", "internal/edlib"},
}

var anything = []string{"*"}

// cgoPackages are the only packages that may use cgo: the GPU's driver,
// the edlib peer and MPI (its non-blocking messages), each with its C in .c
// files (docs/layout.md).
var cgoPackages = []string{"cudaext", "internal/edlib", "internal/mpi"}

// tagSets are the builds checked: the default one and those of the build
// tags the Makefile uses (edlib: the peer; mpi: levlab under mpirun).
var tagSets = []string{"", "edlib", "mpi"}

func TestImportDirection(t *testing.T) {
	for _, tags := range tagSets {
		t.Run("tags="+tags, func(t *testing.T) { checkImports(t, tags) })
	}
}

func checkImports(t *testing.T, tags string) {
	out, err := exec.Command("go", "list", "-tags", tags, "-f", `{{.ImportPath}}|{{join .Deps " "}}|{{len .CgoFiles}}`, module+"/...").Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -tags %q: %v\n%s", tags, err, stderr)
	}
	seen := 0
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		path, rest, _ := strings.Cut(strings.TrimSpace(line), "|")
		deps, cgoFiles, _ := strings.Cut(rest, "|")
		pkg := relative(path)
		seen++
		if cgoFiles != "0" && !slices.Contains(cgoPackages, pkg) {
			t.Errorf("tags %q: %s uses cgo; only %s may", tags, pkg, strings.Join(cgoPackages, " and "))
		}
		allowed, ok := mayUse[pkg]
		if !ok {
			t.Errorf("%s has no line in mayUse: say which packages of the module it may depend on (docs/layout.md)", pkg)
			continue
		}
		if slices.Equal(allowed, anything) {
			continue
		}
		for dep := range strings.FieldsSeq(deps) {
			rel := relative(dep)
			if rel != dep && !slices.Contains(allowed, rel) {
				t.Errorf("tags %q: %s depends on %s; it may depend only on %q of this module", tags, pkg, rel, allowed)
			}
		}
	}
	// The listing itself must have worked: at least the packages named above.
	if seen < 3 {
		t.Errorf("go list found %d packages of %s:\n%s", seen, module, out)
	}
}

// relative returns path relative to the module ("." for its root), or path
// itself when it lies outside the module.
func relative(path string) string {
	if path == module {
		return "."
	}
	if rel, ok := strings.CutPrefix(path, module+"/"); ok {
		return rel
	}
	return path
}
