package matrixshard

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/levlab/levlab/records"
)

// A File is a shard's file as Read found it.
type File struct {
	Path   string
	Header Header
	info   os.FileInfo // the file checked, to be the file copied
	body   int64       // offset of the first line after the header
	length int64       // bytes of the lines between header and trailer
}

// Copy writes the lines of shards, as Read returned them, to w one shard
// after the other: what one levlab matrix of their run prints. A file
// that is no longer the one Read checked is an error.
func Copy(w io.Writer, shards []File) error {
	for _, s := range shards {
		f, fi, err := openShard(s.Path)
		if err == nil && (!os.SameFile(fi, s.info) || fi.Size() != s.info.Size()) {
			f.Close()
			err = fmt.Errorf("%s changed while merge read the shards; run merge again", s.Path)
		}
		if err != nil {
			return err
		}
		_, err = io.Copy(w, io.NewSectionReader(f, s.body, s.length))
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", s.Path, err)
		}
	}
	return nil
}

// Paths lists the *.shard entries of dir by name, in order. The
// folder is listed, not matched as a pattern: its name may hold [, * or
// ?, which filepath.Glob would read as a pattern's.
func Paths(dir string) ([]string, error) {
	if p := FolderProblem(dir); p != "" {
		return nil, fmt.Errorf("%s %s; want the folder of the shards", dir, p)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), Ext) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s holds no shard (*%s): levlab matrix --shard I/N --out %s writes them", dir, Ext, dir)
	}
	return paths, nil
}

// CheckOut refuses an output file out (merge --out) that is one of the
// shards at paths, by another name or through a link (the output, read
// from the shards, would replace one of them: that shard, or the file a
// link points to, lost), or a new *.shard file in dir, which the next
// merge of dir would read as a shard.
func CheckOut(out, dir string, paths []string) error {
	if oi, err := os.Stat(out); err == nil {
		for _, p := range paths {
			if pi, err := os.Stat(p); err == nil && os.SameFile(oi, pi) {
				return fmt.Errorf("--out %s is the shard %s, or a link to it: merge would write over a file it reads; write the output elsewhere", out, p)
			}
		}
	}
	if strings.HasSuffix(out, Ext) {
		pi, perr := os.Stat(filepath.Dir(out))
		di, derr := os.Stat(dir)
		if perr == nil && derr == nil && os.SameFile(pi, di) {
			return fmt.Errorf("--out %s is a *%s file in the shards' folder %s, which the next merge would read as a shard; give it another name or folder", out, Ext, dir)
		}
	}
	return nil
}

// Read reads the header and trailer of every shard file at paths and
// returns them in shard order, or an error naming every file that keeps
// them from being one run: every shard of it from 0 to N-1 once, their
// rows following each other from the first string to the last.
func Read(paths []string) ([]File, error) {
	var (
		good     []File
		problems []string
	)
	for _, p := range paths {
		s, err := readOne(p)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		good = append(good, s)
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	// One run: the first shard's inputs, flags, count and levlab; the
	// files that differ are foreign.
	ref := good[0].Header
	key := func(h Header) string {
		in, _ := json.Marshal(h.Inputs)
		return fmt.Sprintf("%s|%s|%d|%d|%s", in, h.Options, h.Shards, h.Strings, h.Levlab)
	}
	var foreign []string
	for _, s := range good[1:] {
		if key(s.Header) != key(ref) {
			foreign = append(foreign, fmt.Sprintf("%s (%s)", s.Path, differs(ref, s.Header)))
		}
	}
	if len(foreign) > 0 {
		return nil, fmt.Errorf("shards of another run than %s: %s", good[0].Path, strings.Join(foreign, ", "))
	}
	slices.SortStableFunc(good, func(x, y File) int { return cmp.Compare(x.Header.Shard, y.Header.Shard) })
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
		k, j := good[i].Header.Shard, i+1
		for j < len(good) && good[j].Header.Shard == k {
			j++
		}
		if j-i > 1 {
			var ps []string
			for _, s := range good[i:j] {
				ps = append(ps, s.Path)
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
		return nil, errors.New(strings.Join(msg, "; "))
	}
	// The rows follow each other from the first string to the last.
	next = 0
	for _, s := range good {
		if s.Header.Rows[0] != next {
			return nil, fmt.Errorf("%s holds strings %d to %d, but the shards before end at %d", s.Path, s.Header.Rows[0]+1, s.Header.Rows[1], next)
		}
		next = s.Header.Rows[1]
	}
	if next != ref.Strings {
		return nil, fmt.Errorf("the shards hold strings up to %d of %d", next, ref.Strings)
	}
	return good, nil
}

// differs says how header h is of another run than ref.
func differs(ref, h Header) string {
	var d []string
	in := func(x Header) string {
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

// readOne reads a shard file's header and trailer and checks that the
// lines between are whole and that every number of the header is in its
// range.
func readOne(path string) (File, error) {
	f, fi, err := openShard(path)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	// The header: the first line, of at most maxHeader bytes, so that
	// a file that is no shard is not read whole to find its end.
	head := make([]byte, min(fi.Size(), maxHeader))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return File{}, err
	}
	end := bytes.IndexByte(head, '\n')
	if !bytes.HasPrefix(head, []byte(Tag)) || end < 0 && fi.Size() <= maxHeader {
		return File{}, fmt.Errorf("%s is not a shard of levlab matrix (its first line is not %q…)", path, strings.TrimSpace(Tag))
	}
	if end < 0 {
		return File{}, fmt.Errorf("%s: its first line, a shard's header, runs past %d KiB, where levlab matrix writes a few hundred bytes: it is no shard levlab wrote", path, maxHeader>>10)
	}
	s := File{Path: path, info: fi, body: int64(end) + 1}
	if err := json.Unmarshal(head[len(Tag):end], &s.Header); err != nil {
		return File{}, fmt.Errorf("%s: its header cannot be read: %v", path, err)
	}
	if err := checkHeader(path, s.Header); err != nil {
		return File{}, err
	}
	// The trailer: the last line.
	const most = 4096
	at := max(fi.Size()-most, s.body)
	tail := make([]byte, fi.Size()-at)
	if _, err := f.ReadAt(tail, at); err != nil && !errors.Is(err, io.EOF) {
		return File{}, err
	}
	cut := fmt.Errorf("%s is cut short (no last line %q…): its shard did not finish; write it again", path, strings.TrimSpace(EndTag))
	if !bytes.HasSuffix(tail, []byte("\n")) {
		return File{}, cut
	}
	i := bytes.LastIndexByte(tail[:len(tail)-1], '\n') + 1
	last, found := bytes.CutPrefix(tail[i:], []byte(EndTag))
	if !found {
		return File{}, cut
	}
	var tr Trailer
	if err := json.Unmarshal(last, &tr); err != nil {
		return File{}, cut
	}
	s.length = at + int64(i) - s.body
	if tr.Bytes != s.length {
		return File{}, fmt.Errorf("%s holds %d bytes of pairs where its last line says %d: it was changed after it was written; write it again", path, s.length, tr.Bytes)
	}
	return s, nil
}

// checkHeader checks the numbers of shard path's header h against their
// ranges before any is used (a count sizes nothing, an index indexes
// nothing, until then), and names the number and its range otherwise.
func checkHeader(path string, h Header) error {
	switch {
	case h.Format != Format:
		return fmt.Errorf("%s was written by a levlab of shard format %d (levlab %s); this one reads format %d: write the shard again", path, h.Format, h.Levlab, Format)
	case h.Shards < 1 || h.Shards > MaxShards:
		return fmt.Errorf("%s: shard count %d in its header: want 1 to %d", path, h.Shards, MaxShards)
	case h.Shard < 0 || h.Shard >= h.Shards:
		return fmt.Errorf("%s: shard index %d in its header: want 0 to %d, below its count of %d shards", path, h.Shard, h.Shards-1, h.Shards)
	case h.Strings < 0:
		return fmt.Errorf("%s: %d strings in its header: want 0 or more", path, h.Strings)
	case h.Rows[0] < 0 || h.Rows[0] > h.Rows[1] || h.Rows[1] > h.Strings:
		return fmt.Errorf("%s: rows %d to %d in its header: want two rows from 0 to %d, its strings, the first no more than the second", path, h.Rows[0], h.Rows[1], h.Strings)
	}
	return nil
}
