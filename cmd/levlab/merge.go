package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/records"
)

func mergeUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab merge [--out FILE] DIR

Joins the shards levlab matrix --shard I/N (or --shards N, under a Slurm
array or a Kubernetes indexed job) wrote into DIR, and writes exactly what
one levlab matrix of the same files and flags writes, byte for byte, to
stdout or to FILE (whole or not at all).

Before writing a line it checks every *.shard file of DIR: each is a
shard's file, whole (its last line says how many lines and bytes it holds),
of this format; all are of the same input files (by SHA-256), flags, shard
count and levlab; and every shard from 0 to N-1 is there exactly once.
Otherwise it names the missing, the duplicated, the cut and the foreign
files, and writes nothing.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  the shards were joined
  1  DIR holds no shard, or shards that do not make one run (named), a
     *.shard that is no regular file, a file cannot be read, or the output
     cannot be written
  2  bad usage: an unknown flag, not one DIR, an --out that is one of the
     shards (or a link to one) or a new *.shard file in DIR
`)
}

// shardRead is a shard's file as merge found it.
type shardRead struct {
	path   string
	info   os.FileInfo // the file checked, to be the file copied
	head   shardHeader
	body   int64 // offset of the first line after the header
	length int64 // bytes of the lines between header and trailer
}

func runMerge(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("merge", stdout, mergeUsage)
	out := fs.String("out", "", "`FILE` to write (whole or not at all); unset: stdout")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("want one DIR, the folder of the shards, got %d arguments: %s", len(pos), quoteAll(pos))
	}
	dir := pos[0]
	paths, err := shardPaths(dir)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := outsideShards(*out, dir, paths); err != nil {
			return err
		}
	}
	shards, err := readShards(paths)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		for _, s := range shards {
			f, fi, err := openShard(s.path)
			if err == nil && (!os.SameFile(fi, s.info) || fi.Size() != s.info.Size()) {
				f.Close()
				err = fmt.Errorf("%s changed while merge read the shards; run merge again", s.path)
			}
			if err != nil {
				return err
			}
			_, err = io.Copy(w, io.NewSectionReader(f, s.body, s.length))
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", s.path, err)
			}
		}
		return nil
	}
	if *out != "" {
		return atomicfile.Write(*out, write)
	}
	bw := bufio.NewWriterSize(stdout, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// shardPaths lists the *.shard entries of dir by name, in order. The
// folder is listed, not matched as a pattern: its name may hold [, * or
// ?, which filepath.Glob would read as a pattern's.
func shardPaths(dir string) ([]string, error) {
	if p := folderProblem(dir); p != "" {
		return nil, fmt.Errorf("merge: %s %s; want the folder of the shards", dir, p)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), shardExt) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("merge: %s holds no shard (*%s): levlab matrix --shard I/N --out %s writes them", dir, shardExt, dir)
	}
	return paths, nil
}

// outsideShards refuses an --out that is one of the shards at paths, by
// another name or through a link (the output, read from the shards,
// would replace one of them: that shard, or the file a link points to,
// lost), or a new *.shard file in dir, which the next merge of dir would
// read as a shard.
func outsideShards(out, dir string, paths []string) error {
	if oi, err := os.Stat(out); err == nil {
		for _, p := range paths {
			if pi, err := os.Stat(p); err == nil && os.SameFile(oi, pi) {
				return usageErrorf("--out %s is the shard %s, or a link to it: merge would write over a file it reads; write the output elsewhere", out, p)
			}
		}
	}
	if strings.HasSuffix(out, shardExt) {
		pi, perr := os.Stat(filepath.Dir(out))
		di, derr := os.Stat(dir)
		if perr == nil && derr == nil && os.SameFile(pi, di) {
			return usageErrorf("--out %s is a *%s file in the shards' folder %s, which the next merge would read as a shard; give it another name or folder", out, shardExt, dir)
		}
	}
	return nil
}

// readShards reads the header and trailer of every shard file at paths
// and returns them in shard order, or an error naming every file that
// keeps them from being one run.
func readShards(paths []string) ([]shardRead, error) {
	var (
		good     []shardRead
		problems []string
	)
	for _, p := range paths {
		s, err := readShard(p)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		good = append(good, s)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("merge: %s", strings.Join(problems, "; "))
	}
	// One run: the first shard's inputs, flags, count and levlab; the
	// files that differ are foreign.
	ref := good[0].head
	key := func(h shardHeader) string {
		in, _ := json.Marshal(h.Inputs)
		return fmt.Sprintf("%s|%s|%d|%d|%s", in, h.Options, h.Shards, h.Strings, h.Levlab)
	}
	var foreign []string
	for _, s := range good[1:] {
		if key(s.head) != key(ref) {
			foreign = append(foreign, fmt.Sprintf("%s (%s)", s.path, differs(ref, s.head)))
		}
	}
	if len(foreign) > 0 {
		return nil, fmt.Errorf("merge: shards of another run than %s: %s", good[0].path, strings.Join(foreign, ", "))
	}
	slices.SortStableFunc(good, func(x, y shardRead) int { return cmp.Compare(x.head.Shard, y.head.Shard) })
	// The shards missing, as runs, and those found more than once: walked
	// in order rather than counted in a table of the header's count, which
	// may be millions where a few files are there.
	const named = 10 // runs of missing shards named, at most
	var missing, twice []string
	lost, runs := 0, 0
	gap := func(from, to int) { // shards from … to−1 are missing
		if from >= to {
			return
		}
		lost += to - from
		if runs++; runs > named {
			return
		}
		if to-from == 1 {
			missing = append(missing, fmt.Sprint(from))
		} else {
			missing = append(missing, fmt.Sprintf("%d to %d", from, to-1))
		}
	}
	next := 0
	for i := 0; i < len(good); {
		k, j := good[i].head.Shard, i+1
		for j < len(good) && good[j].head.Shard == k {
			j++
		}
		if j-i > 1 {
			var ps []string
			for _, s := range good[i:j] {
				ps = append(ps, s.path)
			}
			twice = append(twice, fmt.Sprintf("shard %d in %s", k, strings.Join(ps, " and ")))
		}
		gap(next, k)
		next, i = k+1, j
	}
	gap(next, ref.Shards)
	if lost > 0 || len(twice) > 0 {
		var msg []string
		if lost > 0 {
			if runs > named {
				missing = append(missing, fmt.Sprintf("… (%d missing in all)", lost))
			}
			msg = append(msg, fmt.Sprintf("shards missing of %d: %s (levlab matrix --shard I/%d writes shard I)", ref.Shards, strings.Join(missing, ", "), ref.Shards))
		}
		if len(twice) > 0 {
			msg = append(msg, "more than once: "+strings.Join(twice, "; "))
		}
		return nil, fmt.Errorf("merge: %s", strings.Join(msg, "; "))
	}
	// The rows follow each other from the first string to the last.
	next = 0
	for _, s := range good {
		if s.head.Rows[0] != next {
			return nil, fmt.Errorf("merge: %s holds strings %d to %d, but the shards before end at %d", s.path, s.head.Rows[0]+1, s.head.Rows[1], next)
		}
		next = s.head.Rows[1]
	}
	if next != ref.Strings {
		return nil, fmt.Errorf("merge: the shards hold strings up to %d of %d", next, ref.Strings)
	}
	return good, nil
}

// differs says how header h is of another run than ref.
func differs(ref, h shardHeader) string {
	var d []string
	in := func(x shardHeader) string {
		var s []string
		for _, i := range x.Inputs {
			s = append(s, i.File+" "+i.SHA256[:min(12, len(i.SHA256))])
		}
		return strings.Join(s, ", ")
	}
	if a, b := in(ref), in(h); a != b {
		d = append(d, "inputs "+b+", not "+a)
	}
	if h.Options != ref.Options {
		d = append(d, fmt.Sprintf("flags %q, not %q", h.Options, ref.Options))
	}
	if h.Shards != ref.Shards {
		d = append(d, fmt.Sprintf("%d shards, not %d", h.Shards, ref.Shards))
	}
	if h.Levlab != ref.Levlab {
		d = append(d, "written by levlab "+h.Levlab+", not "+ref.Levlab)
	}
	if len(d) == 0 {
		d = append(d, fmt.Sprintf("%d strings, not %d", h.Strings, ref.Strings))
	}
	return strings.Join(d, "; ")
}

// openShard opens the file at path, following a link, and returns it and
// its mode only if it is a regular file. It never waits: with O_NONBLOCK
// the open of a FIFO returns at once, to be refused, as a folder or a
// device (a link to /dev/zero, which never ends) is.
func openShard(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file (%s): levlab matrix --shard writes a shard as a file", path, records.FileKind(fi.Mode()))
	}
	return f, fi, nil
}

// readShard reads a shard file's header and trailer and checks that the
// lines between are whole and that every number of the header is in its
// range.
func readShard(path string) (shardRead, error) {
	f, fi, err := openShard(path)
	if err != nil {
		return shardRead{}, err
	}
	defer f.Close()
	// The header: the first line, of at most maxShardHeader bytes, so that
	// a file that is no shard is not read whole to find its end.
	head := make([]byte, min(fi.Size(), maxShardHeader))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return shardRead{}, err
	}
	end := bytes.IndexByte(head, '\n')
	if !bytes.HasPrefix(head, []byte(shardTag)) || end < 0 && fi.Size() <= maxShardHeader {
		return shardRead{}, fmt.Errorf("%s is not a shard of levlab matrix (its first line is not %q…)", path, strings.TrimSpace(shardTag))
	}
	if end < 0 {
		return shardRead{}, fmt.Errorf("%s: its first line, a shard's header, runs past %d KiB, where levlab matrix writes a few hundred bytes: it is no shard levlab wrote", path, maxShardHeader>>10)
	}
	s := shardRead{path: path, info: fi, body: int64(end) + 1}
	if err := json.Unmarshal(head[len(shardTag):end], &s.head); err != nil {
		return shardRead{}, fmt.Errorf("%s: its header cannot be read: %v", path, err)
	}
	if err := checkHeader(path, s.head); err != nil {
		return shardRead{}, err
	}
	// The trailer: the last line.
	const most = 4096
	at := max(fi.Size()-most, s.body)
	tail := make([]byte, fi.Size()-at)
	if _, err := f.ReadAt(tail, at); err != nil && !errors.Is(err, io.EOF) {
		return shardRead{}, err
	}
	cut := fmt.Errorf("%s is cut short (no last line %q…): its shard did not finish; write it again", path, strings.TrimSpace(shardEnd))
	if !bytes.HasSuffix(tail, []byte("\n")) {
		return shardRead{}, cut
	}
	i := bytes.LastIndexByte(tail[:len(tail)-1], '\n') + 1
	last, found := bytes.CutPrefix(tail[i:], []byte(shardEnd))
	if !found {
		return shardRead{}, cut
	}
	var tr shardTrailer
	if err := json.Unmarshal(last, &tr); err != nil {
		return shardRead{}, cut
	}
	s.length = at + int64(i) - s.body
	if tr.Bytes != s.length {
		return shardRead{}, fmt.Errorf("%s holds %d bytes of pairs where its last line says %d: it was changed after it was written; write it again", path, s.length, tr.Bytes)
	}
	return s, nil
}

// checkHeader checks the numbers of shard path's header h against their
// ranges before any is used (a count sizes nothing, an index indexes
// nothing, until then), and names the number and its range otherwise.
func checkHeader(path string, h shardHeader) error {
	switch {
	case h.Format != shardFormat:
		return fmt.Errorf("%s was written by a levlab of shard format %d (levlab %s); this one reads format %d: write the shard again", path, h.Format, h.Levlab, shardFormat)
	case h.Shards < 1 || h.Shards > maxShards:
		return fmt.Errorf("%s: shard count %d in its header: want 1 to %d", path, h.Shards, maxShards)
	case h.Shard < 0 || h.Shard >= h.Shards:
		return fmt.Errorf("%s: shard index %d in its header: want 0 to %d, below its count of %d shards", path, h.Shard, h.Shards-1, h.Shards)
	case h.Strings < 0:
		return fmt.Errorf("%s: %d strings in its header: want 0 or more", path, h.Strings)
	case h.Rows[0] < 0 || h.Rows[0] > h.Rows[1] || h.Rows[1] > h.Strings:
		return fmt.Errorf("%s: rows %d to %d in its header: want two rows from 0 to %d, its strings, the first no more than the second", path, h.Rows[0], h.Rows[1], h.Strings)
	}
	return nil
}
