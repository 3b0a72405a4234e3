package matrixshard

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeShards writes the shards of a run of n shards over rows rows into
// dir, shard k's lines "k i" for each of its rows i, and returns the
// lines of all, in order.
func writeShards(t *testing.T, dir string, n, rows int) string {
	t.Helper()
	var all strings.Builder
	for k := range n {
		s := Shard{k, n}
		from, to := k*rows/n, (k+1)*rows/n
		h := NewHeader(s, from, to, rows, []string{"/in/a.txt"}, [][]byte{[]byte("a\nb\n")}, "--algo auto")
		var lines string
		for i := from; i < to; i++ {
			lines += fmt.Sprintf("%d %d\n", k, i)
		}
		all.WriteString(lines)
		path, err := Write(dir, h, func(w io.Writer) error {
			_, err := io.WriteString(w, lines)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, FileName(s)); path != want {
			t.Errorf("shard %d/%d written to %s, want %s", k, n, path, want)
		}
	}
	return all.String()
}

// TestWriteReadCopy: shards written by Write, read back by Read in shard
// order whatever their names' order, copy to the lines of all in order;
// a file cut short, or one shard missing, is refused, named.
func TestWriteReadCopy(t *testing.T) {
	dir := t.TempDir()
	want := writeShards(t, dir, 11, 40) // matrix-00-of-11 … matrix-10-of-11
	paths, err := Paths(dir)
	if err != nil {
		t.Fatal(err)
	}
	shards, err := Read(paths)
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range shards {
		if s.Header.Shard != k || s.Header.Inputs[0].File != "a.txt" {
			t.Errorf("shard %d read as %+v", k, s.Header)
		}
	}
	var got bytes.Buffer
	if err := Copy(&got, shards); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("Copy wrote %q, want %q", got.String(), want)
	}

	cut := filepath.Join(dir, FileName(Shard{3, 11}))
	data, _ := os.ReadFile(cut)
	if err := os.WriteFile(cut, data[:len(data)-5], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(paths); err == nil || !strings.Contains(err.Error(), cut) || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("a cut shard: %v", err)
	}
	os.Remove(cut)
	paths, _ = Paths(dir)
	if _, err := Read(paths); err == nil || !strings.Contains(err.Error(), "shards missing of 11: 3") {
		t.Errorf("a missing shard: %v", err)
	}
}

// TestFileName: shard indexes are padded to the width of the last, so
// that the files list in shard order.
func TestFileName(t *testing.T) {
	for _, c := range []struct {
		s    Shard
		want string
	}{{Shard{0, 1}, "matrix-0-of-1.shard"}, {Shard{3, 11}, "matrix-03-of-11.shard"}, {Shard{999, 1000}, "matrix-999-of-1000.shard"}} {
		if got := FileName(c.s); got != c.want {
			t.Errorf("FileName(%v) = %s, want %s", c.s, got, c.want)
		}
	}
}
