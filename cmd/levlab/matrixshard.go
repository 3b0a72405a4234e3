package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/internal/buildinfo"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/records"
)

// A taskShard is the Index-th of Count parts of a run (Index from 0): of
// matrix's pairs, or of run's points.
type taskShard struct{ Index, Count int }

// shardEnv are the variables a batch scheduler sets to a task's index, in
// the order they are read: Slurm job arrays', then Kubernetes Indexed
// Jobs'.
var shardEnv = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// parseShard reads --shard I/N, or --shards N with I from the scheduler's
// variable; neither is no shard (ok false).
func parseShard(spec string, count int, countGiven bool) (s taskShard, ok bool, err error) {
	switch {
	case spec != "" && countGiven:
		return taskShard{}, false, usageErrorf("--shard %s and --shards %d: give one of them", spec, count)
	case spec != "":
		i, n, found := strings.Cut(spec, "/")
		s.Index, err = strconv.Atoi(i)
		if err == nil {
			s.Count, err = strconv.Atoi(n)
		}
		if !found || err != nil {
			return taskShard{}, false, usageErrorf("--shard %q: want I/N, two whole numbers, such as 0/4", spec)
		}
	case countGiven:
		s.Count = count
		from := ""
		for _, name := range shardEnv {
			if v, set := os.LookupEnv(name); set {
				if s.Index, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
					return taskShard{}, false, usageErrorf("--shards %d: %s=%q is not a whole number", count, name, v)
				}
				from = name
				break
			}
		}
		if from == "" {
			return taskShard{}, false, usageErrorf("--shards %d: neither %s is set (a Slurm array task's, a Kubernetes indexed job's); give --shard I/N", count, strings.Join(shardEnv, " nor "))
		}
	default:
		return taskShard{}, false, nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return taskShard{}, false, usageErrorf("shard %d/%d: want N of 1 or more shards and I from 0 to N-1", s.Index, s.Count)
	}
	return s, true, nil
}

// shardRows returns the rows (strings of FILE_A) of shard s: a run of them
// whose cells — each pair's |a|·|b|, summed — come to about a Count-th of
// all, so that shards of strings of skewed lengths finish together. The
// runs of shards 0 … Count−1 follow each other from row 0 to the last.
// Without FILE_B (tri), row i's pairs are those with j > i, or, with a top,
// every j ≠ i.
func shardRows(a, b [][]byte, tri, top bool, s taskShard) (from, to int) {
	return shardRowsOf(len(a), len(b), func(i int) int { return len(a[i]) }, func(j int) int { return len(b[j]) }, tri, top, s)
}

// shardRowsOf is shardRows over the strings' lengths only: FILE_A's na
// strings, string i la(i) bytes long, and FILE_B's nb, string j lb(j)
// bytes long (FILE_A's own without FILE_B).
//
// Row i costs (la(i)+1)·Σ(lb(j)+1) over its pairs' j (an empty string
// still costs its pairs), and goes to shard k of N where its midpoint —
// the cells of the rows before it and half its own, rounded down — lies
// in [total·k/N, total·(k+1)/N). Every sum and product is exact in 128
// bits, whatever the lengths and N, as long as each file's bytes and
// strings together fit in 64 bits (they are in memory): a million reads
// of 150 bytes hold 1.1·10^16 cells, past math.MaxInt64 once multiplied
// by a shard's index. Time O(na+nb) and two passes over the rows; memory
// O(1).
func shardRowsOf(na, nb int, la, lb func(int) int, tri, top bool, s taskShard) (from, to int) {
	var bytesB uint64
	for j := range nb {
		bytesB += uint64(lb(j))
	}
	costs := func(yield func(int, u128) bool) {
		rest := bytesB // one set: the bytes of the strings after row i
		for i := range na {
			var other uint64 // the bytes of row i's pairs' strings, and one a pair
			switch {
			case !tri:
				other = bytesB + uint64(nb)
			case top:
				other = bytesB - uint64(lb(i)) + uint64(nb-1)
			default:
				rest -= uint64(lb(i))
				other = rest + uint64(nb-1-i)
			}
			if !yield(i, mul64(uint64(la(i))+1, other)) {
				return
			}
		}
	}
	var total u128
	for _, c := range costs {
		total = total.add(c)
	}
	bound := func(k int) int {
		switch k {
		case 0:
			return 0
		case s.Count:
			return na
		}
		// The first row whose midpoint m has m·N ≥ total·k, that is m ≥
		// ⌈total·k/N⌉ = q·k + ⌈r·k/N⌉ with total = q·N + r: q·k ≤ total
		// and r·k < N², so neither passes 128 bits.
		q, r := total.divmod(uint64(s.Count))
		part, rem := mul64(r, uint64(k)).divmod(uint64(s.Count))
		target := q.mul(uint64(k)).add(part)
		if rem > 0 {
			target = target.add(u128{lo: 1})
		}
		var sum u128
		for i, c := range costs {
			if !sum.add(c.half()).less(target) {
				return i
			}
			sum = sum.add(c)
		}
		return na
	}
	return bound(s.Index), bound(s.Index + 1)
}

// u128 is an unsigned 128-bit integer: a matrix's cells, bytes times
// bytes, pass 64 bits.
type u128 struct{ hi, lo uint64 }

// mul64 is x·y.
func mul64(x, y uint64) u128 {
	hi, lo := bits.Mul64(x, y)
	return u128{hi, lo}
}

// add is x+y; the sum must fit.
func (x u128) add(y u128) u128 {
	lo, carry := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, carry)
	return u128{hi, lo}
}

// mul is x·y; the product must fit.
func (x u128) mul(y uint64) u128 {
	hi, lo := bits.Mul64(x.lo, y)
	return u128{x.hi*y + hi, lo}
}

// half is ⌊x/2⌋.
func (x u128) half() u128 { return u128{x.hi >> 1, x.hi<<63 | x.lo>>1} }

// less reports whether x < y.
func (x u128) less(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

// divmod is ⌊x/d⌋ and x mod d, for d > 0.
func (x u128) divmod(d uint64) (u128, uint64) {
	hi, r := bits.Div64(0, x.hi, d)
	lo, r := bits.Div64(r, x.lo, d)
	return u128{hi, lo}, r
}

// shardHeader is the first line of a shard's file, after shardTag: what
// merge checks before it joins shards.
type shardHeader struct {
	Format  int          `json:"format"`
	Shard   int          `json:"shard"`
	Shards  int          `json:"shards"`
	Rows    [2]int       `json:"rows"`    // FILE_A's strings from, to
	Strings int          `json:"strings"` // FILE_A's strings in all
	Inputs  []shardInput `json:"inputs"`
	Options string       `json:"options"` // the flags that shape the output
	Levlab  string       `json:"levlab"`  // the commit that wrote it
}

type shardInput struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// shardTrailer is the last line, after shardEnd: what the lines between
// hold, so that a cut file is told from a whole one.
type shardTrailer struct {
	Lines int64 `json:"lines"`
	Bytes int64 `json:"bytes"`
}

const (
	shardFormat = 1
	shardTag    = "#levlab-matrix-shard "
	shardEnd    = "#levlab-matrix-shard-end "
	shardExt    = ".shard"

	// maxShards is the most shards matrix writes and merge joins: more
	// than a Slurm job array holds (MaxArraySize is at most 4,000,001)
	// or a Kubernetes indexed job, and few enough that a header's count
	// is no cause to hold much memory.
	maxShards = 1 << 22
	// maxShardHeader is the most bytes merge reads for a shard's first
	// line; levlab writes a few hundred (two file names, the flags).
	maxShardHeader = 64 << 10
)

// shardFile is shard s's file name in its folder.
func shardFile(s taskShard) string {
	w := len(strconv.Itoa(s.Count - 1))
	return fmt.Sprintf("matrix-%0*d-of-%d%s", w, s.Index, s.Count, shardExt)
}

// folderProblem says why path is no folder — "does not exist", "is a
// symbolic link to T, which does not exist", "is a file" … — or returns ""
// if it is one (through a link or not).
func folderProblem(path string) string {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return ""
	case err == nil:
		return "is " + records.FileKind(fi.Mode())
	case errors.Is(err, fs.ErrNotExist):
		if target, lerr := os.Readlink(path); lerr == nil {
			return fmt.Sprintf("is a symbolic link to %s, which does not exist", target)
		}
		return "does not exist"
	}
	return fmt.Sprintf("cannot be read (%v)", err)
}

// countingWriter counts the bytes and lines written through it.
type countingWriter struct {
	w            io.Writer
	bytes, lines int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.bytes += int64(n)
	c.lines += int64(bytes.Count(p[:n], []byte{'\n'}))
	return n, err
}

// pairsFunc runs lev's Cross (b given) or All (b nil) over byte or rune
// strings with the run's options and extra ones.
type pairsFunc func(a, b [][]byte, fn func(lev.Pair) error, extra ...lev.Option) error

// writeShard computes shard s of the run into its file in dir, whole or
// not at all (a temporary file renamed once its last line is written; an
// earlier file of the shard is replaced only then).
func writeShard(ctx context.Context, dir string, s taskShard, h shardHeader, a, b [][]byte, tri bool, top int, pairs pairsFunc, out *lineWriter) (string, error) {
	if p := folderProblem(dir); p != "" {
		return "", fmt.Errorf("--out %s %s; want a folder for the shard's file (make the folder first)", dir, p)
	}
	path := filepath.Join(dir, shardFile(s))
	err := atomicfile.Write(path, func(w io.Writer) error {
		head, _ := json.Marshal(h)
		if _, err := fmt.Fprintf(w, "%s%s\n", shardTag, head); err != nil {
			return err
		}
		body := &countingWriter{w: w}
		out.w = body
		if err := runRows(ctx, a, b, tri, top, h.Rows[0], h.Rows[1], pairs, out.line); err != nil {
			return err
		}
		if err := out.flush(); err != nil {
			return err
		}
		tail, _ := json.Marshal(shardTrailer{Lines: body.lines, Bytes: body.bytes})
		_, err := fmt.Fprintf(w, "%s%s\n", shardEnd, tail)
		return err
	})
	return path, err
}

// runRows calls emit with the pairs of rows from … to−1 of FILE_A, in the
// order and numbering one process gives them (I and J index the whole
// files).
func runRows(ctx context.Context, a, b [][]byte, tri bool, top, from, to int, pairs pairsFunc, emit func(lev.Pair) error) error {
	if from >= to {
		return nil
	}
	band := a[from:to]
	shift := func(dj int, fn func(lev.Pair) error) func(lev.Pair) error {
		return func(p lev.Pair) error {
			p.I += from
			p.J += dj
			return fn(p)
		}
	}
	switch {
	case !tri:
		return pairs(band, b, shift(0, emit))
	case top > 0:
		// Every j ≠ i: the band against the whole set, one nearer kept so
		// that the row still has top pairs once the string itself (at
		// distance 0) is left out.
		return withoutSelf(top, func(fn func(lev.Pair) error) error {
			return pairs(band, a, shift(0, fn), lev.WithTop(top+1))
		}, emit)
	}
	// j > i: the triangle within the band and the rectangle to its right,
	// run side by side and joined row by row, as one process orders them.
	return joinRows(ctx, from, to,
		func(fn func(lev.Pair) error, extra lev.Option) error { return pairs(band, nil, shift(from, fn), extra) },
		func(fn func(lev.Pair) error, extra lev.Option) error {
			return pairs(band, a[to:], shift(to, fn), extra)
		}, emit)
}

// withoutSelf passes run's rows to emit, each without its pair (i, i) and
// cut to top pairs.
func withoutSelf(top int, run func(func(lev.Pair) error) error, emit func(lev.Pair) error) error {
	row, cur := make([]lev.Pair, 0, top+1), -1
	flush := func() error {
		kept := 0
		for _, p := range row {
			if p.J == p.I || kept == top {
				continue
			}
			kept++
			if err := emit(p); err != nil {
				return err
			}
		}
		row = row[:0]
		return nil
	}
	err := run(func(p lev.Pair) error {
		if p.I != cur {
			if err := flush(); err != nil {
				return err
			}
			cur = p.I
		}
		row = append(row, p)
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// joinRows runs first and second side by side, each with a context that
// ends when either fails, and passes their pairs to emit row by row: row
// i's pairs of first, then its pairs of second.
func joinRows(ctx context.Context, from, to int, first, second func(func(lev.Pair) error, lev.Option) error, emit func(lev.Pair) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type stream struct {
		c   chan lev.Pair
		err error
	}
	start := func(run func(func(lev.Pair) error, lev.Option) error) *stream {
		s := &stream{c: make(chan lev.Pair, 4096)}
		go func() {
			defer close(s.c)
			s.err = run(func(p lev.Pair) error {
				select {
				case s.c <- p:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}, lev.WithContext(ctx))
		}()
		return s
	}
	streams := []*stream{start(first), start(second)}
	heads := make([]*lev.Pair, 2)
	next := func(k int) bool {
		if heads[k] == nil {
			p, ok := <-streams[k].c
			if !ok {
				return false
			}
			heads[k] = &p
		}
		return true
	}
	var err error
	for i := from; i < to && err == nil; i++ {
		for k := range streams {
			for err == nil && next(k) && heads[k].I == i {
				err = emit(*heads[k])
				heads[k] = nil
			}
		}
	}
	cancel()
	for _, s := range streams {
		for range s.c { // let a stopped run end
		}
		if err == nil && s.err != nil {
			err = s.err
		}
	}
	return err
}

// fileSHA256 is the hex SHA-256 of data.
func fileSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// newShardHeader describes shard s of a run over files (their paths and
// bytes) with the given output flags.
func newShardHeader(s taskShard, from, to, strs int, paths []string, files [][]byte, options string) shardHeader {
	h := shardHeader{Format: shardFormat, Shard: s.Index, Shards: s.Count, Rows: [2]int{from, to}, Strings: strs, Options: options, Levlab: buildinfo.Commit()}
	for i, p := range paths {
		h.Inputs = append(h.Inputs, shardInput{File: filepath.Base(p), SHA256: fileSHA256(files[i])})
	}
	return h
}
