package matrixshard

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/levlab/levlab/internal/mpi"
	"github.com/levlab/levlab/lev"
)

// The tags of the dealer's messages (lev.Ranks'), beside lev's own.
const (
	tagBandAsk  = 4201 // a rank's ask for a band (1), or its word that it is done (−1)
	tagBandGive = 4202 // rank 0's answer: a band, or −1 for none left
)

// A Dealer hands out the bands of a matrix over MPI ranks, one at a time,
// in order, to whichever rank asks first: rank 0 keeps the count and
// answers each other rank from a goroutine of its own (Comm.Link's
// messages, polled, which need MPI_THREAD_MULTIPLE); one process takes
// them all.
type Dealer struct {
	ranks  lev.Ranks // nil for one process
	rank   int
	bands  int64
	nextK  atomic.Int64
	owners []int // rank 0: the rank each band went to, known once Done returned
	serve  sync.WaitGroup
}

// NewDealer returns the dealer of bands bands over the ranks of c, every
// rank's; its messages give up once ctx is done.
func NewDealer(ctx context.Context, c mpi.Comm, bands int) *Dealer {
	d := &Dealer{rank: c.Rank(), bands: int64(bands), owners: make([]int, bands)}
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
func (d *Dealer) take(r int) int {
	k := d.nextK.Add(1) - 1
	if k >= d.bands {
		return -1
	}
	d.owners[k] = r
	return int(k)
}

// Stop leaves no band to take, where this process deals them.
func (d *Dealer) Stop() { d.nextK.Store(d.bands) }

// Next is the next band for this rank, −1 when none is left.
func (d *Dealer) Next() (int, error) {
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

// Done says this rank asks for no more (whether or not bands are left, so
// that a rank that failed lets rank 0 finish), and on rank 0 waits until
// every rank has said so.
func (d *Dealer) Done() error {
	if d.ranks == nil {
		return nil
	}
	if d.rank != 0 {
		return d.ranks.Send(0, tagBandAsk, binary.LittleEndian.AppendUint64(nil, ^uint64(0)))
	}
	d.serve.Wait()
	return nil
}

// Owners is, on rank 0 once Done returned, the rank each band went to.
func (d *Dealer) Owners() []int { return d.owners }

// lineChunk is the most bytes of lines SendLines sends at once.
const lineChunk = 1 << 20

// SendLines sends rank 0 (RecvLines) the size of the lines at [off,
// off+size) of f, then the lines, in chunks of up to a MiB that end at a
// line's end. It sends the whole size it announced whatever happens, so
// that rank 0 is never left waiting; a read that fails sends the rest as
// blank lines and is returned.
func SendLines(c mpi.Comm, f *os.File, off, size int64) error {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(size))
	c.Send(n[:], 0)
	buf := make([]byte, lineChunk)
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

// RecvLines receives the lines rank from sends with SendLines and writes
// them to w, a chunk at a time. It takes every chunk announced, also
// after a write failed, and returns the first error.
func RecvLines(c mpi.Comm, from int, w io.Writer) error {
	size := int64(binary.LittleEndian.Uint64(c.Recv(from)))
	var err error
	for got := int64(0); got < size; {
		chunk := c.Recv(from)
		got += int64(len(chunk))
		if err == nil {
			_, err = w.Write(chunk)
		}
	}
	return err
}
