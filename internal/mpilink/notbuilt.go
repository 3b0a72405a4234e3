//go:build !mpi

// Package mpilink carries one distance's messages between the ranks of an
// MPI job; it is built with -tags mpi and cgo (Open MPI), and has nothing
// in other builds.
package mpilink
