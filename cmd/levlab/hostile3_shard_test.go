package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestShardRowsMillionReads: a million reads of 150 bp in 1,000 shards —
// about 1.1·10^16 cells, which times a shard's index passes
// math.MaxInt64 — split into runs of rows that follow each other from the
// first row to the last, each of about a thousandth of the cells: the
// pairs of one set, with --top, and against a second set. The MPI band
// dealer splits rows the same way.
func TestShardRowsMillionReads(t *testing.T) {
	const n, l, parts = 1_000_000, 150, 1000
	length := func(int) int { return l }
	const c = (l + 1) * (l + 1) // a pair's cells, as the split counts them
	for _, tc := range []struct {
		name     string
		tri, top bool
		cost     func(i int64) int64 // row i's cells
	}{
		{"one set", true, false, func(i int64) int64 { return c * (n - 1 - i) }},
		{"one set --top", true, true, func(int64) int64 { return c * (n - 1) }},
		{"two sets", false, false, func(int64) int64 { return c * n }},
	} {
		var total, most int64
		for i := range int64(n) {
			total += tc.cost(i)
			most = max(most, tc.cost(i))
		}
		// Pairs of neighbours, where shards meet: among them the first
		// indexes whose product with the cells passes MaxInt64 (405 for
		// two sets, 809 for one).
		sample := []int{0, 1, 404, 405, 808, 809, 998, 999}
		got := map[int][2]int{}
		for _, k := range sample {
			from, to := shardRowsOf(n, n, length, length, tc.tri, tc.top, taskShard{k, parts})
			got[k] = [2]int{from, to}
		}
		for _, k := range sample {
			from, to := got[k][0], got[k][1]
			switch {
			case from < 0 || to > n || from > to:
				t.Errorf("%s: shard %d/%d holds rows %d to %d of %d", tc.name, k, parts, from, to, n)
				continue
			case k == 0 && from != 0:
				t.Errorf("%s: shard 0 starts at row %d", tc.name, from)
			case k == parts-1 && to != n:
				t.Errorf("%s: the last shard ends at row %d of %d", tc.name, to, n)
			}
			if next, ok := got[k+1]; ok && next[0] != to {
				t.Errorf("%s: shard %d ends at row %d, shard %d starts at %d", tc.name, k, to, k+1, next[0])
			}
			var cells int64
			for i := from; i < to; i++ {
				cells += tc.cost(int64(i))
			}
			// Each row goes to the shard its cells' midpoint falls in, so
			// a shard is off its share by less than a row at either end.
			if d := cells - total/parts; d > most || d < -most {
				t.Errorf("%s: shard %d/%d holds rows %d to %d, %d cells; its share is %d ± %d", tc.name, k, parts, from, to, cells, total/parts, most)
			}
			if !tc.tri || tc.top {
				if rows := to - from; rows < n/parts-1 || rows > n/parts+1 {
					t.Errorf("%s: shard %d/%d holds %d rows of equal cells, want %d ± 1", tc.name, k, parts, rows, n/parts)
				}
			}
		}
	}
}

// wantShardRows is shardRowsOf's contract in math/big: row i goes to the
// shard k of parts with total·k ≤ mid_i·parts < total·(k+1), mid_i being
// the cells of the rows before it and half its own (rounded down).
func wantShardRows(la, lb []int, tri, top bool, k, parts int) (from, to int) {
	costs := make([]*big.Int, len(la))
	total := new(big.Int)
	for i, l := range la {
		other := new(big.Int)
		for j, m := range lb {
			if !tri || (top && j != i) || (!top && j > i) {
				other.Add(other, big.NewInt(int64(m)+1))
			}
		}
		costs[i] = other.Mul(other, big.NewInt(int64(l)+1))
		total.Add(total, costs[i])
	}
	bound := func(k int) int {
		if k == 0 {
			return 0
		}
		if k == parts {
			return len(la)
		}
		target := new(big.Int).Mul(total, big.NewInt(int64(k)))
		sum := new(big.Int)
		for i, c := range costs {
			mid := new(big.Int).Add(sum, new(big.Int).Rsh(c, 1))
			if mid.Mul(mid, big.NewInt(int64(parts))).Cmp(target) >= 0 {
				return i
			}
			sum.Add(sum, c)
		}
		return len(la)
	}
	return bound(k), bound(k + 1)
}

// TestShardRowsExtremeSizes: strings of nearly math.MaxInt bytes (cells
// past 2^125) in 1 to MaxInt shards split exactly as the contract says,
// computed in math/big: every shard where there are few, and around the
// shards each row's midpoint falls in where there are many.
func TestShardRowsExtremeSizes(t *testing.T) {
	const m = math.MaxInt
	for _, set := range []struct {
		name string
		a, b []int
	}{
		{"skewed", []int{m / 4, 0, m/4 - 7, 1, m / 4}, []int{m / 2, m / 3}},
		{"equal", []int{m/4 - 1, m/4 - 1, m/4 - 1, m/4 - 1}, []int{m/2 - 1, m/2 - 1}},
		{"one long string", []int{m - 1}, []int{m - 1}},
		{"long and empty", []int{0, m - 2, 0}, []int{0}},
	} {
		for _, mode := range []struct {
			name     string
			tri, top bool
		}{{"two sets", false, false}, {"one set", true, false}, {"one set --top", true, true}} {
			lb := set.b
			if mode.tri {
				lb = set.a
			}
			la := set.a
			for _, parts := range []int{1, 2, 3, 7, 1000, 1 << 40, m - 1, m} {
				shards := map[int]bool{}
				if parts <= 1000 {
					for k := range parts {
						shards[k] = true
					}
				} else {
					for _, k := range []int{0, 1, 2, parts / 3, parts / 2, parts - 2, parts - 1} {
						shards[k] = true
					}
					// The shards where rows change hands: each row's
					// first shard and its neighbours.
					for i := range la {
						k := wantShardOf(la, lb, mode.tri, mode.top, i, parts)
						for _, n := range []int{k - 1, k, k + 1} {
							if n >= 0 && n < parts {
								shards[n] = true
							}
						}
					}
				}
				var wrong []string
				for k := range shards {
					from, to := shardRowsOf(len(la), len(lb), func(i int) int { return la[i] }, func(j int) int { return lb[j] }, mode.tri, mode.top, taskShard{k, parts})
					if wf, wt := wantShardRows(la, lb, mode.tri, mode.top, k, parts); from != wf || to != wt {
						wrong = append(wrong, fmt.Sprintf("shard %d/%d holds rows %d to %d, want %d to %d", k, parts, from, to, wf, wt))
					}
				}
				if len(wrong) > 0 {
					slices.Sort(wrong)
					t.Errorf("%s, %s: %d of %d shards wrong, such as %s", set.name, mode.name, len(wrong), len(shards), wrong[0])
				}
			}
		}
	}
}

// wantShardOf is the shard row i falls in: the k of wantShardRows with
// from ≤ i < to, found by bisection.
func wantShardOf(la, lb []int, tri, top bool, i, parts int) int {
	lo, hi := 0, parts-1
	for lo < hi {
		k := lo + (hi-lo+1)/2
		if from, _ := wantShardRows(la, lb, tri, top, k, parts); from <= i {
			lo = k
		} else {
			hi = k - 1
		}
	}
	return lo
}

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
	if err := os.WriteFile(long, []byte(shardTag+`{"format":1,"shards":1,"inputs":[{"file":"`), 0o644); err != nil {
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
		edit func(h *shardHeader)
		want []string
	}{
		{"shards 9e18", func(h *shardHeader) { h.Shards = 9_000_000_000_000_000_000 }, []string{"9000000000000000000", "1 to 4194304"}},
		{"shards 0", func(h *shardHeader) { h.Shards = 0 }, []string{"count 0", "1 to 4194304"}},
		{"shard -1", func(h *shardHeader) { h.Shard = -1 }, []string{"index -1", "0 to 0"}},
		{"shard past the count", func(h *shardHeader) { h.Shard = math.MaxInt }, []string{"index 9223372036854775807", "0 to 0"}},
		{"rows backwards", func(h *shardHeader) { h.Rows = [2]int{5, 2} }, []string{"rows 5 to 2", "0 to 91"}},
		{"rows past the strings", func(h *shardHeader) { h.Rows = [2]int{0, math.MaxInt} }, []string{"rows 0 to 9223372036854775807", "0 to 91"}},
		{"rows before the first", func(h *shardHeader) { h.Rows = [2]int{math.MinInt, 91} }, []string{"rows -9223372036854775808 to 91", "0 to 91"}},
		{"strings below 0", func(h *shardHeader) { h.Strings, h.Rows = -1, [2]int{0, 0} }, []string{"-1 strings", "0 or more"}},
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
			var h shardHeader
			if err := json.Unmarshal(bytes.TrimPrefix(head, []byte(shardTag)), &h); err != nil {
				t.Fatal(err)
			}
			tc.edit(&h)
			head, _ = json.Marshal(h)
			if err := os.WriteFile(path, append(append([]byte(shardTag), head...), append([]byte("\n"), body...)...), 0o644); err != nil {
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
