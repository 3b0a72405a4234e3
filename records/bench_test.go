package records

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadBench(t *testing.T) {
	root := t.TempDir()
	dir := BenchPath(root, "box-2c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "commit: abc\ngoos: linux\npkg: example.com/p\n" +
		"BenchmarkDistance/alg=myers/n=10-2   \t 3\t 120 ns/op\t 8.5 GCUPS\t 16 B/op\t 1 allocs/op\n" +
		"BenchmarkPlain \t 10\t 5 ns/op\t 200.5 MB/s\n" +
		"    a test log: with a colon\nPASS\nok  \texample.com/p\t1.0s\n"
	if err := os.WriteFile(filepath.Join(dir, "p.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// A bench folder is not a scale: no run comes of it.
	if err := os.MkdirAll(RunDir(root, "box-2c", ScaleQuick), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(RunDir(root, "box-2c", ScaleQuick), "e.csv"), []byte("h\nrow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(root)
	if err != nil || len(runs) != 1 || runs[0].Scale != ScaleQuick {
		t.Errorf("Runs = %v, %v; want box-2c/quick alone", runs, err)
	}
	all, err := Benches(root)
	if err != nil {
		t.Fatal(err)
	}
	files := all["box-2c"]
	if len(all) != 1 || len(files) != 1 {
		t.Fatalf("Benches = %v, want one file of box-2c", all)
	}
	f := files[0]
	if f.Config["commit"] != "abc" || f.Config["pkg"] != "example.com/p" || len(f.Config) != 3 {
		t.Errorf("config = %v, want commit, goos and pkg", f.Config)
	}
	if len(f.Results) != 2 {
		t.Fatalf("results = %+v, want 2", f.Results)
	}
	r := f.Results[0]
	if r.Name != "Distance/alg=myers/n=10" || r.Procs != 2 || r.Iters != 3 ||
		r.Values["ns/op"] != 120 || r.Values["GCUPS"] != 8.5 || r.Values["allocs/op"] != 1 {
		t.Errorf("first result = %+v", r)
	}
	if r := f.Results[1]; r.Name != "Plain" || r.Procs != 1 || r.Values["MB/s"] != 200.5 {
		t.Errorf("second result = %+v", r)
	}

	for _, bad := range []string{
		"BenchmarkX-2 \t three\t 1 ns/op\n",
		"BenchmarkX-2 \t 3\t fast ns/op\n",
		"BenchmarkX-2 \t 3\t 1\n",
	} {
		path := filepath.Join(t.TempDir(), "bad.txt")
		if err := os.WriteFile(path, []byte("pkg: p\n"+bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadBench(path); err == nil || !strings.Contains(err.Error(), path+":2:") {
			t.Errorf("ReadBench of %q: %v; want an error naming %s:2", bad, err, path)
		}
	}
}

// TestBenchesLinkedMachine: a machine folder that links to another is not
// a second machine's benchmarks.
func TestBenchesLinkedMachine(t *testing.T) {
	root := t.TempDir()
	dir := BenchPath(root, "a-box")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.txt"), []byte("BenchmarkX \t 10\t 5 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"0-box", "z-box"} {
		if err := os.Symlink("a-box", filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	all, err := Benches(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || len(all["a-box"]) != 1 {
		t.Errorf("Benches: %v; want a-box's one file alone", all)
	}
}
