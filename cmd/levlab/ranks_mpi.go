//go:build mpi

package main

import (
	"context"

	"github.com/levlab/levlab/internal/mpilink"
	"github.com/levlab/levlab/lev"
)

// link is the MPI job's world as lev.Ranks (internal/mpilink: polled
// non-blocking messages; openComm's threaded gives it
// MPI_THREAD_MULTIPLE).
func (c *mpiComm) link(ctx context.Context) lev.Ranks { return mpilink.New(ctx, c.r, c.n) }
