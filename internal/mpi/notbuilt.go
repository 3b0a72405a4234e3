//go:build !mpi

package mpi

import "fmt"

// Open returns Single: this levlab was built without MPI. Started by
// mpirun with more than one process, each would run the whole job and
// print it; it refuses instead.
func Open(Options) (Comm, func(), error) {
	if n := launchedRanks(); n > 1 {
		return nil, nil, fmt.Errorf("started by mpirun as one of %d processes, but built without MPI: rebuild with go build -tags mpi ./cmd/levlab (README, MPI)", n)
	}
	return Single{}, func() {}, nil
}
