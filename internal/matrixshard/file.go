package matrixshard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/internal/buildinfo"
	"github.com/levlab/levlab/records"
)

// Header is the first line of a shard's file, after Tag: what merge
// checks before it joins shards.
type Header struct {
	Format  int     `json:"format"`
	Shard   int     `json:"shard"`
	Shards  int     `json:"shards"`
	Rows    [2]int  `json:"rows"`    // FILE_A's strings from, to
	Strings int     `json:"strings"` // FILE_A's strings in all
	Inputs  []Input `json:"inputs"`
	Options string  `json:"options"` // the flags that shape the output
	Levlab  string  `json:"levlab"`  // the commit that wrote it
}

// Input is an input file of a shard's run: its name, without its folder,
// and the SHA-256 of its bytes, in hex.
type Input struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// Trailer is the last line, after EndTag: what the lines between hold, so
// that a cut file is told from a whole one.
type Trailer struct {
	Lines int64 `json:"lines"`
	Bytes int64 `json:"bytes"`
}

const (
	Format = 1                           // the format Write writes and Read reads
	Tag    = "#levlab-matrix-shard "     // the header's line starts with it
	EndTag = "#levlab-matrix-shard-end " // the trailer's line starts with it
	Ext    = ".shard"                    // a shard's file name ends with it

	// MaxShards is the most shards matrix writes and merge joins: more
	// than a Slurm job array holds (MaxArraySize is at most 4,000,001)
	// or a Kubernetes indexed job, and few enough that a header's count
	// is no cause to hold much memory.
	MaxShards = 1 << 22
	// maxHeader is the most bytes Read reads for a shard's first line;
	// levlab writes a few hundred (two file names, the flags).
	maxHeader = 64 << 10
)

// FileName is shard s's file name in its folder: matrix-I-of-N.shard, I
// padded with zeros to the width of N-1.
func FileName(s Shard) string {
	w := len(strconv.Itoa(s.Count - 1))
	return fmt.Sprintf("matrix-%0*d-of-%d%s", w, s.Index, s.Count, Ext)
}

// NewHeader describes shard s, rows from … to−1 of strs strings, of a run
// over files (their paths and bytes) with the given output flags, written
// by this levlab.
func NewHeader(s Shard, from, to, strs int, paths []string, files [][]byte, options string) Header {
	h := Header{Format: Format, Shard: s.Index, Shards: s.Count, Rows: [2]int{from, to}, Strings: strs, Options: options, Levlab: buildinfo.Commit()}
	for i, p := range paths {
		sum := sha256.Sum256(files[i])
		h.Inputs = append(h.Inputs, Input{File: filepath.Base(p), SHA256: hex.EncodeToString(sum[:])})
	}
	return h
}

// Write writes the file of h's shard into the folder dir, whole or not at
// all (a temporary file renamed once its last line is written; an earlier
// file of the shard is replaced only then), and returns its path: the
// header, the lines lines writes, and the trailer that counts them.
func Write(dir string, h Header, lines func(w io.Writer) error) (string, error) {
	path := filepath.Join(dir, FileName(Shard{h.Shard, h.Shards}))
	err := atomicfile.Write(path, func(w io.Writer) error {
		head, _ := json.Marshal(h)
		if _, err := fmt.Fprintf(w, "%s%s\n", Tag, head); err != nil {
			return err
		}
		body := &countingWriter{w: w}
		if err := lines(body); err != nil {
			return err
		}
		tail, _ := json.Marshal(Trailer{Lines: body.lines, Bytes: body.bytes})
		_, err := fmt.Fprintf(w, "%s%s\n", EndTag, tail)
		return err
	})
	return path, err
}

// FolderProblem says why path is no folder — "does not exist", "is a
// symbolic link to T, which does not exist", "is a file" … — or returns ""
// if it is one (through a link or not).
func FolderProblem(path string) string {
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
