package progrun

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The distance is read where programs print it: on a line naming it, on
// a line of its own, else the last integer that is no piece of a decimal
// number; the line it came from comes with it.
func TestDefaultDistance(t *testing.T) {
	for _, c := range []struct {
		name, out, want, line string
	}{
		{"MPI time after the distance", "3\nMPI Time = 0.000035s\n", "3", "3"},
		{"milliseconds after the distance", "5\n12 ms\n", "5", "5"},
		{"distance then its time in ms", "5\n0\n", "0", "0"}, // two lines alone: the last
		{"a line naming it", "Levenshtein distance: 7\ntook 12 ms\n", "7", "Levenshtein distance: 7"},
		{"any case", "EDIT DISTANCE = 4\n9\n", "4", "EDIT DISTANCE = 4"},
		{"is", "The distance is 11.\n", "11", "The distance is 11."},
		{"the number after the word", "distance 3 computed in 12 ms on 4 threads\n", "3", "distance 3 computed in 12 ms on 4 threads"},
		{"the last on its line", "distance of 100 and 120 symbols: 57\n", "57", "distance of 100 and 120 symbols: 57"},
		{"a name in parentheses", "distance(kitten, sitting) = 3\n", "3", "distance(kitten, sitting) = 3"},
		{"a time naming the distance", "distance: 6\ntime for the distance: 0.25 s\n", "6", "distance: 6"},
		{"3.0 reads as 3", "distance: 3.0\n", "3", "distance: 3.0"},
		{"3.000 alone", "3.000\n", "3", "3.000"},
		{"a line alone over numbers in text", "on 4 threads\n17\nkernel 0.5 s on 2 threads\n", "17", "17"},
		{"the last integer apart from decimals", "answer 9 in 0.000035s\n", "9", "answer 9 in 0.000035s"},
		{"names and versions are no numbers", "x86_64 sm_80 v1.2.3 result=8\n", "8", "x86_64 sm_80 v1.2.3 result=8"},
		{"a date is no negative number", "2026-01-02 d 4\n", "4", "2026-01-02 d 4"},
		{"negative", "-1\n", "-1", "-1"},
		{"CRLF", "distance: 12\r\n", "12", "distance: 12"},
		{"a menu after the answer", "> Edit distance: 3\n1) enter the strings  2) compute the distance  3) quit\n> bye\n", "3", "> Edit distance: 3"},
		{"f(3)", "distance f(3)\n", "3", "distance f(3)"},
		// A program that prints the files it compared: levlab's own
		// folders (…/0/a) are no distance.
		{"a path is no number", "5\t/tmp/levlab-verify-3490438279/0/a\t/tmp/levlab-verify-3490438279/0/b\n", "5", "5\t/tmp/levlab-verify-3490438279/0/a\t/tmp/levlab-verify-3490438279/0/b"},
		{"a Windows path", "C:\\runs\\7\\a.txt 12\n", "12", "C:\\runs\\7\\a.txt 12"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, line, ok := defaultDistance([]byte(c.out))
			if !ok || got != c.want || line != c.line {
				t.Errorf("defaultDistance(%q) = %q on %q (%v), want %q on %q", c.out, got, line, ok, c.want, c.line)
			}
		})
	}
	for _, out := range []string{"", "MPI Time = 0.000035s\n", "no number here\n", "took 2.5 s\n", "distance: 3.5\n"} {
		if got, line, ok := defaultDistance([]byte(out)); ok {
			t.Errorf("defaultDistance(%q) = %q on %q, want none", out, got, line)
		}
	}
}

// A program that prints its strings back is read with them blanked where
// they could be misread; short ones, and output with no other number, are
// read as printed.
func TestEchoesBlanked(t *testing.T) {
	for _, c := range []struct {
		name, out, a, b string
		want            int
		line            string
	}{
		{"a line end and digits in a string", "Edit distance from ab3\ncd to wxyz: 4\n", "ab3\ncd", "wxyz", 4, "Edit distance from … to wxyz: 4"},
		{"digits after the answer", "5 = distance(ab 12, cdefg)\n", "ab 12", "cdefg", 5, "5 = distance(…, cdefg)"},
		{"the word in a string", "a = xdistance 9\nb = yy\nresult 1\n", "xdistance 9", "yy", 1, "result 1"},
		{"a short string is kept", "distance from 3 to ab: 2\n", "3", "ab", 2, "distance from 3 to ab: 2"},
		{"the only number", "1234\n", "1234", "123", 1234, "1234"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(context.Background(), []string{"printf", "%s", c.out}, Options{Reading: Reading{Timeout: 5 * time.Second}, Echo: [][]byte{[]byte(c.a), []byte(c.b)}})
			if r.Failure != "" || r.Distance != c.want || r.Line != c.line {
				t.Errorf("%q: %d on %q (%s), want %d on %q", c.out, r.Distance, r.Line, r.Failure, c.want, c.line)
			}
		})
	}
}

// A wrong number's failure quotes its line; so does a missing one's.
func TestRunQuotesTheLine(t *testing.T) {
	r := run(context.Background(), []string{"sh", "-c", "echo 'MPI Time = 0.000035s'"}, Options{Reading: Reading{Timeout: 5 * time.Second}})
	if !strings.Contains(r.Failure, "printed no distance") || !strings.Contains(r.Failure, `"MPI Time = 0.000035s"`) {
		t.Errorf("failure %q: want no distance, quoting the time's line", r.Failure)
	}
	r = run(context.Background(), []string{"sh", "-c", "echo 'distance: 3'; echo 'MPI Time = 0.000035s'"}, Options{Reading: Reading{Timeout: 5 * time.Second}})
	if r.Failure != "" || r.Distance != 3 || r.Line != "distance: 3" {
		t.Errorf("%+v: want 3 from the line naming it", r)
	}
	r = run(context.Background(), []string{"sh", "-c", "echo 'answer: 3'"}, Options{Reading: Reading{Timeout: 5 * time.Second, Distance: regexp.MustCompile(`answer: (\d+)`)}})
	if r.Failure != "" || r.Distance != 3 || r.Line != "answer: 3" {
		t.Errorf("%+v: want 3 from the regexp's line", r)
	}
}

// Templates: the strings themselves, an input file, stdin.
func TestPlaceholdersText(t *testing.T) {
	v := Values{A: "/a", B: "/b", TextA: "x{b}y", TextB: "", Input: "/in", N: 3, M: 0, Workers: 2}
	if got := v.Expand("{a:text}|{b:text}|{input}|{a}|{n} {m}"); got != "x{b}y||/in|/a|3 0" {
		t.Errorf("Expand: %q", got)
	}
	all := append(append(append([]string{}, Placeholders...), TextPlaceholders...), InputPlaceholder)
	if err := CheckPlaceholders(all, "--s={a:text}", "{b:text}", "{input}"); err != nil {
		t.Error(err)
	}
	if err := CheckPlaceholders(all, "{a:txt}"); err == nil || !strings.Contains(err.Error(), "{a:txt}") {
		t.Errorf("{a:txt}: %v", err)
	}
	if !UsesText("x", "-a={a:text}") || UsesText("{a}", "{b}") || !Uses(InputPlaceholder, "{input}") {
		t.Error("UsesText or Uses")
	}
}

func TestUnescape(t *testing.T) {
	got, err := Unescape(`1\n{a:text}\t\\\r`)
	if err != nil || got != "1\n{a:text}\t\\\r" {
		t.Errorf("Unescape: %q, %v", got, err)
	}
	for _, bad := range []string{`\q`, `a\`} {
		if _, err := Unescape(bad); err == nil || !strings.Contains(err.Error(), `\n`) {
			t.Errorf("Unescape(%q): %v, want an error naming the escapes", bad, err)
		}
	}
}

// A program reads its standard input from Options.Stdin, NUL bytes and
// all, and stops reading where it likes.
func TestRunStdin(t *testing.T) {
	r := run(context.Background(), []string{"sh", "-c", "head -c 3 | od -An -tx1 | wc -w"}, Options{Stdin: []byte("a\x00b\nrest of it"), Reading: Reading{Timeout: 5 * time.Second}})
	if r.Failure != "" || r.Distance != 3 {
		t.Errorf("%+v: want the 3 bytes read", r)
	}
	// Much more than a pipe holds, unread: no hang.
	r = run(context.Background(), []string{"sh", "-c", "echo 1"}, Options{Stdin: make([]byte, 1<<20), Reading: Reading{Timeout: 5 * time.Second}})
	if r.Failure != "" || r.Distance != 1 {
		t.Errorf("%+v: want 1", r)
	}
}

// A time in a unit of the spec's: converted to seconds, and checked
// against the wall time with both named.
func TestRunTimeUnit(t *testing.T) {
	re := regexp.MustCompile(`time (\S+)`)
	for _, c := range []struct {
		unit, printed string
		want          float64
		says          []string
	}{
		{"ms", "50", 0.05, nil},
		{"us", "50000", 0.05, nil},
		{"ns", "50000000", 0.05, nil},
		{"s", "0.05", 0.05, nil},
		{"", "50", 0, []string{"50 s", "longer than the process lived", "wall time", `time_unit = "ms"`}},
		{"ms", "50000", 0, []string{"50000 ms (50 s)", "wall time", `time_unit = "us"`}},
		{"ms", "0", 0, []string{"0 ms", "wall time"}},
		{"ms", "-3", 0, []string{"-3 ms", "wall time"}},
	} {
		r := run(context.Background(), []string{"sh", "-c", "sleep 0.1; echo 'time " + c.printed + "'; echo 3"}, Options{Reading: Reading{Timeout: 5 * time.Second, Time: re, TimeUnit: c.unit}})
		if c.says == nil {
			if r.Failure != "" || r.Kernel < c.want*0.999 || r.Kernel > c.want*1.001 {
				t.Errorf("%s %s: %+v, want %v s", c.printed, c.unit, r, c.want)
			}
			continue
		}
		for _, w := range append(c.says, `"time `+c.printed+`"`) {
			if !strings.Contains(r.Failure, w) {
				t.Errorf("%s %s: failure %q does not say %q", c.printed, c.unit, r.Failure, w)
			}
		}
	}
	if r := run(context.Background(), []string{"true"}, Options{Reading: Reading{Timeout: time.Second, TimeUnit: "min"}}); !strings.Contains(r.Failure, `"min"`) || !strings.Contains(r.Failure, "s, ms, us, ns") {
		t.Errorf("a unit levlab does not know: %q", r.Failure)
	}
}

// A failing program's message is quoted from stdout where stderr is
// empty; an exit status of 128+N is named as the signal a launcher saw.
func TestRunFailureSays(t *testing.T) {
	r := run(context.Background(), []string{"sh", "-c", "echo 'usage: prog A B'; exit 1"}, Options{Reading: Reading{Timeout: 5 * time.Second}})
	if !strings.Contains(r.Failure, `exited with status 1: "usage: prog A B" (on stdout; stderr was empty)`) {
		t.Errorf("failure %q: want stdout's line", r.Failure)
	}
	r = run(context.Background(), []string{"sh", "-c", "echo rank 1 died >&2; exit 139"}, Options{Reading: Reading{Timeout: 5 * time.Second}})
	for _, w := range []string{"status 139 = 128+11", "mpirun", "signal 11 (segmentation fault)", `"rank 1 died"`} {
		if !strings.Contains(r.Failure, w) {
			t.Errorf("failure %q does not say %q", r.Failure, w)
		}
	}
	r = run(context.Background(), []string{"sh", "-c", "exit 3"}, Options{Reading: Reading{Timeout: 5 * time.Second}})
	if r.Failure != "exited with status 3" {
		t.Errorf("failure %q", r.Failure)
	}
}

// CPU counts the processor time of the program, so that a caller can tell
// a program that keeps one core busy from one that keeps several.
func TestRunCPU(t *testing.T) {
	r := run(context.Background(), []string{"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo 1"}, Options{Reading: Reading{Timeout: 10 * time.Second}})
	if r.Failure != "" || r.CPU <= 0 || r.CPU > 1.5*r.Wall {
		t.Errorf("%+v: want CPU time in (0, 1.5 wall]", r)
	}
}

// A line too long to quote whole is quoted around the number read from
// it, so that a failure shows what was read.
func TestQuoteNumber(t *testing.T) {
	long := "Total time 0.000123s, comparing time 0.000045s, with results written to a file named here, with 2 workers"
	got := QuoteNumber(long, 2)
	if !strings.Contains(got, "with 2 workers") || !strings.HasPrefix(got, `"...`) {
		t.Errorf("QuoteNumber(…, 2) = %s; want the end of the line, with the 2", got)
	}
	if got := QuoteNumber("distance: 3", 3); got != `"distance: 3"` {
		t.Errorf("a short line is quoted whole: %s", got)
	}
	if got := QuoteNumber(long, 99); got != Quote(long) {
		t.Errorf("without the number, QuoteNumber = %s, want Quote's %s", got, Quote(long))
	}
}

// A Python traceback is cited by its last line, the exception.
func TestSaidTraceback(t *testing.T) {
	tb := []byte("Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n    a = open(p).read()\nUnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0\n")
	if got := said(tb, nil); !strings.Contains(got, "UnicodeDecodeError") {
		t.Errorf("said(traceback) = %s; want its exception", got)
	}
	if got := said([]byte("segfault here\nmore\n"), nil); !strings.Contains(got, "segfault here") {
		t.Errorf("said(other stderr) = %s; want its first line", got)
	}
}

// A Rust panic and an uncaught C++ exception say what went wrong on the
// line after the first; a sanitizer's rule of "=" says nothing at all.
func TestSaidHeadingLines(t *testing.T) {
	for _, c := range []struct{ stderr, want string }{
		{"thread 'main' (4242) panicked at src/main.rs:9:5:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1`\n",
			": \"called `Option::unwrap()` on a `None` value\" (after \"thread 'main' (4242) panicked at src/main.rs:9:5:\")"},
		{"terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)\n",
			": \"what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)\" (after \"terminate called after throwing an instance of 'std::out_of_range'\")"},
		{"=================================================================\n==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602\n",
			": \"==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602\""},
		{"Segmentation fault here\nmore\n", ": \"Segmentation fault here\""},
		{"only: one line ending so:\n", ": \"only: one line ending so:\""},
		// Nothing but a rule is still what stderr said: not "stderr was empty".
		{"\n=====\n", ": \"=====\""},
	} {
		if got := said([]byte(c.stderr), nil); got != c.want {
			t.Errorf("said(%q)\n = %s\nwant %s", c.stderr, got, c.want)
		}
	}
}

// A quote cut short is cut between two UTF-8 symbols, never inside one.
func TestQuotesCutBetweenRunes(t *testing.T) {
	line := strings.Repeat("丼", 60) // 3 bytes each
	for name, got := range map[string]string{
		"quoteLine":   quoteLine([]byte(line)),
		"Quote":       Quote(line),
		"QuoteNumber": QuoteNumber(line+": 7", 7),
	} {
		if strings.Contains(got, `\x`) || !strings.Contains(got, "...") {
			t.Errorf("%s of a long line of 丼 = %s; want whole symbols and \"...\"", name, got)
		}
	}
	// Bytes that are no text are cut where the length falls.
	if got := clip(bytes.Repeat([]byte{0xff}, 200), 120); len(got) != 120 {
		t.Errorf("clip of 200 bytes 0xff to 120: %d bytes", len(got))
	}
}
