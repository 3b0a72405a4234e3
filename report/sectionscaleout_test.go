package report

import (
	"strings"
	"testing"
)

// TestScaleOutText: what BenchmarkScaleOut measured is said with each run
// beside one process, and nothing without it.
func TestScaleOutText(t *testing.T) {
	if got := scaleOutText(nil, 0); got != "" {
		t.Errorf("no results: %q, want nothing", got)
	}
	med := map[string]map[string]float64{
		"ScaleOut/distance/n=1000000/run=one-process-2-workers":          {"ns/op": 3e9, "compute-s": 2.9, "MB": 18},
		"ScaleOut/distance/n=1000000/run=mpirun-2-ranks-1-worker":        {"ns/op": 3.6e9, "compute-s": 3.19, "MB": 26},
		"ScaleOut/matrix/strings=20000/max=50/run=3-shards-summed":       {"ns/op": 24e9, "one-process-s": 20},
		"ScaleOut/matrix/strings=2000/top=5/run=mpirun-2-ranks-1-worker": {"ns/op": 11e9, "one-process-s": 10},
		"ScaleOut/merge/lines=10001628":                                  {"ns/op": 0.15e9, "MB": 14},
		"ScaleOutHuge/distance/n=10000000/run=mpirun-2-ranks-1-worker":   {"ns/op": 300e9, "compute-s": 299, "MB": 60},
	}
	got := scaleOutText(med, 0)
	for _, want := range []string{"3.19 s of computing against 2.90 s", "(0.909× as fast)", "(0.833× as fast, mpirun's start included)", "took 300 s over 2 ranks as a whole command, 60.0 MiB", "summed against 20.0 s in one process (0.833× as fast)", "150 ms, 14.0 MiB", "took 11.0 s against 10.0 s in one process of 2 workers (0.909× as fast"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// The mpirun pair's ratios give their runs' range, as the other rows do.
func TestScaleOutRatiosOverRuns(t *testing.T) {
	one := map[string]float64{"ns/op": 3e9, "ns/op" + rangeMin: 2.9e9, "ns/op" + rangeMax: 3.1e9, "ns/op" + runsOf: 3, "compute-s": 2.9, "compute-s" + rangeMin: 2.8, "compute-s" + rangeMax: 3.0, "compute-s" + runsOf: 3}
	mpi := map[string]float64{"ns/op": 3.6e9, "ns/op" + rangeMin: 3.5e9, "ns/op" + rangeMax: 3.7e9, "compute-s": 3.19, "compute-s" + rangeMin: 3.1, "compute-s" + rangeMax: 3.3}
	med := map[string]map[string]float64{
		"ScaleOut/distance/n=1000000/run=one-process-2-workers":        one,
		"ScaleOut/distance/n=1000000/run=mpirun-2-ranks-1-worker":      mpi,
		"ScaleOutHuge/distance/n=10000000/run=mpirun-2-ranks-1-worker": {"ns/op": 128e9, "ns/op" + runsOf: 1},
	}
	got := scaleOutText(med, 0)
	if want := "took 128 s (one run) over 2 ranks"; !strings.Contains(got, want) {
		t.Errorf("missing %q in:\n%s", want, got)
	}
	// As fast as one process: 2.8/3.3 to 3.0/3.1 computing; 2.9/3.7 to
	// 3.1/3.5 whole.
	// Each time says how many runs it is the median of, where known.
	for _, want := range []string{"(0.909× as fast; 0.848–0.968× over the runs)", "(0.833× as fast; 0.784–0.886× over the runs, mpirun's start included)", "took 3.19 s of computing against 2.90 s (3 runs) in one process", "and 3.60 s against 3.00 s (3 runs) as whole commands"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	// The one process timed at 1.9 s in another run: 1.9/3.19 = 0.596×,
	// and the range takes it in.
	got = scaleOutText(med, 1.9)
	if want := "(0.909× as fast; 0.848–0.968× over the runs; 0.596× against its run as a user runs it (above), 1.90 s: 0.596–0.968× with the baseline's spread between runs)"; !strings.Contains(got, want) {
		t.Errorf("missing %q in:\n%s", want, got)
	}
}
