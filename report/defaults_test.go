package report

import (
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/report/internal/runs"
)

// TestDefaultsMatchTheirPackages holds the defaults report names without
// linking the packages that own them equal to those packages' own.
func TestDefaultsMatchTheirPackages(t *testing.T) {
	if runs.GPUDefaultBlock != cudaext.DefaultBlock {
		t.Errorf("runs.GPUDefaultBlock = %d, cudaext.DefaultBlock = %d", runs.GPUDefaultBlock, cudaext.DefaultBlock)
	}
	if defaultTile001 != lev.DefaultTile {
		t.Errorf("defaultTile001 = %d, lev.DefaultTile = %d", defaultTile001, lev.DefaultTile)
	}
	if partialPercent != experiments.PartialPercent {
		t.Errorf("partialPercent = %d, experiments.PartialPercent = %d", partialPercent, experiments.PartialPercent)
	}
}
