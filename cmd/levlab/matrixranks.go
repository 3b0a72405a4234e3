package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/levlab/levlab/internal/mpi"
	"github.com/levlab/levlab/lev"
)

// rankChunk is the most bytes of lines a rank sends rank 0 at once.
const rankChunk = 1 << 20

// rankBands is how many bands of rows each rank of an MPI job has to
// take, on average: the more, the less a rank that drew long strings, or a
// slower machine, leaves the others waiting at the end.
const rankBands = 8

// overRanks runs the job over the ranks of an MPI job (levlab-mpi under
// mpirun): every rank has read the same files (checked: their SHA-256
// against rank 0's), then takes bands of FILE_A's strings — runs of rows
// of about equal cells, rankBands a rank — one at a time from rank 0
// (bandDealer), computing each into a file of its own, until none is
// left; rank 0 then prints every band in order, its own from its file and
// the others' as their ranks send them: exactly what one process prints.
// A failure or Ctrl-C on any rank ends every rank before a line is
// printed, with the message said once.
func (m *matrixJob) overRanks(ctx context.Context, c mpi.Comm, stdout io.Writer) error {
	if err := c.Agree(mpi.SameInputs(c, "files", m.files...)); err != nil {
		return err
	}

	bands := max(1, min(len(m.a), rankBands*c.Size()))
	deal := newBandDealer(ctx, c, bands)
	var mine []bandLines // the bands this rank computed, in order
	tmp, err := os.CreateTemp("", "levlab-matrix-rank-*")
	if err == nil {
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		out := m.writer(tmp)
		var at int64
		for err == nil {
			k, derr := deal.next()
			if err = derr; err != nil || k < 0 {
				break
			}
			from, to := shardRows(m.a, m.b, m.tri, m.work.top > 0, taskShard{k, bands})
			err = runRows(ctx, m.a, m.b, m.tri, m.work.top, from, to, m.pairs, out.line)
			if ferr := out.flush(); err == nil {
				err = ferr
			}
			if err != nil {
				err = fmt.Errorf("strings %d to %d: %w", from+1, to, err)
				deal.stop() // the job fails: no more bands for anyone
				break
			}
			end, serr := tmp.Seek(0, io.SeekCurrent)
			mine, at, err = append(mine, bandLines{k, at, end - at}), end, serr
		}
	}
	if derr := deal.done(); err == nil {
		err = derr
	}
	if errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%w: no line was printed", errInterrupted)
	}
	if err := c.Agree(err); err != nil {
		return err
	}

	// Rank 0 prints the bands in order; each other rank sends its own, in
	// order, each as its size and then its lines in chunks that end at a
	// line's end.
	if c.Rank() != 0 {
		for _, b := range mine {
			if serr := sendLines(c, tmp, b.off, b.size); err == nil {
				err = serr
			}
		}
		return c.Agree(err)
	}
	out := m.writer(stdout)
	for _, owner := range deal.owners {
		if owner == 0 {
			b := mine[0]
			mine = mine[1:]
			if err == nil {
				_, err = io.Copy(lineSink{out}, io.NewSectionReader(tmp, b.off, b.size))
			}
			continue
		}
		size := int64(binary.LittleEndian.Uint64(c.Recv(owner)))
		for got := int64(0); got < size; {
			chunk := c.Recv(owner)
			got += int64(len(chunk))
			if err == nil {
				_, err = lineSink{out}.Write(chunk)
			}
		}
	}
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	return c.Agree(err)
}

// bandLines is where a band's lines lie in a rank's file.
type bandLines struct {
	band      int
	off, size int64
}

// The tags of the band dealer's messages (lev.Ranks'), beside lev's own.
const (
	tagBandAsk  = 4201 // a rank's ask for a band (1), or its word that it is done (−1)
	tagBandGive = 4202 // rank 0's answer: a band, or −1 for none left
)

// bandDealer hands out the bands of a matrix over MPI ranks, one at a
// time, in order, to whichever rank asks first: rank 0 keeps the count and
// answers each other rank from a goroutine of its own (lev.Ranks'
// messages, polled, which need MPI_THREAD_MULTIPLE); one process takes
// them all.
type bandDealer struct {
	ranks  lev.Ranks // nil for one process
	rank   int
	bands  int64
	nextK  atomic.Int64
	owners []int // rank 0: the rank each band went to, known once done returned
	serve  sync.WaitGroup
}

func newBandDealer(ctx context.Context, c mpi.Comm, bands int) *bandDealer {
	d := &bandDealer{rank: c.Rank(), bands: int64(bands), owners: make([]int, bands)}
	if c.Size() > 1 {
		d.ranks = c.Link(ctx)
	}
	if d.ranks == nil || d.rank != 0 {
		return d
	}
	for r := 1; r < c.Size(); r++ {
		d.serve.Go(func() {
			ask := make([]byte, 8)
			for {
				if d.ranks.Recv(r, tagBandAsk, ask) != nil || int64(binary.LittleEndian.Uint64(ask)) < 0 {
					return // done, or interrupted
				}
				if d.ranks.Send(r, tagBandGive, binary.LittleEndian.AppendUint64(nil, uint64(d.take(r)))) != nil {
					return
				}
			}
		})
	}
	return d
}

// take gives rank r the next band, or −1 when none is left.
func (d *bandDealer) take(r int) int {
	k := d.nextK.Add(1) - 1
	if k >= d.bands {
		return -1
	}
	d.owners[k] = r
	return int(k)
}

// stop leaves no band to take, where this process deals them.
func (d *bandDealer) stop() { d.nextK.Store(d.bands) }

// next is the next band for this rank, −1 when none is left.
func (d *bandDealer) next() (int, error) {
	if d.ranks == nil || d.rank == 0 {
		return d.take(d.rank), nil
	}
	if err := d.ranks.Send(0, tagBandAsk, binary.LittleEndian.AppendUint64(nil, 1)); err != nil {
		return 0, err
	}
	give := make([]byte, 8)
	if err := d.ranks.Recv(0, tagBandGive, give); err != nil {
		return 0, err
	}
	return int(int64(binary.LittleEndian.Uint64(give))), nil
}

// done says this rank asks for no more (whether or not bands are left, so
// that a rank that failed lets rank 0 finish), and on rank 0 waits until
// every rank has said so.
func (d *bandDealer) done() error {
	if d.ranks == nil {
		return nil
	}
	if d.rank != 0 {
		return d.ranks.Send(0, tagBandAsk, binary.LittleEndian.AppendUint64(nil, ^uint64(0)))
	}
	d.serve.Wait()
	return nil
}

// sendLines sends rank 0 the size of the lines at [off, off+size) of f,
// then the lines, in chunks of up to rankChunk bytes that end at a line's
// end. It sends the whole size it announced whatever happens, so that
// rank 0 is never left waiting; a read that fails sends the rest as blank
// lines and is returned.
func sendLines(c mpi.Comm, f *os.File, off, size int64) error {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(size))
	c.Send(n[:], 0)
	buf := make([]byte, rankChunk)
	var rerr error
	for sent := int64(0); sent < size; {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), size-sent)], off+sent)
		if k == 0 && err != nil {
			rerr = fmt.Errorf("reading its lines back: %w", err)
			for i := range buf {
				buf[i] = '\n'
			}
			k = int(min(int64(len(buf)), size-sent))
		} else if end := bytes.LastIndexByte(buf[:k], '\n'); end >= 0 && sent+int64(k) < size {
			k = end + 1 // whole lines in each chunk
		}
		c.Send(buf[:k], 0)
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
