package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/matrixshard"
)

// TestMatrixShardOutNotAFolder: matrix --shard with an --out that is a
// file, a link to nothing or nothing says which, and that a folder is
// wanted; never a Go <nil>.
func TestMatrixShardOutNotAFolder(t *testing.T) {
	a, _, _ := shardInputs(t)
	file := writeFile(t, "plain", "x")
	target := filepath.Join(t.TempDir(), "nowhere")
	dangling := filepath.Join(t.TempDir(), "out")
	if err := os.Symlink(target, dangling); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "none")
	for _, tc := range []struct {
		out  string
		want []string
	}{
		{file, []string{"--out " + file, "is a file", "a folder"}},
		{dangling, []string{"--out " + dangling, "symbolic link", target, "does not exist", "a folder"}},
		{missing, []string{"--out " + missing, "does not exist", "make the folder"}},
	} {
		args := []string{"matrix", "--shard", "0/1", "--out", tc.out, a}
		checkFailure(t, args, exitFailure, tc.want...)
		if _, stderr, _ := levlab(t, args...); strings.Contains(stderr, "<nil>") || strings.Contains(stderr, "%!") {
			t.Errorf("%q: stderr %q", args, stderr)
		}
	}
}

// shardsOf writes the n shards of levlab matrix file into dir and returns
// what one levlab matrix of file prints.
func shardsOf(t *testing.T, dir string, n int, file string) string {
	t.Helper()
	for i := range n {
		args := []string{"matrix", "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir, file}
		if _, stderr, code := levlab(t, args...); code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
	}
	want, stderr, code := levlab(t, "matrix", file)
	if code != exitOK {
		t.Fatalf("matrix %s: exit %d: %s", file, code, stderr)
	}
	return want
}

// TestMergeFolderWithGlobCharacters: the shards' folder is listed, not
// read as a pattern: folders named with [, ], * and ? merge as any other.
func TestMergeFolderWithGlobCharacters(t *testing.T) {
	a, _, _ := shardInputs(t)
	for _, name := range []string{"g[1]", "results[old]", "x[", "a*b?"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		want := shardsOf(t, dir, 3, a)
		got, stderr, code := levlab(t, "merge", dir)
		if code != exitOK || got != want {
			t.Errorf("merge %s: exit %d, %d bytes where one process writes %d: %s", dir, code, len(got), len(want), stderr)
		}
	}
}

// TestMergeOutIsAShard: merge --out refuses, as bad usage naming the
// shard, to write where one of the shards it reads is — by its path, by
// another spelling of it, through a symbolic or a hard link — and a new
// *.shard file in the shards' folder, which the next merge would take for
// a shard; every shard is left as it was. An --out beside the shards of
// another name is written.
func TestMergeOutIsAShard(t *testing.T) {
	a, _, _ := shardInputs(t)
	for _, tc := range []struct {
		name string
		out  func(dir string) string
		want []string
	}{
		{"its path", func(dir string) string { return filepath.Join(dir, "matrix-0-of-2.shard") }, []string{"matrix-0-of-2.shard"}},
		{"another spelling", func(dir string) string {
			return strings.Join([]string{dir, "..", filepath.Base(dir), ".", "matrix-1-of-2.shard"}, string(filepath.Separator))
		}, []string{"matrix-1-of-2.shard"}},
		{"a symbolic link", func(dir string) string {
			link := filepath.Join(t.TempDir(), "out.tsv")
			if err := os.Symlink(filepath.Join(dir, "matrix-1-of-2.shard"), link); err != nil {
				t.Fatal(err)
			}
			return link
		}, []string{"matrix-1-of-2.shard"}},
		{"a hard link", func(dir string) string {
			link := filepath.Join(t.TempDir(), "out.tsv")
			if err := os.Link(filepath.Join(dir, "matrix-0-of-2.shard"), link); err != nil {
				t.Fatal(err)
			}
			return link
		}, []string{"matrix-0-of-2.shard"}},
		{"a new shard", func(dir string) string { return filepath.Join(dir, "all.shard") }, []string{"all.shard", "*.shard"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			shardsOf(t, dir, 2, a)
			before := map[string][]byte{}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				before[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
			}
			out := tc.out(dir)
			checkFailure(t, []string{"merge", "--out", out, dir}, exitUsage, append([]string{"--out " + out}, tc.want...)...)
			entries, _ = os.ReadDir(dir)
			if len(entries) != len(before) {
				t.Errorf("the shards' folder held %d files, now %d", len(before), len(entries))
			}
			for name, data := range before {
				if now, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(now, data) {
					t.Errorf("%s changed: %d bytes, was %d (%v)", name, len(now), len(data), err)
				}
			}
		})
	}
	dir := t.TempDir()
	want := shardsOf(t, dir, 2, a)
	out := filepath.Join(dir, "all.tsv")
	if _, stderr, code := levlab(t, "merge", "--out", out, dir); code != exitOK {
		t.Fatalf("merge --out beside the shards: exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != want {
		t.Errorf("merge --out beside the shards wrote %d bytes, want %d", len(got), len(want))
	}
}

// TestMergeShardNotARegularFile: a *.shard that is a folder or a FIFO is
// refused at once, named, not waited on.
func TestMergeShardNotARegularFile(t *testing.T) {
	a, _, _ := shardInputs(t)
	dir := t.TempDir()
	shardsOf(t, dir, 1, a)
	folder := filepath.Join(dir, "folder.shard")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	checkFailure(t, []string{"merge", dir}, exitFailure, folder, "not a regular file", "a folder")
	os.Remove(folder)

	fifo := filepath.Join(dir, "fifo.shard")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	type result struct {
		stdout, stderr string
		code           int
	}
	done := make(chan result, 1)
	go func() {
		stdout, stderr, code := levlab(t, "merge", dir)
		done <- result{stdout, stderr, code}
	}()
	select {
	case r := <-done:
		if r.code != exitFailure || r.stdout != "" || !strings.Contains(r.stderr, fifo) || !strings.Contains(r.stderr, "a FIFO") {
			t.Errorf("merge of a folder with a FIFO: exit %d, %d bytes on stdout, stderr %q; want 1 naming the FIFO", r.code, len(r.stdout), r.stderr)
		}
	case <-time.After(10 * time.Second):
		// A writer that comes and goes lets the blocked open, and then
		// its read, end.
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatalf("merge waited 10 s on the FIFO %s", fifo)
	}
}

// TestMergeShardUnboundedUnderLimit: under ulimit -v 2 GiB, a *.shard
// that links to /dev/zero, or a sparse file of 8 GiB whose first line
// never ends, is refused, named, with exit 1 and no trace of the runtime
// running out of memory.
func TestMergeShardUnboundedUnderLimit(t *testing.T) {
	_, bin := prlimitAndLevlab(t)
	a, _, _ := shardInputs(t)
	dir := t.TempDir()
	shardsOf(t, dir, 1, a)
	zero := filepath.Join(dir, "zero.shard")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	code, stderr := underAS(t, bin, 2<<30, "merge", dir)
	noTrace(t, "a link to /dev/zero", code, stderr, zero, "not a regular file", "a device")
	os.Remove(zero)

	long := filepath.Join(dir, "long.shard")
	if err := os.WriteFile(long, []byte(matrixshard.Tag+`{"format":1,"shards":1,"inputs":[{"file":"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(long, 8<<30); err != nil {
		t.Skipf("no sparse file of 8 GiB: %v", err)
	}
	code, stderr = underAS(t, bin, 2<<30, "merge", dir)
	noTrace(t, "a first line of 8 GiB", code, stderr, long, "first line", "KiB")
}

// noTrace checks a run that must fail with exit 1, naming each of want,
// without a trace of the Go runtime.
func noTrace(t *testing.T, what string, code int, stderr string, want ...string) {
	t.Helper()
	short := stderr[:min(len(stderr), 600)]
	if code != exitFailure || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "fatal error") {
		t.Errorf("%s: exit %d, want 1 and no trace:\n%s", what, code, short)
		return
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr does not say %q:\n%s", what, w, short)
		}
	}
}

// levlabNoPanic is levlab that turns a panic into the test's failure.
func levlabNoPanic(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("levlab %q panicked: %v", args, r)
		}
	}()
	return levlab(t, args...)
}

// TestMergeHeaderNumbers: every number of a shard's header is checked
// against its range before it is used: the message names the file, the
// number and the range, without a panic. matrix writes no shard count
// merge would refuse.
func TestMergeHeaderNumbers(t *testing.T) {
	a, _, _ := shardInputs(t)
	for _, tc := range []struct {
		name string
		edit func(h *matrixshard.Header)
		want []string
	}{
		{"shards 9e18", func(h *matrixshard.Header) { h.Shards = 9_000_000_000_000_000_000 }, []string{"9000000000000000000", "1 to 4194304"}},
		{"shards 0", func(h *matrixshard.Header) { h.Shards = 0 }, []string{"count 0", "1 to 4194304"}},
		{"shard -1", func(h *matrixshard.Header) { h.Shard = -1 }, []string{"index -1", "0 to 0"}},
		{"shard past the count", func(h *matrixshard.Header) { h.Shard = math.MaxInt }, []string{"index 9223372036854775807", "0 to 0"}},
		{"rows backwards", func(h *matrixshard.Header) { h.Rows = [2]int{5, 2} }, []string{"rows 5 to 2", "0 to 91"}},
		{"rows past the strings", func(h *matrixshard.Header) { h.Rows = [2]int{0, math.MaxInt} }, []string{"rows 0 to 9223372036854775807", "0 to 91"}},
		{"rows before the first", func(h *matrixshard.Header) { h.Rows = [2]int{math.MinInt, 91} }, []string{"rows -9223372036854775808 to 91", "0 to 91"}},
		{"strings below 0", func(h *matrixshard.Header) { h.Strings, h.Rows = -1, [2]int{0, 0} }, []string{"-1 strings", "0 or more"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			shardsOf(t, dir, 1, a)
			path := filepath.Join(dir, "matrix-0-of-1.shard")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			head, body, _ := bytes.Cut(data, []byte("\n"))
			var h matrixshard.Header
			if err := json.Unmarshal(bytes.TrimPrefix(head, []byte(matrixshard.Tag)), &h); err != nil {
				t.Fatal(err)
			}
			tc.edit(&h)
			head, _ = json.Marshal(h)
			if err := os.WriteFile(path, append(append([]byte(matrixshard.Tag), head...), append([]byte("\n"), body...)...), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := levlabNoPanic(t, "merge", dir)
			if code != exitFailure || stdout != "" || !strings.Contains(stderr, path) {
				t.Errorf("exit %d, %d bytes on stdout, stderr %q; want 1 naming %s", code, len(stdout), stderr, path)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not say %q", stderr, w)
				}
			}
		})
	}
	checkFailure(t, []string{"matrix", "--shard", "0/4194305", "--out", t.TempDir(), a}, exitUsage, "0/4194305", "1 to 4194304")
}
