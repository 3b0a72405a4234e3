package report

import (
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// TestDefaultsMatchTheirPackages holds the defaults report names without
// linking the packages that own them equal to those packages' own.
func TestDefaultsMatchTheirPackages(t *testing.T) {
	if gpuDefaultBlock != cudaext.DefaultBlock {
		t.Errorf("gpuDefaultBlock = %d, cudaext.DefaultBlock = %d", gpuDefaultBlock, cudaext.DefaultBlock)
	}
	if defaultTile001 != lev.DefaultTile {
		t.Errorf("defaultTile001 = %d, lev.DefaultTile = %d", defaultTile001, lev.DefaultTile)
	}
}
