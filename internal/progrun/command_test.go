package progrun

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A Command writes the files its templates name, fills every placeholder
// in its words, variables, stdin and input file, and reads the answer.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	files, err := OpenFiles(filepath.Join(dir, "job"))
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	stdin, input := "{a:text}|{n}\n", "{b:text} {m} {tile}\n"
	c := Command{
		Args:    []string{"sh", "-c", `printf '%s;%s;%s;' "$(cat "$0")" "$(cat "$1")" "$X"; cat; cat "$2"; echo 'distance: 7'`, "{a}", "{b}", "{input}"},
		Env:     []string{"X=w{workers}"},
		Stdin:   &stdin,
		Input:   &input,
		Reading: Reading{Timeout: 5 * time.Second},
	}
	want := 7
	cs := Case{A: []byte("abc"), B: []byte("de"), N: 3, M: 2, Workers: 4, Tile: 64, Want: &want}
	for range 2 { // the second time, over the files the first left
		res, err := c.Run(context.Background(), files, cs)
		if err != nil || res.Distance != 7 || res.Line != "distance: 7" {
			t.Fatalf("%+v, %v", res, err)
		}
		cs.A, cs.B, cs.N, cs.M = []byte("x"), []byte("yz"), 1, 2
	}
	for name, want := range map[string]string{"a": "x", "b": "yz", "input": "yz 2 64\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, "job", name)); err != nil || string(b) != want {
			t.Errorf("file %s: %q, %v; want %q", name, b, err, want)
		}
	}

	// What the program is given, its input file named by the case.
	args, env, in, file := c.Expand(c.Values(files.Dir, Case{A: []byte("abc"), B: []byte("de"), N: 3, M: 2, Workers: 4, Tile: 64, InputName: "in-4"}))
	if args[3] != filepath.Join(files.Dir, "a") || args[4] != filepath.Join(files.Dir, "b") || args[5] != filepath.Join(files.Dir, "in-4") {
		t.Errorf("args %q", args)
	}
	if strings.Join(env, " ") != "X=w4" || string(in) != "abc|3\n" || string(file) != "de 2 64\n" {
		t.Errorf("env %q, stdin %q, input %q", env, in, file)
	}
}

// A case's own files are named and left alone; a command without {a} or
// {b} has no files written; one with no stdin template reads /dev/null.
func TestCommandFiles(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "mine")
	if err := os.WriteFile(own, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := &Files{Dir: filepath.Join(dir, "run")}
	os.Mkdir(files.Dir, 0o755)
	c := Command{Args: []string{"sh", "-c", `wc -c < "$0"; cat`, "{a}"}, Reading: Reading{Timeout: 5 * time.Second}}
	res, err := c.Run(context.Background(), files, Case{A: []byte("x"), B: []byte("y"), FileA: own, FileB: own})
	if err != nil || res.Distance != 5 {
		t.Errorf("a case's own file: %+v, %v", res, err)
	}
	if entries, _ := os.ReadDir(files.Dir); len(entries) != 0 {
		t.Errorf("files written beside a case's own: %v", entries)
	}
	c = Command{Args: []string{"echo", "3"}, Reading: Reading{Timeout: 5 * time.Second}}
	if _, err := c.Run(context.Background(), files, Case{A: []byte("x"), B: []byte("y")}); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(files.Dir); len(entries) != 0 {
		t.Errorf("files written for a command that names none: %v", entries)
	}
}

// A relative program with a slash is taken from Dir, where it also runs.
func TestCommandDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prog"), []byte("#!/bin/sh\nls\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "42"), nil, 0o644)
	c := Command{Args: []string{"./prog"}, Reading: Reading{Dir: dir, Timeout: 5 * time.Second}}
	if res, err := c.Run(context.Background(), &Files{Dir: t.TempDir()}, Case{}); err != nil || res.Distance != 42 {
		t.Errorf("./prog in Dir: %+v, %v", res, err)
	}
}

// With InputName the input file has that name and the program runs in
// the run's folder, beside it; a relative program is still taken from
// Dir. Bad names are refused, saying what a name may be.
func TestCommandInputName(t *testing.T) {
	dir, runs := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prog"), []byte("#!/bin/sh\nwc -c < input.txt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmpl := "{a:text}-{b:text}"
	c := Command{Args: []string{"./prog"}, Input: &tmpl, InputName: "input.txt", Reading: Reading{Dir: dir, Timeout: 5 * time.Second}}
	res, err := c.Run(context.Background(), &Files{Dir: runs}, Case{A: []byte("abc"), B: []byte("de")})
	if err != nil || res.Distance != 6 {
		t.Errorf("./prog reading input.txt: %+v, %v; want 6 bytes read", res, err)
	}
	if _, err := os.Stat(filepath.Join(runs, "input.txt")); err != nil {
		t.Errorf("input.txt not written in the run's folder: %v", err)
	}
	for name, want := range map[string]string{"": "the name of a file", "..": "the name of a file", "in/put.txt": "not a path", `in\put`: "not a path", "a": "{a} and {b}", "input.txt": ""} {
		err := CheckInputName(name)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("CheckInputName(%q) = %v, want %q", name, err, want)
		}
	}
}

// Every Kind of failure, through a Command: the error is an *Error of
// that Kind, found with errors.As, its words as levlab prints them.
func TestCommandKinds(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	three := 3
	seen := map[Kind]bool{}
	sh := func(script string) []string { return []string{"sh", "-c", script} }
	for _, c := range []struct {
		kind  Kind
		cmd   Command
		ctx   context.Context
		files *Files
		want  *int
		says  string
	}{
		{Start, Command{Args: []string{"/no/such/program"}}, nil, nil, nil, "cannot start it: "},
		{Start, Command{Args: []string{"true"}, Reading: Reading{TimeUnit: "min"}}, nil, nil, nil, `time unit "min"`},
		{Inputs, Command{Args: []string{"cat", "{a}"}}, nil, &Files{Dir: "/no/such/folder"}, nil, "/no/such/folder/a"},
		{Timeout, Command{Args: []string{"sleep", "10"}, Reading: Reading{Timeout: 100 * time.Millisecond}}, nil, nil, nil, "ran past its time-out of 100ms and was killed"},
		{Canceled, Command{Args: []string{"sleep", "10"}}, canceled, nil, nil, "was stopped with its process group, as the run was (context canceled)"},
		{Signal, Command{Args: sh("kill -TERM $$")}, nil, nil, nil, "killed by signal 15 (terminated)"},
		{Exit, Command{Args: sh("echo oops >&2; exit 2")}, nil, nil, nil, `exited with status 2: "oops"`},
		{Output, Command{Args: []string{"yes"}}, nil, nil, nil, "printed more than 1.0 MiB on stdout, and was stopped"},
		{NoDistance, Command{Args: sh("echo none")}, nil, nil, nil, "exited 0 but printed no distance"},
		{BadDistance, Command{Args: sh("echo 'distance: 99999999999999999999999'")}, nil, nil, nil, "printed a distance out of range"},
		{BadDistance, Command{Args: sh("echo 'd=x'"), Reading: Reading{Distance: regexp.MustCompile(`d=(\S+)`)}}, nil, nil, nil, `printed a distance that is no integer, "x"`},
		{NoTime, Command{Args: sh("echo 3"), Reading: Reading{Time: regexp.MustCompile(`time ([0-9.]+)`)}}, nil, nil, nil, "printed no time"},
		{BadTime, Command{Args: sh("echo 'time 0'; echo 3"), Reading: Reading{Time: regexp.MustCompile(`time ([0-9.]+)`)}}, nil, nil, nil, "printed a kernel time of 0 s"},
		{BadTime, Command{Args: sh("echo 'time 9000'; echo 3"), Reading: Reading{Time: regexp.MustCompile(`time ([0-9.]+)`), TimeUnit: "s"}}, nil, nil, nil, "longer than the process lived"},
		{WrongDistance, Command{Args: sh("echo 'distance: 4'")}, nil, nil, &three, `printed 4, want 3 (the line "distance: 4")`},
	} {
		seen[c.kind] = true
		t.Run(c.kind.String(), func(t *testing.T) {
			if c.cmd.Timeout == 0 {
				c.cmd.Timeout = 5 * time.Second
			}
			ctx := c.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			files := c.files
			if files == nil {
				files = &Files{Dir: t.TempDir()}
			}
			_, err := c.cmd.Run(ctx, files, Case{A: []byte("ab"), B: []byte("b"), N: 2, M: 1, Want: c.want})
			var e *Error
			if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(e.Msg, c.says) || err.Error() != e.Msg {
				t.Errorf("%v (%#v), want an *Error of kind %v saying %q", err, err, c.kind, c.says)
			}
			if KindOf(err) != c.kind {
				t.Errorf("KindOf: %v, want %v", KindOf(err), c.kind)
			}
		})
	}
	for k := Start; k <= WrongDistance; k++ {
		if !seen[k] || strings.HasPrefix(k.String(), "kind ") {
			t.Errorf("kind %v: tried %v, or it has no name", k, seen[k])
		}
	}
}

// The error beneath is kept: the file system's, the context's.
func TestErrorUnwraps(t *testing.T) {
	c := Command{Args: []string{"cat", "{a}"}, Reading: Reading{Timeout: time.Second}}
	_, err := c.Run(context.Background(), &Files{Dir: "/no/such/folder"}, Case{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("writing into no folder: %v does not wrap fs.ErrNotExist", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c = Command{Args: []string{"sleep", "10"}, Reading: Reading{Timeout: time.Second}}
	_, err = c.Run(ctx, &Files{Dir: t.TempDir()}, Case{})
	if !errors.Is(err, context.Canceled) || KindOf(err) != Canceled {
		t.Errorf("a run canceled: %v, kind %v", err, KindOf(err))
	}
	if KindOf(nil) != 0 || KindOf(errors.New("other")) != 0 {
		t.Error("KindOf of no *Error")
	}
}

// TookFileNames speaks where the distance printed is the distance between
// the words that name {a} and {b}, and only there.
func TestTookFileNames(t *testing.T) {
	cs := Case{A: []byte("kitten"), B: []byte("sitting")}
	for _, c := range []struct {
		args  []string
		d     int
		shown string // "": says nothing
	}{
		{[]string{"./p", "{a}", "{b}"}, 1, "its arguments …/a and …/b,"},
		{[]string{"./p", "--first={a}", "--second={b}"}, 7, "its arguments --first=…/a and --second=…/b,"},
		{[]string{"./p", "{a}", "{b}"}, 3, ""},           // the strings' distance: no hint
		{[]string{"./p", "{a:text}", "{b:text}"}, 1, ""}, // the strings themselves
		{[]string{"./p", "{a}"}, 1, ""},                  // one file
		{[]string{"sh", "-c", "diff {a} {b}"}, 0, ""},    // both in one word
	} {
		cmd := Command{Args: c.args}
		got := cmd.TookFileNames(c.d, "/tmp/levlab-run-123", cs)
		if c.shown == "" && got != "" || c.shown != "" && !strings.Contains(got, c.shown) {
			t.Errorf("%q printing %d: %q, want it to hold %q", c.args, c.d, got, c.shown)
		}
	}
}
