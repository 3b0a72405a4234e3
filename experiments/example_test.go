package experiments_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/spec"
)

// ExampleFromSpec times an experiment of one's own: levlab's myers beside
// a Go function that is wrong on strings of 100 symbols or more. Every
// answer is checked against the exact distance; the wrong one is recorded
// as a failed point, with why, never as a time. levlab run --spec FILE does
// the same from a TOML file (docs/your-own.md).
func ExampleFromSpec() {
	s := &spec.Spec{
		Name: "example-own", Title: "myers beside a Go function", Reps: 2,
		Inputs: spec.Inputs{Alphabet: "ACGT", N: []int{50, 200}},
		Impl:   []spec.Impl{{Name: "levlab", Algo: "myers"}},
	}
	if err := s.Validate(); err != nil {
		log.Fatal(err)
	}
	// Right below 100 symbols (lev.Distance), wrong above: it answers the
	// length, as if every symbol differed.
	capped := func(_ context.Context, a, b []byte, _, _ int) (int, error) {
		if len(a) < 100 {
			return lev.Distance(a, b)
		}
		return len(a), nil
	}
	own, err := experiments.FromSpec(s, map[string]experiments.Func{"capped": capped})
	if err != nil {
		log.Fatal(err)
	}
	defer own.Close()
	dir, err := os.MkdirTemp("", "levlab-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	r := experiments.Runner{Reps: s.RepsOr(), Dir: dir}
	sum, err := r.Run(context.Background(), []experiments.Experiment{own.Experiment})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("records:", sum.Records)
	for _, f := range sum.Failed {
		fmt.Println(f)
	}
	// Output:
	// records: 7
	// example-own capped w=1 random 200x200: failed: answered 200, want 110
}
