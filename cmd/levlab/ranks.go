package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"github.com/levlab/levlab/internal/mpi"
)

// overRanks runs command cmd in this process, one rank of an MPI job or
// the only one (mpi.Open; threaded as there): every rank parses the same
// arguments with parse, told how many ranks there are, and agrees on the
// outcome, then run runs the job. Only rank 0 writes stdout, -h as
// everything else, and Ctrl-C or SIGTERM cancel ctx. An error the ranks
// agreed on is said once, as levlab says errors (reportError), and
// returned as an exitStatus.
func overRanks[J any](cmd string, threaded bool, args []string, stdout, stderr io.Writer,
	parse func(ctx context.Context, args []string, stdout io.Writer, ranks int) (J, error),
	run func(ctx context.Context, c mpi.Comm, job J, stdout io.Writer) error) error {
	c, done, err := mpi.Open(mpi.Options{
		Cmd: cmd, Stderr: stderr, Threaded: threaded, Status: exitCode,
		Report: func(err error) int { return reportError(stderr, cmd, err) },
		Said:   func(status int) error { return exitStatus(status) },
	})
	if err != nil {
		return err
	}
	defer done()
	if c.Rank() != 0 {
		stdout = io.Discard
	}
	ctx, stop := laterInterruptContext()
	defer stop()
	job, err := parse(ctx, args, stdout, c.Size())
	if errors.Is(err, flag.ErrHelp) {
		return err // every rank parsed the same arguments
	}
	if err := c.Agree(err); err != nil {
		return err
	}
	if q, ok := any(job).(interface{ quick() bool }); !ok || !q.quick() || c.Size() > 1 {
		watchInterrupts(ctx)
	}
	return run(ctx, c, job, stdout)
}
