//go:build unix

package records

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs fn and fails the test if it has not returned in a few
// seconds: a FIFO opened for reading with no writer would block for ever.
func within(t *testing.T, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return in 5 s (blocked on a FIFO?)", what)
		return nil
	}
}

// A lock file that is a link is not followed: its target keeps its bytes,
// and the link stays.
func TestLockDirRefusesLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, LockName)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	l, err := LockDir(dir)
	if err == nil {
		l.Unlock()
		t.Fatal("LockDir took a folder whose lock file is a link")
	}
	if !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "link") {
		t.Errorf("the error does not name the link as one: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone (lstat: %v)", err)
	}
}

// A records file that is a link, dangling or not, is neither created
// through nor appended to.
func TestOpenAppendRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	dangling := filepath.Join(dir, "a.csv")
	nowhere := filepath.Join(elsewhere, "nowhere.csv")
	if err := os.Symlink(nowhere, dangling); err != nil {
		t.Fatal(err)
	}
	if a, err := OpenAppend(dangling); err == nil {
		a.Close()
		t.Error("OpenAppend opened a dangling link")
	} else if !strings.Contains(err.Error(), dangling) {
		t.Errorf("the error does not name the link: %v", err)
	}
	if _, err := os.Lstat(nowhere); err == nil {
		t.Error("the dangling link's target was created")
	}

	real := filepath.Join(elsewhere, "real.csv")
	if err := os.WriteFile(real, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "b.csv")
	if err := os.Symlink(real, linked); err != nil {
		t.Fatal(err)
	}
	if a, err := OpenAppend(linked); err == nil {
		a.Close()
		t.Error("OpenAppend opened a link to a regular file")
	}
	if fi, _ := os.Stat(real); fi.Size() != 0 {
		t.Errorf("the link's target was written: %d bytes", fi.Size())
	}
}

// A FIFO (or any file that is not a regular one) among the records is
// refused at once, naming it, by every reader and by the appender.
func TestRefusesFIFOs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "a.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	bench := filepath.Join(dir, "b.txt")
	if err := syscall.Mkfifo(bench, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		path string
		fn   func() error
	}{
		{"ReadRecords", fifo, func() error { _, err := ReadRecords(fifo); return err }},
		{"ReadRows", fifo, func() error { _, err := ReadRows(fifo); return err }},
		{"ReadPublishedFile", fifo, func() error { _, err := ReadPublishedFile(fifo); return err }},
		{"OpenAppend", fifo, func() error {
			a, err := OpenAppend(fifo)
			if err == nil {
				a.Close()
			}
			return err
		}},
		{"ReadBench", bench, func() error { _, err := ReadBench(bench); return err }},
	} {
		err := within(t, c.name, c.fn)
		if err == nil {
			t.Errorf("%s of a FIFO: no error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: the error does not name the FIFO as not a regular file: %v", c.name, err)
		}
	}
}

// A value that does not parse (1e309 is past float64) makes its row a bad
// row named by file:line, as NaN or -5 do; the file's other rows are used.
func TestScanRowsUnparsableValue(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.csv")
	good := Record{Experiment: "e", Scale: "quick", Algorithm: "tworow", Rep: 1, Status: "ok", Seconds: 0.5}
	a, err := OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	for rep := 1; rep <= 3; rep++ {
		good.Rep = rep
		if err := a.Add(good); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// Line 3 (rep 2) gets an out-of-range time, line 4 (rep 3) a rep
	// that is not an integer.
	lines[2] = strings.Replace(lines[2], ",0.5,", ",1e309,", 1)
	lines[3] = strings.Replace(lines[3], ",3,ok,", ",x3,ok,", 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadRows(path)
	if err != nil {
		t.Fatalf("ReadRows: %v; want the bad rows named, not the file refused", err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	use, problems := Validate(rows)
	if len(use) != 1 || use[0].Line != 2 {
		t.Errorf("used %v, want line 2 alone", use)
	}
	if len(problems) != 2 {
		t.Fatalf("problems %v, want lines 3 and 4", problems)
	}
	for i, want := range []struct {
		line int
		says string
	}{{3, `column "seconds": 1e309 is out of range`}, {4, `column "rep": x3 is not a number`}} {
		p := problems[i]
		if p.File != path || p.Line != want.line || !strings.Contains(p.Why, want.says) {
			t.Errorf("problem %d: %v; want %s:%d naming %s", i, p, path, want.line, want.says)
		}
	}
}
