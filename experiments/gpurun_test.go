package experiments

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/lev"
)

// The prepared GPU run (scripts/gpu-run.sh) times every experiment that
// has a GPU point, at the paper's scale, and no other: its list is held
// to the catalog, so that a GPU experiment added later is not left out of
// the one run a lent GPU gets.
func TestGPURunNamesEveryGPUExperiment(t *testing.T) {
	script, err := os.ReadFile("../scripts/gpu-run.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^GPU_EXPERIMENTS=([a-z0-9,-]+)$`).FindSubmatch(script)
	if m == nil {
		t.Fatal("scripts/gpu-run.sh sets no GPU_EXPERIMENTS=name,… line")
	}
	got := strings.Split(string(m[1]), ",")
	var want []string
	for _, e := range All() {
		if slices.ContainsFunc(e.Points(Paper), onGPU) {
			want = append(want, e.Name)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("scripts/gpu-run.sh's GPU_EXPERIMENTS = %v; the catalog's experiments with a GPU point are %v", got, want)
	}
}

// onGPU reports whether point p runs on the GPU: a lev algorithm that
// does, or pattern matching with a share of the text sent to CUDA.
func onGPU(p Point) bool {
	if p.GPURatio > 0 {
		return true
	}
	alg, err := lev.ParseAlgorithm(p.Algorithm)
	return err == nil && alg.GPU()
}
