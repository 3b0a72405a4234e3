package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// exampleSpec copies examples/NAME.toml into a folder of its own beside a
// bin/ of the programs built (as make examples builds them), and returns
// the copy's path.
func exampleSpec(t *testing.T, name string, progs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for base, path := range progs {
		if err := os.Symlink(path, filepath.Join(dir, "bin", base)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readRecords returns a run's records of implementation impl by n, and
// the notes of its rows that are not ok.
func readRecords(t *testing.T, path, impl string) (ok map[int][]records.Record, notes map[int]string) {
	t.Helper()
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	ok, notes = map[int][]records.Record{}, map[int]string{}
	for _, r := range recs {
		if r.Algorithm != impl {
			continue
		}
		if r.Status == records.StatusOK {
			ok[r.LenA] = append(ok[r.LenA], r)
		} else {
			notes[r.LenA] = r.Status + ": " + r.Note
		}
	}
	return ok, notes
}

// Every example spec of a shape runs as written: the strings as
// arguments, a menu on stdin, one input file, strings of its own with its
// time in milliseconds. The run ends by naming the report command.
func TestSpecShapes(t *testing.T) {
	ex := examples(t)
	for _, c := range []struct {
		spec, name, prog string
	}{
		{"ed_args", "shape-args", "ed_args"},
		{"ed_menu", "shape-stdin", "ed_menu"},
		{"ed_file", "shape-file", "ed_file"},
		{"ed_fixed", "shape-fixed", "ed_fixed"},
		{"ed_seeded", "shape-seeded", "ed_seeded"},
	} {
		t.Run(c.spec, func(t *testing.T) {
			p := exampleSpec(t, c.spec, map[string]string{c.prog: filepath.Join(ex, c.prog)})
			out := filepath.Join(filepath.Dir(p), "out")
			stdout, stderr, code := levlab(t, "run", "--spec", p, "--out", out, "--reps", "1")
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			want := "to write it up: levlab report --results " + out + " --only " + c.name + " --out " + c.name + ".html\n"
			if !strings.HasSuffix(stdout, want) {
				t.Errorf("stdout does not end with %q:\n%s", want, stdout)
			}
			ok, notes := readRecords(t, filepath.Join(out, c.name+".csv"), c.prog)
			for _, n := range []int{1000, 4000, 16000} {
				if len(ok[n]) != 1 || ok[n][0].Seconds <= 0 {
					t.Errorf("n = %d: %d ok records (%s), want 1 with a time", n, len(ok[n]), notes[n])
				}
			}
			if c.spec == "ed_seeded" {
				// The program's milliseconds, as seconds: below the wall
				// time of a process that lived for them.
				if r := ok[16000]; len(r) == 1 && (r[0].Seconds > 60 || r[0].Seconds < 1e-4) {
					t.Errorf("n = 16000: %v s from the program's milliseconds", r[0].Seconds)
				}
			}
		})
	}
}

// A time printed in milliseconds and read as seconds is longer than the
// process lived: the point fails naming both, and the unit it would fit.
func TestSpecTimeUnit(t *testing.T) {
	ex := examples(t)
	p := exampleSpec(t, "ed_seeded", map[string]string{"ed_seeded": filepath.Join(ex, "ed_seeded")})
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `time_unit   = "ms"`, "", 1)), 0o644)
	out := filepath.Join(filepath.Dir(p), "out")
	stdout, stderr, code := levlab(t, "run", "--spec", p, "--out", out, "--reps", "1")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	_, notes := readRecords(t, filepath.Join(out, "shape-seeded.csv"), "ed_seeded")
	for _, w := range []string{"failed: printed a kernel time of ", " s, longer than the process lived: its wall time was ", `time_unit = "ms"`, `(the line "time: `} {
		if !strings.Contains(notes[1000], w) {
			t.Errorf("n = 1000: %q does not say %q", notes[1000], w)
		}
	}
}

// A spec that gives a program taking the strings as arguments the files'
// names ({a} {b}) fails its first size saying so, and what to write.
func TestSpecSaysFileNamesWereTaken(t *testing.T) {
	ex := examples(t)
	p := exampleSpec(t, "ed_args", map[string]string{"ed_args": filepath.Join(ex, "ed_args")})
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"{a:text}", "{b:text}"`, `"{a}", "{b}"`, 1)), 0o644)
	out := filepath.Join(filepath.Dir(p), "out")
	stdout, stderr, code := levlab(t, "run", "--spec", p, "--out", out, "--reps", "1")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	_, notes := readRecords(t, filepath.Join(out, "shape-args.csv"), "ed_args")
	want := regexp.MustCompile(`failed: answered 1 on the line "distance: 1", want \d+: 1 is the distance between its arguments …/a-1000-1000 and …/b-1000-1000, ` +
		`the names of the files \{a\} and \{b\} stand for; for the strings themselves as arguments write \{a:text\} and \{b:text\}$`)
	if !want.MatchString(notes[1000]) {
		t.Errorf("n = 1000: %s\nwant it to match %s", notes[1000], want)
	}
}

// After a failure at a size, the larger sizes of that implementation and
// worker count are skipped, saying why, in this run and the next;
// --keep-going times them.
func TestSpecSkipsAfterFailure(t *testing.T) {
	ex := examples(t)
	dir := t.TempDir()
	prog := writeScript(t, "past100", `if [ "$(wc -c < "$1")" -ge 100 ]; then echo "distance: 0"; exit 0; fi
exec "`+filepath.Join(ex, "ed_seeded")+`" -f "$1" "$2"
`)
	p := writeSpec(t, dir, "grow.toml", `name = "grow"
reps = 2
[inputs]
n = [50, 100, 200, 400]
[params]
workers = [1, 2]
[[impl]]
name = "past100"
command = ["`+prog+`", "{a}", "{b}", "{workers}"]
`)
	out := filepath.Join(dir, "out")
	for run := range 2 {
		stdout, stderr, code := levlab(t, "run", "--spec", p, "--out", out)
		if code != exitFailure || !strings.Contains(stderr, "2 points failed") {
			t.Fatalf("run %d: exit %d, want 1 with 2 points failed\n%s%s", run, code, stdout, stderr)
		}
		if run == 1 && !strings.Contains(stdout, "0 records written") {
			t.Errorf("run again: records written\n%s", stdout)
		}
	}
	ok, notes := readRecords(t, filepath.Join(out, "grow.csv"), "past100")
	if len(ok[50]) != 4 || !strings.Contains(notes[100], "failed: answered 0 on the line ") {
		t.Errorf("ok %v, notes %v: want 50 timed and 100 failed", ok, notes)
	}
	for _, n := range []int{200, 400} {
		for _, w := range []string{"skipped: past100 failed at n = 100, m = 100 with ", "answered 0 on the line ", ", want ", "larger sizes are not timed", "--keep-going"} {
			if !strings.Contains(notes[n], w) {
				t.Errorf("n = %d: %q does not say %q", n, notes[n], w)
			}
		}
	}
	stdout, stderr, code := levlab(t, "run", "--spec", p, "--out", out, "--keep-going")
	if code != exitFailure || !strings.Contains(stderr, "6 points failed") {
		t.Errorf("--keep-going: exit %d, want 1 with 6 points failed\n%s%s", code, stdout, stderr)
	}
	checkFailure(t, []string{"run", "--keep-going"}, exitUsage, "--keep-going is for --spec")
}

// The MPI example verified and timed through mpirun, where Open MPI is;
// the CUDA example's spec reads, and runs where nvcc and a GPU are.
func TestSpecMPIAndCUDA(t *testing.T) {
	for _, name := range []string{"ed_mpi", "ed_cuda"} {
		if _, err := spec.ReadFile(filepath.Join("..", "..", "examples", name+".toml")); err != nil {
			t.Errorf("examples/%s.toml: %v", name, err)
		}
	}
	if testing.Short() {
		t.Skip("compiles and runs MPI; not in -short")
	}
	mpicc, err1 := exec.LookPath("mpicc")
	_, err2 := exec.LookPath("mpirun")
	if err1 != nil || err2 != nil {
		t.Skipf("no Open MPI (mpicc %v, mpirun %v): make deps installs it", err1, err2)
	}
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
	t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	dir := t.TempDir()
	prog := filepath.Join(dir, "ed_mpi")
	if b, err := exec.Command(mpicc, "-O2", "-Wall", "-o", prog, "../../examples/ed_mpi.c").CombinedOutput(); err != nil {
		t.Fatalf("mpicc: %v\n%s", err, b)
	}
	// Shared memory and loopback alone: mpirun starts in a fraction of the
	// time it takes to probe every network interface.
	mpirunFlags := []string{"--oversubscribe", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}
	mpirun := append([]string{"mpirun"}, mpirunFlags...)
	stdout, stderr, code := verifyOut(t, append(append([]string{"--cases", "8", "--max-len", "2100", "--timeout", "1m", "--workers", "1,2,3", "--"}, mpirun...), "-np", "{workers}", prog, "{a}", "{b}")...)
	if code != exitOK || !strings.Contains(stdout, "24 agree, 0 fail") {
		t.Errorf("verify through mpirun: exit %d\n%s%s", code, stdout, stderr)
	}
	p := exampleSpec(t, "ed_mpi", map[string]string{"ed_mpi": prog})
	b, _ := os.ReadFile(p)
	text := strings.Replace(string(b), `"--oversubscribe"`, `"`+strings.Join(mpirunFlags, `", "`)+`"`, 1)
	os.WriteFile(p, []byte(strings.Replace(text, "n = [4000, 16000]", "n = [2000]", 1)), 0o644)
	out := filepath.Join(filepath.Dir(p), "out")
	stdout, stderr, code = levlab(t, "run", "--spec", p, "--out", out, "--reps", "1")
	if code != exitOK {
		t.Fatalf("run --spec examples/ed_mpi.toml: exit %d\n%s%s", code, stdout, stderr)
	}
	ok, notes := readRecords(t, filepath.Join(out, "shape-mpi.csv"), "ed_mpi")
	if len(ok[2000]) != 3 {
		t.Errorf("%d ok records at n = 2000, want one a worker count: %v", len(ok[2000]), notes)
	}
	for _, r := range ok[2000] {
		if r.Seconds <= 0 || r.Seconds > 10 || r.RanWorkers != r.Workers {
			t.Errorf("ranks %d: %v s (its own MPI time), ran %d", r.Workers, r.Seconds, r.RanWorkers)
		}
	}
}
