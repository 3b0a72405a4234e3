//go:build !mpi

package main

import (
	"fmt"
	"io"
)

// openComm returns the single process: this levlab was built without MPI.
// Started by mpirun with more than one process, each would count the whole
// text and print it; it refuses instead.
func openComm(io.Writer, string, bool) (comm, func(), error) {
	if n := launchedRanks(); n > 1 {
		return nil, nil, fmt.Errorf("started by mpirun as one of %d processes, but built without MPI: rebuild with go build -tags mpi ./cmd/levlab (README, MPI)", n)
	}
	return single{}, func() {}, nil
}
