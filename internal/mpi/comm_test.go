package mpi

import (
	"errors"
	"strings"
	"testing"
)

// TestOpenWithoutLauncher: started by no launcher, Open returns Single,
// in either build, whose Agree returns the error as it is.
func TestOpenWithoutLauncher(t *testing.T) {
	t.Setenv("OMPI_COMM_WORLD_SIZE", "")
	t.Setenv("PMI_SIZE", "")
	c, done, err := Open(Options{Cmd: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, ok := c.(Single); !ok || c.Rank() != 0 || c.Size() != 1 || c.Link(t.Context()) != nil {
		t.Errorf("Open without a launcher: %T, rank %d of %d", c, c.Rank(), c.Size())
	}
	want := errors.New("x")
	if got := c.Agree(want); got != want {
		t.Errorf("Single's Agree(x) = %v", got)
	}
	if err := SameInputs(c, "files", []byte("a"), []byte("b")); err != nil {
		t.Errorf("SameInputs on one process: %v", err)
	}
}

// TestLaunchedRanks reads the job's size from Open MPI's variable or a
// PMI launcher's.
func TestLaunchedRanks(t *testing.T) {
	for _, c := range []struct {
		ompi, pmi string
		want      int
	}{{"", "", 0}, {"3", "", 3}, {"", "4", 4}, {"x", "2", 2}, {"0", "", 0}} {
		t.Setenv("OMPI_COMM_WORLD_SIZE", c.ompi)
		t.Setenv("PMI_SIZE", c.pmi)
		if got := launchedRanks(); got != c.want {
			t.Errorf("OMPI_COMM_WORLD_SIZE=%q PMI_SIZE=%q: %d ranks, want %d", c.ompi, c.pmi, got, c.want)
		}
	}
}

// TestSameInputsDiffer: a rank whose inputs are not rank 0's is told so.
func TestSameInputsDiffer(t *testing.T) {
	err := SameInputs(otherRank{}, "files", []byte("a"))
	if err == nil || !strings.Contains(err.Error(), "the input files differ from rank 0's") {
		t.Errorf("SameInputs against another rank 0: %v", err)
	}
}

// otherRank is rank 1 of 2, whose rank 0 broadcasts another hash.
type otherRank struct{ Single }

func (otherRank) Rank() int                { return 1 }
func (otherRank) Size() int                { return 2 }
func (otherRank) BcastBytes([]byte) []byte { return make([]byte, 32) }
