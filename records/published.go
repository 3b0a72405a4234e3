package records

import (
	"fmt"
	"math"
	"strings"
)

// ReadPublished reads every file CSVFiles lists in dir (results/published
// in the repository), in the order of their names, each row a Published
// number. A file must have exactly the columns of Published, in any order
// (an empty file holds no rows); a row must name its source, table,
// experiment and metric and hold a finite value. Errors name the file and,
// for a row, its line.
func ReadPublished(dir string) ([]Published, error) {
	paths, err := CSVFiles(dir)
	if err != nil {
		return nil, fmt.Errorf("records: published numbers: %w", err)
	}
	var all []Published
	for _, p := range paths {
		rows, err := ReadPublishedFile(p)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
}

func ReadPublishedFile(path string) ([]Published, error) {
	rows, err := readCSV[Published](path)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		// The header is line 1 and no published field spans lines.
		line := i + 2
		var missing []string
		for _, f := range []struct{ name, value string }{
			{"source", r.Source}, {"table", r.Table}, {"experiment", r.Experiment}, {"metric", r.Metric},
		} {
			if strings.TrimSpace(f.value) == "" {
				missing = append(missing, f.name)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("records: %s:%d: empty %s", path, line, strings.Join(missing, ", "))
		}
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			return nil, fmt.Errorf("records: %s:%d: value %v is not a finite number", path, line, r.Value)
		}
	}
	return rows, nil
}
