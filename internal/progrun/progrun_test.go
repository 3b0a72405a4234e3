package progrun

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	ctx := context.Background()
	long := Options{Reading: Reading{Timeout: 5 * time.Second}}
	for _, c := range []struct {
		name    string
		args    []string
		o       Options
		want    int
		kernel  float64
		failure string
		kind    Kind
	}{
		{"last integer", []string{"sh", "-c", "echo 'on 4 threads'; echo 17"}, long, 17, 0, "", 0},
		{"regexp", []string{"sh", "-c", "echo 'distance: 9 (2 threads)'"}, Options{Reading: Reading{Timeout: time.Second, Distance: regexp.MustCompile(`distance: (\d+)`)}}, 9, 0, "", 0},
		{"kernel time", []string{"sh", "-c", "sleep 0.3; echo 'kernel 0.25 s'; echo 3"}, Options{Reading: Reading{Timeout: time.Second, Time: regexp.MustCompile(`kernel ([0-9.]+) s`)}}, 3, 0.25, "", 0},
		{"env", []string{"sh", "-c", "echo $LEVLAB_X"}, Options{Env: []string{"LEVLAB_X=41"}, Reading: Reading{Timeout: time.Second}}, 41, 0, "", 0},
		{"no time", []string{"sh", "-c", "echo 3"}, Options{Reading: Reading{Timeout: time.Second, Time: regexp.MustCompile(`kernel ([0-9.]+) s`)}}, 0, 0, "printed no time", NoTime},
		{"no number", []string{"sh", "-c", "echo none"}, long, 0, 0, `printed no distance (no integer on a line naming the distance, on a line of its own, or apart from a decimal number on stdout): "none"`, NoDistance},
		{"on stderr", []string{"sh", "-c", "echo 'distance: 5' >&2"}, long, 0, 0, `printed no distance (no integer on a line naming the distance, on a line of its own, or apart from a decimal number on stdout); its stderr has one, the line "distance: 5": levlab reads the distance on stdout`, NoDistance},
		{"on stderr, regexp", []string{"sh", "-c", "echo 'd=5' >&2"}, Options{Reading: Reading{Timeout: time.Second, Distance: regexp.MustCompile(`d=(\d+)`)}}, 0, 0, `its stderr has one, the line "d=5"`, NoDistance},
		{"exit", []string{"sh", "-c", "echo why >&2; exit 4"}, long, 0, 0, `exited with status 4: "why"`, Exit},
		{"signal", []string{"sh", "-c", "kill -KILL $$"}, long, 0, 0, "killed by signal 9 (killed)", Signal},
		{"time-out", []string{"sleep", "10"}, Options{Reading: Reading{Timeout: 200 * time.Millisecond}}, 0, 0, "ran past its time-out of 200ms", Timeout},
		{"flood", []string{"yes"}, long, 0, 0, "printed more than 1.0 MiB", Output},
		{"missing", []string{"/no/such/program"}, long, 0, 0, "cannot start it", Start},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			r := run(ctx, c.args, c.o)
			if c.failure != "" {
				if !strings.Contains(r.Failure, c.failure) || r.Kind != c.kind {
					t.Errorf("failure %q of kind %v, want %q of kind %v", r.Failure, r.Kind, c.failure, c.kind)
				}
			} else if r.Failure != "" || r.Distance != c.want || r.Kernel != c.kernel {
				t.Errorf("%+v, want distance %d, kernel %v", r, c.want, c.kernel)
			}
			if r.Failure == "" && (r.Wall <= 0 || r.PeakRSS <= 0) {
				t.Errorf("wall %v, peak RSS %d: want both measured", r.Wall, r.PeakRSS)
			}
			if took := time.Since(start); took > 4*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// run is Run with its error in words, "" where there is none, and its
// Kind, as the tests compare them.
func run(ctx context.Context, args []string, o Options) failedRun {
	r, err := Run(ctx, args, o)
	f := failedRun{Result: r}
	if err != nil {
		f.Failure, f.Kind = err.Error(), KindOf(err)
	}
	return f
}

type failedRun struct {
	Result
	Failure string
	Kind    Kind
}

func TestPlaceholders(t *testing.T) {
	if err := CheckPlaceholders(Placeholders, "{a}", "x{b}y", "{workers}"); err != nil {
		t.Error(err)
	}
	if err := CheckPlaceholders(NoTilePlaceholders, "{tile}"); err == nil || !strings.Contains(err.Error(), "{tile}") {
		t.Errorf("{tile} where it is not allowed: %v", err)
	}
	v := Values{A: "/a", B: "/b", N: 3, M: 4, Workers: 2, Tile: 64}
	if got := v.Expand("{a} {b} {n}x{m} w{workers} t{tile} {c}"); got != "/a /b 3x4 w2 t64 {c}" {
		t.Errorf("Expand: %q", got)
	}
}

func TestExecutable(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p")
	os.WriteFile(prog, []byte("#!/bin/sh\necho 1\n"), 0o644)
	if err := Executable("levlab-no-such-program", dir); err == nil || !strings.Contains(err.Error(), "not found on PATH") {
		t.Errorf("a name without a slash, on no PATH: %v", err)
	}
	if err := Executable("./p", dir); err == nil || !strings.Contains(err.Error(), "not executable") {
		t.Errorf("./p, not executable: %v", err)
	}
	os.Chmod(prog, 0o755)
	if err := Executable("./p", dir); err != nil {
		t.Errorf("./p: %v", err)
	}
	if err := Executable(dir, ""); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder: %v", err)
	}
	if err := Executable("sh", ""); err != nil {
		t.Errorf("sh: %v", err)
	}
}

// A kernel time the program prints is checked against the time it lived:
// none takes no time, or longer than the process that ran it.
func TestRunKernelTime(t *testing.T) {
	re := regexp.MustCompile(`kernel (\S+) s`)
	for _, c := range []struct {
		name, printed string
		want          []string // in the failure; none: the run counts
	}{
		{"in the wall time", "0.0001", nil},
		{"longer than it lived", "5", []string{`a kernel time of 5 s`, "longer than", "wall time"}},
		{"zero", "0", []string{"a kernel time of 0 s", "more digits"}},
		{"zero with digits", "0.000000", []string{"a kernel time of 0.000000 s"}},
		{"below a nanosecond", "1e-300", []string{"a kernel time of 1e-300 s", "less than a nanosecond"}},
		{"negative", "-1", []string{"a kernel time of -1 s"}},
		{"not a number", "NaN", []string{`a kernel time of NaN s`}},
		{"infinite", "1e400", []string{`a kernel time of 1e400 s`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(context.Background(), []string{"sh", "-c", "echo 'kernel " + c.printed + " s'; echo 3"}, Options{Reading: Reading{Timeout: 5 * time.Second, Time: re}})
			if c.want == nil {
				if r.Failure != "" || r.Kernel <= 0 || r.Kernel > r.Wall {
					t.Errorf("%+v, want the kernel time counted", r)
				}
				return
			}
			if r.Kernel != 0 {
				t.Errorf("kernel %v kept, want 0 with the failure", r.Kernel)
			}
			for _, w := range c.want {
				if !strings.Contains(r.Failure, w) {
					t.Errorf("failure %q does not say %q", r.Failure, w)
				}
			}
		})
	}
}

// A number no int holds is said to be out of range, quoted, not missing.
func TestRunDistanceOutOfRange(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"last integer", Options{Reading: Reading{Timeout: 5 * time.Second}}},
		{"regexp", Options{Reading: Reading{Timeout: 5 * time.Second, Distance: regexp.MustCompile(`distance: (\d+)`)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(context.Background(), []string{"sh", "-c", "echo 'distance: 1000000000000000000000000000000'"}, c.o)
			for _, w := range []string{"out of range", `"1000000000000000000000000000000"`} {
				if !strings.Contains(r.Failure, w) {
					t.Errorf("failure %q does not say %q", r.Failure, w)
				}
			}
		})
	}
}

// MkdirTemp says, when TMPDIR names no folder, which variable is wrong
// and what to do.
func TestMkdirTempMissingTMPDIR(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	t.Setenv("TMPDIR", missing)
	dir, err := MkdirTemp("levlab-test-")
	if err == nil {
		os.RemoveAll(dir)
		t.Fatalf("made %s in a TMPDIR that does not exist", dir)
	}
	for _, w := range []string{"TMPDIR", missing, "does not exist", "mkdir -p"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	t.Setenv("TMPDIR", file)
	if _, err := MkdirTemp("levlab-test-"); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("TMPDIR a file: %v", err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	dir, err = MkdirTemp("levlab-test-")
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(dir)
}

// TestRunAlso: one run read three more ways, each with its own distance,
// time and unit, and its own failure where its reading finds no answer; a
// run that fails fails every reading, each saying so.
func TestRunAlso(t *testing.T) {
	re := regexp.MustCompile
	prog := []string{"sh", "-c", "echo 'i: 3 in 0.000001 s'; echo 'p: 4 in 2 us'; exit $0", "0"}
	o := Options{Reading: Reading{Timeout: 5 * time.Second, Distance: re(`i: (\d+)`), Time: re(`i: \d+ in (\S+) s`)},
		Also: []Reading{
			{Distance: re(`p: (\d+)`), Time: re(`p: \d+ in (\S+) us`), TimeUnit: "us"},
			{Distance: re(`q: (\d+)`)},
			{Distance: re(`p: (\d+)`), TimeUnit: "weeks"},
		}}
	if _, err := Run(context.Background(), prog, o); err == nil || !strings.Contains(err.Error(), `time unit "weeks"`) {
		t.Fatalf("a reading of an unknown time unit: %v, want it refused", err)
	}
	o.Also = o.Also[:2]
	r, err := Run(context.Background(), prog, o)
	if err != nil || r.Distance != 3 || r.Kernel != 1e-6 || len(r.Also) != 2 {
		t.Fatalf("%+v, %v; want 3 in 1 µs and two more readings", r, err)
	}
	if a := r.Also[0]; a.Err != nil || a.Distance != 4 || a.Kernel != 2e-6 || a.Wall != r.Wall || a.CPU != r.CPU || a.Line != "p: 4 in 2 us" {
		t.Errorf("the second reading: %+v, %v; want 4 in 2 µs, on the line it was read from, of the same run", a.Result, a.Err)
	}
	if a := r.Also[1]; KindOf(a.Err) != NoDistance || !strings.Contains(a.Err.Error(), `no match of "q: (`) {
		t.Errorf("the third reading: %v, want no distance, naming its regexp", a.Err)
	}
	prog[3] = "3"
	r, err = Run(context.Background(), prog, o)
	for i, e := range []error{err, r.Also[0].Err, r.Also[1].Err} {
		if KindOf(e) != Exit || !strings.Contains(e.Error(), "status 3") {
			t.Errorf("reading %d of a run that exited 3: %v", i, e)
		}
	}
	if r.Also[0].Distance != 0 || r.Also[0].Kernel != 0 {
		t.Errorf("a failed run's reading kept %+v", r.Also[0].Result)
	}
}
