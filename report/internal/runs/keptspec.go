package runs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// maxSpecBytes is the most of a kept spec the report reads: a spec of
// the largest grid levlab runs is a few kilobytes, so a file of more is
// not one (a log renamed, /dev/zero through a link).
const maxSpecBytes = 1 << 20

// keptSpecs reads the specs levlab run keeps beside an experiment's
// records (dir/NAME.toml) into ix: ix.Specs by the experiment each names,
// ix.SpecNotes what a reader of that experiment must hear of them, and
// ix.Problems the others' troubles.
//
// dir is listed, never made a Glob pattern, so that a folder named with a
// pattern's characters ("results[old]") has its specs. Each file is read
// as the records are (records.ReadFileLimit): a FIFO is not waited on, a
// device or anything but a regular file is refused, and so is a file of
// more than maxSpecBytes. Where two files name one experiment (a.toml and
// b.toml, or NAME.toml and a copy), NAME.toml, which levlab run writes, is
// used, else the first by name, and the note names every one.
func (ix *Index) keptSpecs(dir string) {
	ix.Specs, ix.SpecNotes = map[string]*spec.Spec{}, map[string][]string{}
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return // the records' reader names the folder
	}
	abs := AbsPath(dir)
	files := map[string][]string{} // experiment → the files that name it
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".toml") || e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		s, err := readKeptSpec(p)
		if err != nil {
			// Named as the report names the run's folder: no absolute
			// path of the machine that wrote it.
			why := strings.ReplaceAll(strings.TrimPrefix(err.Error(), "records: "), p, ix.Where+"/"+e.Name())
			if stem := strings.TrimSuffix(e.Name(), ".toml"); ix.Tally.Own[stem] {
				ix.SpecNotes[stem] = append(ix.SpecNotes[stem], "The kept spec not read: "+why+"; the figures and names are those the records give.")
			} else {
				ix.Problems = append(ix.Problems, why)
			}
			continue
		}
		s.Dir = abs
		files[s.Name] = append(files[s.Name], e.Name())
		if ix.Specs[s.Name] == nil || e.Name() == s.Name+".toml" {
			ix.Specs[s.Name] = s
		}
	}
	for name, fs := range files {
		if len(fs) < 2 {
			continue
		}
		used, why := fs[0], "the first by name; levlab run keeps its spec as "+name+".toml"
		if slices.Contains(fs, name+".toml") {
			used, why = name+".toml", "the one levlab run keeps"
		}
		others := slices.DeleteFunc(slices.Clone(fs), func(f string) bool { return f == used })
		ix.SpecNotes[name] = append(ix.SpecNotes[name], fmt.Sprintf("%d kept specs in %s name experiment %s: %s; %s is used (%s), not %s.",
			len(fs), ix.Where, name, strings.Join(fs, ", "), used, why, strings.Join(others, ", ")))
	}
}

// readKeptSpec reads and checks the spec at path (records.ReadFileLimit,
// then spec.Parse).
func readKeptSpec(path string) (*spec.Spec, error) {
	data, err := records.ReadFileLimit(path, maxSpecBytes)
	if err != nil {
		return nil, err
	}
	return spec.Parse(path, data)
}
