//go:build mpi

package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	mpi "github.com/sbromberger/gompi"
)

// openComm returns the ranks of the MPI job that started this process, or
// the single process when no launcher did (a plain "levlab match" of an
// MPI build needs no mpirun).
//
// MPI is initialised without thread support (MPI_THREAD_SINGLE), so every
// MPI call must come from one OS thread: the calling goroutine is locked
// to its thread until done, which finalises MPI.
func openComm(stderr io.Writer) (comm, func(), error) {
	if launchedRanks() == 0 {
		return single{}, func() {}, nil
	}
	runtime.LockOSThread()
	mpi.Start(false)
	w := mpi.NewCommunicator(nil)
	return &mpiComm{w: w, r: w.Rank(), n: w.Size(), stderr: stderr}, func() {
		mpi.Stop()
		runtime.UnlockOSThread()
	}, nil
}

// mpiComm is the world communicator of an MPI job.
type mpiComm struct {
	w      *mpi.Communicator
	r, n   int
	stderr io.Writer
}

func (c *mpiComm) rank() int { return c.r }
func (c *mpiComm) size() int { return c.n }

func (c *mpiComm) agree(err error) error {
	// Every rank learns every rank's exit status.
	codes, all := make([]int64, c.n), make([]int64, c.n)
	codes[c.r] = int64(exitCode(err))
	if aerr := c.w.AllreduceInt64s(all, codes, mpi.OpSum, 0); aerr != nil {
		return errors.Join(err, aerr)
	}
	worst := slices.Max(all)
	if worst == exitOK {
		return nil
	}
	// Rank 0 speaks for the job where it failed, else each rank that did.
	// The speakers print before any rank exits (the barrier): mpirun ends
	// the whole job as soon as one process exits with a failure, which
	// could otherwise cut a message off. The others exit with 0, so that
	// mpirun's status is a speaker's.
	speaks := (all[0] != exitOK && c.r == 0) || (all[0] == exitOK && err != nil)
	code := exitOK
	if speaks {
		if c.r != 0 {
			err = fmt.Errorf("rank %d of %d: %w", c.r, c.n, err)
		}
		code = reportError(c.stderr, "match", err)
	}
	c.w.Barrier()
	return exitStatus(code)
}

func (c *mpiComm) bcast(n int64) int64 {
	x := []int64{n}
	c.w.BcastInt64s(x, 0)
	return x[0]
}

func (c *mpiComm) barrier() { c.w.Barrier() }

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
