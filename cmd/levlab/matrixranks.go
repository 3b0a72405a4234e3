package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/levlab/levlab/internal/matrixshard"
	"github.com/levlab/levlab/internal/mpi"
)

// rankBands is how many bands of rows each rank of an MPI job has to
// take, on average: the more, the less a rank that drew long strings, or a
// slower machine, leaves the others waiting at the end.
const rankBands = 8

// overRanks runs the job over the ranks of an MPI job (levlab-mpi under
// mpirun): every rank has read the same files (checked: their SHA-256
// against rank 0's), then takes bands of FILE_A's strings — runs of rows
// of about equal cells, rankBands a rank — one at a time from rank 0
// (matrixshard.Dealer), computing each into a file of its own, until none
// is left; rank 0 then prints every band in order, its own from its file
// and the others' as their ranks send them: exactly what one process
// prints. A failure or Ctrl-C on any rank ends every rank before a line
// is printed, with the message said once.
func (m *matrixJob) overRanks(ctx context.Context, c mpi.Comm, stdout io.Writer) error {
	if err := c.Agree(mpi.SameInputs(c, "files", m.files...)); err != nil {
		return err
	}

	bands := max(1, min(len(m.a), rankBands*c.Size()))
	mx := m.matrix()
	deal := matrixshard.NewDealer(ctx, c, bands)
	var mine []bandLines // the bands this rank computed, in order
	tmp, err := os.CreateTemp("", "levlab-matrix-rank-*")
	if err == nil {
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		out := m.writer(tmp)
		var at int64
		for err == nil {
			k, derr := deal.Next()
			if err = derr; err != nil || k < 0 {
				break
			}
			from, to := mx.Rows(matrixshard.Shard{Index: k, Count: bands})
			err = mx.Run(ctx, from, to, out.line)
			if ferr := out.flush(); err == nil {
				err = ferr
			}
			if err != nil {
				err = fmt.Errorf("strings %d to %d: %w", from+1, to, err)
				deal.Stop() // the job fails: no more bands for anyone
				break
			}
			end, serr := tmp.Seek(0, io.SeekCurrent)
			mine, at, err = append(mine, bandLines{k, at, end - at}), end, serr
		}
	}
	if derr := deal.Done(); err == nil {
		err = derr
	}
	if errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%w: no line was printed", errInterrupted)
	}
	if err := c.Agree(err); err != nil {
		return err
	}

	// Rank 0 prints the bands in order; each other rank sends its own, in
	// order (matrixshard.SendLines: its size, then its lines in chunks
	// that end at a line's end).
	if c.Rank() != 0 {
		for _, b := range mine {
			if serr := matrixshard.SendLines(c, tmp, b.off, b.size); err == nil {
				err = serr
			}
		}
		return c.Agree(err)
	}
	out := m.writer(stdout)
	for _, owner := range deal.Owners() {
		if owner == 0 {
			b := mine[0]
			mine = mine[1:]
			if err == nil {
				_, err = io.Copy(lineSink{&out.lineWriter}, io.NewSectionReader(tmp, b.off, b.size))
			}
			continue
		}
		var sink io.Writer = lineSink{&out.lineWriter}
		if err != nil {
			sink = io.Discard // the lines are taken all the same
		}
		if rerr := matrixshard.RecvLines(c, owner, sink); err == nil {
			err = rerr
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
