package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// rankChunk is the most bytes of lines a rank sends rank 0 at once.
const rankChunk = 1 << 20

// overRanks runs the job over the ranks of an MPI job (levlab-mpi under
// mpirun): every rank has read the same files (checked: their SHA-256
// against rank 0's), computes the rows shardRows gives it — runs of
// FILE_A's strings of about equal cells — into a file of its own, and
// rank 0 then prints its lines and every other rank's, in rank order:
// exactly what one process prints. A failure or Ctrl-C on any rank ends
// every rank before a line is printed, with the message said once.
func (m *matrixJob) overRanks(ctx context.Context, c comm, stdout io.Writer) error {
	if err := c.agree(sameInputs(c, "files", m.files...)); err != nil {
		return err
	}

	sh := taskShard{c.rank(), c.size()}
	from, to := shardRows(m.a, m.b, m.tri, m.work.top > 0, sh)
	tmp, err := os.CreateTemp("", "levlab-matrix-rank-*")
	if err == nil {
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		out := m.writer(tmp)
		err = runRows(ctx, m.a, m.b, m.tri, m.work.top, from, to, m.pairs, out.line)
		if ferr := out.flush(); err == nil {
			err = ferr
		}
	}
	if errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%w: no line was printed", errInterrupted)
	} else if err != nil {
		err = fmt.Errorf("strings %d to %d: %w", from+1, to, err)
	}
	if err := c.agree(err); err != nil {
		return err
	}

	// Rank 0 prints, in rank order; a rank sends its size, then its lines
	// in chunks that end at a line's end.
	if c.rank() != 0 {
		err = sendLines(c, tmp)
		return c.agree(err)
	}
	out := m.writer(stdout)
	if _, err = tmp.Seek(0, io.SeekStart); err == nil {
		_, err = io.Copy(lineSink{out}, tmp)
	}
	for r := 1; r < c.size(); r++ {
		size := int64(binary.LittleEndian.Uint64(c.recv(r)))
		for got := int64(0); got < size; {
			chunk := c.recv(r)
			got += int64(len(chunk))
			if err == nil {
				_, err = lineSink{out}.Write(chunk)
			}
		}
	}
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	return c.agree(err)
}

// sameInputs checks, on every rank, that the inputs are rank 0's: their
// SHA-256 against rank 0's. what names them in the error: "files".
func sameInputs(c comm, what string, inputs ...[]byte) error {
	sum := sha256.New()
	for _, f := range inputs {
		h := sha256.Sum256(f)
		sum.Write(h[:])
	}
	mine := sum.Sum(nil)
	if ref := c.bcastBytes(mine); !bytes.Equal(ref, mine) {
		return fmt.Errorf("the input %s differ from rank 0's (their SHA-256 %x…, rank 0's %x…): every rank must read the same %s", what, mine[:6], ref[:6], what)
	}
	return nil
}

// sendLines sends rank 0 the size of the lines in f, then the lines, in
// chunks of up to rankChunk bytes that end at a line's end. It sends the
// whole size it announced whatever happens, so that rank 0 is never left
// waiting; a read that fails sends the rest as blank lines and is
// returned.
func sendLines(c comm, f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(size))
	c.send(n[:], 0)
	buf := make([]byte, rankChunk)
	var rerr error
	for sent := int64(0); sent < size; {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), size-sent)], sent)
		if k == 0 && err != nil {
			rerr = fmt.Errorf("reading its lines back: %w", err)
			for i := range buf {
				buf[i] = '\n'
			}
			k = int(min(int64(len(buf)), size-sent))
		} else if end := bytes.LastIndexByte(buf[:k], '\n'); end >= 0 && sent+int64(k) < size {
			k = end + 1 // whole lines in each chunk
		}
		c.send(buf[:k], 0)
		sent += int64(k)
	}
	return rerr
}

// lineSink writes whole lines through a lineWriter: what is written to it
// goes out once the lineWriter's buffer is full, at a line's end.
type lineSink struct{ l *lineWriter }

func (s lineSink) Write(p []byte) (int, error) {
	s.l.buf = append(s.l.buf, p...)
	if len(s.l.buf) >= 64<<10 {
		if end := bytes.LastIndexByte(s.l.buf, '\n'); end >= 0 {
			rest := append([]byte(nil), s.l.buf[end+1:]...)
			s.l.buf = s.l.buf[:end+1]
			err := s.l.flush()
			s.l.buf = append(s.l.buf, rest...)
			if err != nil {
				return 0, err
			}
		}
	}
	return len(p), nil
}
