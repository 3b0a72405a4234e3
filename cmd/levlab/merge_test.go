package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shardInputs writes FILE_A (lines of skewed lengths, an empty one and a
// duplicate among them), FILE_B and a FASTA file into a folder.
func shardInputs(t *testing.T) (a, b, fasta string) {
	t.Helper()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(7, 7))
	word := func() string {
		n := []int{0, 3, 17, 64, 65, 300}[r.IntN(6)]
		var s strings.Builder
		for range n {
			s.WriteByte("ACGT"[r.IntN(4)])
		}
		return s.String()
	}
	var la, lb, fa strings.Builder
	for i := range 90 {
		w := word()
		if i == 40 {
			w = "ACGTACGT"
		}
		la.WriteString(w + "\n")
	}
	la.WriteString("ACGTACGT\n")
	for range 25 {
		lb.WriteString(word() + "\n")
	}
	for i := range 30 {
		fmt.Fprintf(&fa, ">read %d\tx\n%s\n%s\n", i, word(), word())
	}
	a, b, fasta = filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt"), filepath.Join(dir, "reads.fa")
	for p, s := range map[string]string{a: la.String(), b: lb.String(), fasta: fa.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return a, b, fasta
}

// TestMatrixShardsMerge: matrix in 1, 3 and 7 shards, then merge, writes
// exactly what one process writes, byte for byte: every pair, --top,
// --max, --names and --json, --runes, one file or two, FASTA.
func TestMatrixShardsMerge(t *testing.T) {
	a, b, fasta := shardInputs(t)
	for _, files := range [][]string{{a}, {a, b}, {fasta}} {
		for _, flags := range [][]string{nil, {"--top", "3"}, {"--max", "20"}, {"--top", "2", "--max", "60", "--names"}, {"--json", "--runes"}} {
			want, _, code := levlab(t, append(append([]string{"matrix"}, flags...), files...)...)
			if code != exitOK || want == "" {
				t.Fatalf("matrix %v %v: exit %d, %d bytes", flags, files, code, len(want))
			}
			for _, n := range []int{1, 3, 7} {
				dir := t.TempDir()
				for i := range n {
					args := append(append([]string{"matrix", "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir}, flags...), files...)
					if _, stderr, code := levlab(t, args...); code != exitOK {
						t.Fatalf("%v: exit %d: %s", args, code, stderr)
					}
				}
				got, stderr, code := levlab(t, "merge", dir)
				if code != exitOK || got != want {
					t.Errorf("matrix %v %v in %d shards, merged: exit %d, %d bytes where one process writes %d: %s", flags, files, n, code, len(got), len(want), stderr)
				}
			}
		}
	}
}

// TestMergeRefuses: merge writes nothing and names the file, the shard or
// the flags when the shards are not one whole run.
func TestMergeRefuses(t *testing.T) {
	a, b, _ := shardInputs(t)
	shardOf := func(dir string, i, n int, extra ...string) {
		t.Helper()
		args := append(append([]string{"matrix", "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir}, extra...), a)
		if _, stderr, code := levlab(t, args...); code != exitOK {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	dir := t.TempDir()
	shardOf(dir, 0, 3)
	shardOf(dir, 2, 3)
	checkFailure(t, []string{"merge", dir}, exitFailure, "shards missing of 3: 1")

	shardOf(dir, 1, 3, "--top", "2")
	checkFailure(t, []string{"merge", dir}, exitFailure, "matrix-1-of-3.shard", `flags "--algo auto --top 2", not "--algo auto"`)

	shardOf(dir, 1, 3)
	data, _ := os.ReadFile(filepath.Join(dir, "matrix-1-of-3.shard"))
	os.WriteFile(filepath.Join(dir, "again.shard"), data, 0o644)
	checkFailure(t, []string{"merge", dir}, exitFailure, "more than once: shard 1 in")
	os.Remove(filepath.Join(dir, "again.shard"))

	os.WriteFile(filepath.Join(dir, "matrix-1-of-3.shard"), data[:len(data)-30], 0o644)
	checkFailure(t, []string{"merge", dir}, exitFailure, "matrix-1-of-3.shard is cut short")

	other := t.TempDir()
	shardOf(other, 1, 3)
	b2, _ := os.ReadFile(b)
	os.WriteFile(a, b2, 0o644) // the input changed between shards
	shardOf(other, 0, 3)
	shardOf(other, 2, 3)
	checkFailure(t, []string{"merge", other}, exitFailure, "inputs a.txt")

	os.WriteFile(filepath.Join(other, "notes.shard"), []byte("hello\n"), 0o644)
	checkFailure(t, []string{"merge", other}, exitFailure, "notes.shard is not a shard")

	old := strings.Replace(string(data), `"format":1`, `"format":0`, 1)
	os.WriteFile(filepath.Join(other, "notes.shard"), []byte(old), 0o644)
	checkFailure(t, []string{"merge", other}, exitFailure, "notes.shard was written by a levlab of shard format 0")

	checkFailure(t, []string{"merge", t.TempDir()}, exitFailure, "holds no shard")
	checkFailure(t, []string{"merge"}, exitUsage, "want one DIR")
	checkFailure(t, []string{"matrix", "--shard", "3/3", "--out", dir, a}, exitUsage, "shard 3/3")
	checkFailure(t, []string{"matrix", "--shard", "0/0", "--out", dir, a}, exitUsage, "shard 0/0")
	checkFailure(t, []string{"matrix", "--shard", "x", "--out", dir, a}, exitUsage, `--shard "x"`)
	checkFailure(t, []string{"matrix", "--shard", "0/2", a}, exitUsage, "--out DIR")
	checkFailure(t, []string{"matrix", "--out", dir, a}, exitUsage, "--out "+dir)
	checkFailure(t, []string{"matrix", "--shard", "0/2", "--shards", "2", "--out", dir, a}, exitUsage, "give one of them")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	os.Unsetenv("JOB_COMPLETION_INDEX")
	checkFailure(t, []string{"matrix", "--shards", "2", "--out", dir, a}, exitUsage, "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX")
	t.Setenv("JOB_COMPLETION_INDEX", "one")
	checkFailure(t, []string{"matrix", "--shards", "2", "--out", dir, a}, exitUsage, `JOB_COMPLETION_INDEX="one"`)
}

// TestMatrixShardsFromScheduler: --shards N takes the index from Slurm's
// array task id, else from a Kubernetes indexed job's.
func TestMatrixShardsFromScheduler(t *testing.T) {
	a, _, _ := shardInputs(t)
	want, _, _ := levlab(t, "matrix", "--top", "1", a)
	dir := t.TempDir()
	t.Setenv("JOB_COMPLETION_INDEX", "")
	os.Unsetenv("JOB_COMPLETION_INDEX")
	for i := range 2 {
		t.Setenv("SLURM_ARRAY_TASK_ID", fmt.Sprint(i))
		if _, stderr, code := levlab(t, "matrix", "--top", "1", "--shards", "3", "--out", dir, a); code != exitOK {
			t.Fatal(stderr)
		}
	}
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	if _, stderr, code := levlab(t, "matrix", "--top", "1", "--shards", "3", "--out", dir, a); code != exitOK {
		t.Fatal(stderr)
	}
	if got, stderr, code := levlab(t, "merge", dir); code != exitOK || got != want {
		t.Errorf("3 shards by the schedulers' indexes, merged: exit %d, %s", code, stderr)
	}
}

// TestRunShards: levlab run --shard I/N writes its own files; two shards
// time between them every point one run does, once each; bad shards and a
// shard of an experiment of one's own are bad usage.
func TestRunShards(t *testing.T) {
	if testing.Short() {
		t.Skip("times points; not in -short")
	}
	dir := t.TempDir()
	only := []string{"run", "--only", "s002-cases", "--reps", "1", "--out", dir}
	for i := range 2 {
		if _, stderr, code := levlab(t, append(only, "--shard", fmt.Sprintf("%d/2", i))...); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
	}
	one := t.TempDir()
	if _, stderr, code := levlab(t, "run", "--only", "s002-cases", "--reps", "1", "--out", one); code != exitOK {
		t.Fatal(stderr)
	}
	count := func(paths ...string) int {
		n := 0
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			n += strings.Count(string(b), "\n") - 1 // the header
		}
		return n
	}
	a, b := filepath.Join(dir, "s002-cases.shard-0-of-2.csv"), filepath.Join(dir, "s002-cases.shard-1-of-2.csv")
	if got, want := count(a, b), count(filepath.Join(one, "s002-cases.csv")); got != want || count(a) == 0 || count(b) == 0 {
		t.Errorf("two shards wrote %d records (%d and %d); one run writes %d", got, count(a), count(b), want)
	}
	checkFailure(t, []string{"run", "--only", "s002-cases", "--shard", "2/2", "--out", dir}, exitUsage, "shard 2/2")
	checkFailure(t, []string{"run", "--spec", "x.toml", "--shard", "0/2"}, exitUsage, "--shard and --spec")
}
