//go:build mpi

package main

import (
	"errors"
	"fmt"
	"runtime"

	mpi "github.com/sbromberger/gompi"
)

// openComm returns the ranks of the MPI job that started this process, or
// the single process when no launcher did (a plain "levlab match" of an
// MPI build needs no mpirun).
//
// MPI is initialised without thread support (MPI_THREAD_SINGLE), so every
// MPI call must come from one OS thread: the calling goroutine is locked
// to its thread until done, which finalises MPI.
func openComm() (comm, func(), error) {
	if launchedRanks() == 0 {
		return single{}, func() {}, nil
	}
	runtime.LockOSThread()
	mpi.Start(false)
	w := mpi.NewCommunicator(nil)
	return &mpiComm{w: w, r: w.Rank(), n: w.Size()}, func() {
		mpi.Stop()
		runtime.UnlockOSThread()
	}, nil
}

// mpiComm is the world communicator of an MPI job.
type mpiComm struct {
	w    *mpi.Communicator
	r, n int
}

// tagText is the tag of the messages carrying a rank's part of the text.
const tagText = 1

func (c *mpiComm) rank() int { return c.r }
func (c *mpiComm) size() int { return c.n }

func (c *mpiComm) agree(err error) error {
	// Every rank learns every rank's exit status.
	codes, all := make([]int64, c.n), make([]int64, c.n)
	codes[c.r] = int64(exitCode(err))
	if aerr := c.w.AllreduceInt64s(all, codes, mpi.OpSum, 0); aerr != nil {
		return errors.Join(err, aerr)
	}
	worst := int64(exitOK)
	for _, code := range all {
		worst = max(worst, code)
	}
	switch {
	case worst == exitOK:
		return nil
	case all[0] != exitOK:
		if c.r == 0 {
			return err
		}
		return exitStatus(all[0]) // rank 0 says why
	case err != nil:
		return fmt.Errorf("rank %d of %d: %w", c.r, c.n, err)
	}
	return exitStatus(worst) // the ranks that failed say why
}

func (c *mpiComm) bcast(n int64) int64 {
	x := []int64{n}
	c.w.BcastInt64s(x, 0)
	return x[0]
}

// send sends b to rank to; an empty b is not sent (recv of 0 bytes
// receives nothing). countPart keeps b within maxMessage.
func (c *mpiComm) send(b []byte, to int) error {
	if len(b) > maxMessage {
		return fmt.Errorf("rank %d's part is %d bytes; an MPI message holds at most %d", to, len(b), maxMessage)
	}
	if len(b) > 0 {
		c.w.SendBytes(b, to, tagText)
	}
	return nil
}

func (c *mpiComm) recv(n int) ([]byte, error) {
	if n > maxMessage {
		return nil, fmt.Errorf("this rank's part is %d bytes; an MPI message holds at most %d", n, maxMessage)
	}
	b := make([]byte, n)
	if n > 0 {
		c.w.RecvPreallocBytes(b, 0, tagText)
	}
	return b, nil
}

func (c *mpiComm) sum(counts []int64) ([]int64, error) {
	total := make([]int64, len(counts))
	if len(counts) == 0 {
		return total, nil
	}
	if err := c.w.ReduceInt64s(total, counts, mpi.OpSum, 0); err != nil {
		return nil, err
	}
	return total, nil
}
