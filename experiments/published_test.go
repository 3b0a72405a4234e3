package experiments

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/records"
)

// publishedDir and seedsDir (the reports, beside the repository) are seen
// from this package's directory.
const (
	publishedDir = "../results/published"
	seedsDir     = "../../shared/seeds"
)

// asPrinted introduces, at the end of a published row's note, a passage
// copied from the report: the row's value is the last number in it.
const asPrinted = "as printed: "

var numberToken = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?`)

// planned names experiments the published files refer to before the
// catalog has them. None now: report 003's s003-ranks joined the catalog
// with match.Count.
var planned = map[string]bool{}

// publishedMetrics are the metrics the published files use.
var publishedMetrics = []string{"seconds", "speedup", "speedup_min", "speedup_max", "seconds_excl_alloc", "speedup_excl_alloc"}

func readCommitted(t *testing.T) []Published {
	t.Helper()
	rows, err := records.ReadPublished(publishedDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("no published numbers in %s", publishedDir)
	}
	return rows
}

func TestPublishedFiles(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(publishedDir, "*.csv"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no CSV files in %s (%v)", publishedDir, err)
	}
	names := make(map[string]bool)
	for _, e := range All() {
		names[e.Name] = true
	}
	if len(names) == 0 {
		t.Log("the catalog is empty: experiment names not checked")
	}
	total := 0
	logged := make(map[string]bool)
	for _, p := range paths {
		file, err := records.ReadPublishedFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(file) == 0 {
			t.Errorf("%s: no rows", p)
			continue
		}
		total += len(file)
		// One file per table or figure, named after its report.
		for i, r := range file {
			where := p + ":" + strconv.Itoa(i+2)
			if r.Source != file[0].Source || r.Table != file[0].Table {
				t.Errorf("%s: %s %s in a file of %s %s", where, r.Source, r.Table, file[0].Source, file[0].Table)
			}
			if !strings.HasPrefix(filepath.Base(p), r.Source[:min(4, len(r.Source))]) {
				t.Errorf("%s: source %s, but the file is named for another report", where, r.Source)
			}
			if ok, _ := regexp.MatchString(`^[0-9]{3}_[0-9a-f]{16}\.txt$`, r.Source); !ok {
				t.Errorf("%s: source %q is not a seed file name", where, r.Source)
			}
			if len(names) > 0 && !names[r.Experiment] {
				if planned[r.Experiment] {
					if !logged[r.Experiment] {
						t.Logf("%s: experiment %q is not in the catalog yet", where, r.Experiment)
						logged[r.Experiment] = true
					}
				} else {
					t.Errorf("%s: experiment %q is not in the catalog", where, r.Experiment)
				}
			}
			if r.Case != "" && !slices.Contains(Cases(), r.Case) && !planned[r.Experiment] {
				t.Errorf("%s: case %q, want empty (not stated) or one of %v", where, r.Case, Cases())
			}
			if _, err := lev.ParseAlgorithm(r.Algorithm); err != nil && r.Algorithm != "apm" {
				t.Errorf("%s: algorithm %q: %v", where, r.Algorithm, err)
			}
			if !slices.Contains(publishedMetrics, r.Metric) {
				t.Errorf("%s: metric %q, want one of %v", where, r.Metric, publishedMetrics)
			}
			if !(r.Value > 0) {
				t.Errorf("%s: value %v, want > 0", where, r.Value)
			}
			if r.LenA < 0 || r.LenB < 0 || r.Workers < 0 || r.Tile < 0 || r.Block < 0 {
				t.Errorf("%s: a negative length or parameter: %+v", where, r)
			}
			if r.Machine == "" {
				t.Errorf("%s: no machine (write %q where the report names none)", where, "not stated")
			}
		}
	}
	if rows := readCommitted(t); len(rows) != total {
		t.Errorf("records.ReadPublished(%s) returned %d rows, the files hold %d", publishedDir, len(rows), total)
	}
}

// readSeed returns the text of a report with every run of white space made
// one space, or skips the test where the reports are not checked out.
// $LEVLAB_SEEDS names their folder where it is not ../shared/seeds beside
// the repository.
func readSeed(t *testing.T, name string) string {
	t.Helper()
	dir := seedsDir
	if d := os.Getenv("LEVLAB_SEEDS"); d != "" {
		dir = d
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the reports are not here (%v): published numbers not checked against them", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("the source of a published number: %v", err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// evidence returns the passage a row's note quotes from its report.
func evidence(r Published) (string, bool) {
	i := strings.LastIndex(r.Note, asPrinted)
	if i < 0 {
		return "", false
	}
	return strings.Join(strings.Fields(r.Note[i+len(asPrinted):]), " "), true
}

// TestPublishedAsPrinted checks every published value against its report:
// the passage the note quotes must be in the report word for word, and the
// value must be the last number in it, so that a mistyped digit fails.
func TestPublishedAsPrinted(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(publishedDir, "*.csv"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no CSV files in %s (%v)", publishedDir, err)
	}
	seeds := make(map[string]string)
	for _, p := range paths {
		rows, err := records.ReadPublishedFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			text, ok := seeds[r.Source]
			if !ok {
				text = readSeed(t, r.Source)
				seeds[r.Source] = text
			}
			where := p + ":" + strconv.Itoa(i+2)
			passage, ok := evidence(r)
			if !ok {
				t.Errorf("%s: the note does not end with %q and the report's words: %q", where, asPrinted, r.Note)
				continue
			}
			if !strings.Contains(text, passage) {
				t.Errorf("%s: %q is not in %s", where, passage, r.Source)
				continue
			}
			tokens := numberToken.FindAllString(passage, -1)
			if len(tokens) == 0 {
				t.Errorf("%s: no number in %q", where, passage)
				continue
			}
			last := tokens[len(tokens)-1]
			if v, err := strconv.ParseFloat(last, 64); err != nil || v != r.Value {
				t.Errorf("%s: value %v, but %s prints %s (%q)", where, r.Value, r.Source, last, passage)
			}
		}
	}
}

// TestPublishedTables000 checks that 000's two tables are transcribed whole,
// each cell in its row and column: the tables' rows are read from the
// report itself.
func TestPublishedTables000(t *testing.T) {
	const source = "000_f95d38889c436586.txt"
	text := readSeed(t, source)
	tables := []struct {
		name, header, caption string
		// column returns the algorithm, workers and block of a column.
		column func(i int) (string, int, int)
	}{
		{"Table 1", "string chars seq time par time (4 thr) par time (8 thr)", "Table 1.", func(i int) (string, int, int) {
			return []string{"fullmatrix", "tiled", "tiled"}[i], []int{1, 4, 8}[i], 0
		}},
		{"Table 2", "block size string size 128 256 512 1024", "Table 2.", func(i int) (string, int, int) {
			return "cuda-diagonal", 0, 128 << i
		}},
	}
	rows := readCommitted(t)
	for _, tb := range tables {
		start := strings.Index(text, tb.header)
		end := strings.Index(text, tb.caption)
		if start < 0 || end < start {
			t.Fatalf("%s: %s not found in %s", source, tb.name, source)
		}
		type cell struct {
			alg            string
			workers, block int
			lenA, lenB     int
			value          float64
		}
		var want []cell
		fields := strings.Fields(text[start+len(tb.header) : end])
		for i := 0; i < len(fields); {
			n, err := strconv.Atoi(fields[i])
			if err != nil {
				t.Fatalf("%s %s: row label %q is not a length", source, tb.name, fields[i])
			}
			i++
			for col := 0; i < len(fields) && strings.HasSuffix(fields[i], "s"); col++ {
				v, err := strconv.ParseFloat(strings.TrimSuffix(fields[i], "s"), 64)
				if err != nil {
					t.Fatalf("%s %s: cell %q: %v", source, tb.name, fields[i], err)
				}
				alg, w, b := tb.column(col)
				want = append(want, cell{alg: alg, workers: w, block: b, lenA: n, lenB: n, value: v})
				i++
			}
		}
		var got []cell
		for _, r := range rows {
			if r.Source == source && r.Table == tb.name {
				got = append(got, cell{alg: r.Algorithm, workers: r.Workers, block: r.Block, lenA: r.LenA, lenB: r.LenB, value: r.Value})
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d rows published, the report has %d cells", tb.name, len(got), len(want))
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: the cell %+v of the report is not published", tb.name, w)
			}
		}
		for _, g := range got {
			if !slices.Contains(want, g) {
				t.Errorf("%s: the published row %+v is no cell of the report", tb.name, g)
			}
		}
	}
}

func TestReadPublishedErrors(t *testing.T) {
	const header = "source,table,experiment,algorithm,workers,tile,block,case,len_a,len_b,metric,value,machine,note\n"
	const row = "000_f95d38889c436586.txt,Table 1,s000-table1,fullmatrix,1,0,0,random,10000,10000,seconds,0.38,laptop,n\n"
	cases := []struct {
		name, content string
		want          []string // besides the file's path
	}{
		{"unknown column", strings.Replace(header, "note", "notes", 1) + row, []string{":1:", "notes", "note"}},
		{"missing column", strings.Replace(header, ",machine", "", 1) + strings.Replace(row, ",laptop", "", 1), []string{":1:", "machine"}},
		{"twice", header[:len(header)-1] + ",note\n" + row[:len(row)-1] + ",m\n", []string{":1:", "note"}},
		{"too many fields", header + row + strings.Replace(row, "0.38", "0,38", 1), []string{":3:"}},
		{"bad number", header + row + strings.Replace(row, "0.38", "fast", 1), []string{":3:", "value", "fast"}},
		{"empty experiment", header + strings.Replace(row, "s000-table1", "", 1), []string{":2:", "empty experiment"}},
		{"not finite", header + row + row + strings.Replace(row, "0.38", "NaN", 1), []string{":4:", "not a finite number"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t.csv")
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := records.ReadPublished(dir)
			if err == nil {
				t.Fatalf("ReadPublished of\n%s: no error", c.content)
			}
			for _, w := range append(c.want, path) {
				if w == ":1:" || w == ":2:" || w == ":3:" || w == ":4:" {
					w = path + w // the file and the line
				}
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}

	if _, err := records.ReadPublished(filepath.Join(t.TempDir(), "absent")); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Errorf("ReadPublished of a missing folder: %v, want an error naming it", err)
	}
	dir := t.TempDir()
	if rows, err := records.ReadPublished(dir); err != nil || len(rows) != 0 {
		t.Errorf("ReadPublished of an empty folder: %v, %v; want no rows and no error", rows, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte(header+row), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := records.ReadPublished(dir)
	if err != nil || len(rows) != 1 || rows[0].Value != 0.38 || rows[0].LenA != 10000 || rows[0].Note != "n" {
		t.Errorf("ReadPublished of one row: %+v, %v", rows, err)
	}
}
