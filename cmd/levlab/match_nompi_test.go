//go:build !mpi

package main

import "testing"

// TestMatchRefusesMPIWithoutIt pretends to be one of two ranks started by
// mpirun: a levlab built without MPI must refuse rather than have every
// process count the whole text and print it.
func TestMatchRefusesMPIWithoutIt(t *testing.T) {
	t.Setenv("OMPI_COMM_WORLD_SIZE", "2")
	text := writeFile(t, "text", matchText)
	checkFailure(t, []string{"match", "-p", "ACGT", text}, exitFailure, "mpirun", "2 processes", "built without MPI", "-tags mpi")
	t.Setenv("OMPI_COMM_WORLD_SIZE", "1") // one process: nothing to split
	if stdout, stderr, code := levlab(t, "match", "-p", "ACGT", text); stdout != "4\tACGT\n" || code != exitOK {
		t.Errorf("under mpirun -np 1: %q, %q, exit status %d", stdout, stderr, code)
	}
}
