package lev_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// oneRank is a job of one process: WithRanks accepts it, and a distance
// over it sends nothing.
type oneRank struct{}

func (oneRank) Rank() int                        { return 0 }
func (oneRank) Size() int                        { return 1 }
func (oneRank) Send(to, tag int, b []byte) error { return errors.New("oneRank: nothing to send to") }
func (oneRank) Recv(from, tag int, b []byte) error {
	return errors.New("oneRank: nothing to receive from")
}

// noRanks is a job of no process: WithRanks refuses it.
type noRanks struct{ oneRank }

func (noRanks) Size() int { return 0 }

// checkCase is an option set and whether Check must refuse it as invalid;
// a valid one may still fail where a GPU algorithm finds no GPU.
type checkCase struct {
	what string
	opts []lev.Option
	bad  bool
}

// checkCases are option sets every algorithm is checked with: each bad
// option alone, the options that do not go together, and good ones.
func checkCases() []checkCase {
	var nilCtx context.Context
	done, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []checkCase{
		{"no option", nil, false},
		{"a nil option", []lev.Option{nil}, false},
		{"WithWorkers(-1)", []lev.Option{lev.WithWorkers(-1)}, true},
		{"WithWorkers(4097)", []lev.Option{lev.WithWorkers(lev.MaxWorkers + 1)}, true},
		{"WithTile(0)", []lev.Option{lev.WithTile(0)}, true},
		{"WithTile(1)", []lev.Option{lev.WithTile(1)}, false},
		{"WithBlockSize(0)", []lev.Option{lev.WithBlockSize(0)}, true},
		{"WithBlockSize(2048)", []lev.Option{lev.WithBlockSize(2048)}, true},
		{"WithBlockSize(64)", []lev.Option{lev.WithBlockSize(64)}, false},
		{"WithMatrixLimit(0)", []lev.Option{lev.WithMatrixLimit(0)}, true},
		{"WithContext(nil)", []lev.Option{lev.WithContext(nilCtx)}, true},
		{"WithStats(nil)", []lev.Option{lev.WithStats(nil)}, true},
		{"WithStats", []lev.Option{lev.WithStats(&lev.Stats{})}, false},
		{"WithMax(-1)", []lev.Option{lev.WithMax(-1)}, true},
		{"WithMax(1)", []lev.Option{lev.WithMax(1)}, false},
		{"WithTop(0)", []lev.Option{lev.WithTop(0)}, true},
		{"WithTop(1)", []lev.Option{lev.WithTop(1)}, true}, // for Cross and All, not Distance
		{"WithRanks(nil)", []lev.Option{lev.WithRanks(nil)}, true},
		{"WithRanks(size 0)", []lev.Option{lev.WithRanks(noRanks{})}, true},
		{"WithoutBand", []lev.Option{lev.WithoutBand()}, false},
		{"a bad option after a good one", []lev.Option{lev.WithWorkers(1), lev.WithTile(-2)}, true},
		{"WithAlgorithm(99)", []lev.Option{lev.WithAlgorithm(lev.Algorithm(99))}, true},
	}
	// A context already done is no bad option, but Distance stops at it.
	cases = append(cases, checkCase{"a context done", []lev.Option{lev.WithContext(done)}, false})
	return cases
}

// TestCheck: for every algorithm and option set, Check returns the error
// Distance and DistanceString return, on empty inputs and on others, word
// for word; nil for the option sets they compute with.
func TestCheck(t *testing.T) {
	gpu := cudaext.Available() == nil
	for _, alg := range lev.Algorithms() {
		cases := checkCases()
		cases = append(cases,
			checkCase{"WithWorkers(2)", []lev.Option{lev.WithWorkers(2)}, !alg.Parallel()},
			checkCase{"WithRanks(one rank)", []lev.Option{lev.WithRanks(oneRank{})}, !alg.SpansRanks()},
			checkCase{"WithBlockSize(48)", []lev.Option{lev.WithBlockSize(48)}, alg == lev.CUDAFast},
			checkCase{"WithTile(MaxChunk+1)", []lev.Option{lev.WithTile(cudaext.MaxChunk + 1)}, alg == lev.CUDAFast},
		)
		for _, tc := range cases {
			what := fmt.Sprintf("%s, %s", alg, tc.what)
			opts := append([]lev.Option{lev.WithAlgorithm(alg)}, tc.opts...)
			err := lev.Check(opts...)
			switch {
			case tc.bad && !errors.Is(err, lev.ErrInvalidOption):
				t.Errorf("%s: Check = %v, want an error wrapping ErrInvalidOption", what, err)
			case !tc.bad && errors.Is(err, lev.ErrInvalidOption):
				t.Errorf("%s: Check = %v, want no option error", what, err)
			case !tc.bad && err != nil && !(alg.GPU() && !gpu) && tc.what != "a context done":
				t.Errorf("%s: Check = %v, want nil", what, err)
			}
			for _, in := range [][2]string{{"", ""}, {"kitten", "sitting"}} {
				_, derr := lev.Distance([]byte(in[0]), []byte(in[1]), opts...)
				if errText(derr) != errText(err) {
					t.Errorf("%s: Distance(%q, %q) = %v, Check = %v", what, in[0], in[1], derr, err)
				}
				_, serr := lev.DistanceString(in[0], in[1], opts...)
				if errText(serr) != errText(err) {
					t.Errorf("%s: DistanceString(%q, %q) = %v, Check = %v", what, in[0], in[1], serr, err)
				}
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestCapabilities: what the table says the algorithms the command line,
// the records and the reports rely on can do, so that none changes
// unnoticed. An algorithm added later need not be named here: the
// conformance suite reads its capabilities from the same table and holds
// it to them (a sequential one must refuse more workers, one without tiles
// ignore them, a GPU one take block sizes).
func TestCapabilities(t *testing.T) {
	want := map[lev.Algorithm][4]bool{ // parallel, GPU, tile, ranks
		lev.Auto:          {true, false, true, true},
		lev.FullMatrix:    {false, false, false, false},
		lev.TwoRow:        {false, false, false, false},
		lev.Diagonal:      {true, false, false, false},
		lev.Tiled:         {true, false, true, false},
		lev.TiledBarrier:  {true, false, true, false},
		lev.Myers:         {false, false, false, true},
		lev.MyersParallel: {true, false, true, true},
		lev.CUDADiagonal:  {true, true, false, false},
		lev.CUDAMatrix:    {true, true, false, false},
		lev.CUDAFast:      {true, true, true, false},
	}
	for _, alg := range lev.Algorithms() {
		w, ok := want[alg]
		if !ok {
			continue
		}
		got := [4]bool{alg.Parallel(), alg.GPU(), alg.TakesTile(), alg.SpansRanks()}
		if got != w {
			t.Errorf("%s: parallel, GPU, tile, ranks = %v, want %v", alg, got, w)
		}
	}
	if bad := lev.Algorithm(99); bad.Parallel() || bad.GPU() || bad.TakesTile() || bad.SpansRanks() {
		t.Errorf("Algorithm(99) claims a capability")
	}
}

// Every algorithm says in one line what it does (the CLI lists them), and
// an unknown one says nothing.
func TestSummaries(t *testing.T) {
	for _, a := range lev.Algorithms() {
		if s := a.Summary(); s == "" || strings.Contains(s, "\n") {
			t.Errorf("%s: summary %q; want one line", a, s)
		}
	}
	if s := lev.Algorithm(99).Summary(); s != "" {
		t.Errorf("Algorithm(99).Summary() = %q, want none", s)
	}
}
