package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HostFile is the name, in a machine's folder of the results tree, of
// what levlab info --json said of the machine as its results were
// measured (scripts/paper-results.sh and scripts/bench-results.sh write
// it): what the records do not carry.
const HostFile = "machine.json"

// Host is what a run's HostFile says, in levlab info --json's names.
type Host struct {
	Machine        string   `json:"machine"`
	MemoryBytes    int64    `json:"memory_bytes"`
	CPUMHz         float64  `json:"cpu_mhz"`
	ThreadsPerCore int      `json:"threads_per_core"`
	Virtual        *bool    `json:"virtual"` // nil where levlab info did not say (before it did)
	ISA            []string `json:"isa"`
	OSRelease      string   `json:"os_release"`
	Kernel         string   `json:"kernel"`
	GPUDriver      string   `json:"gpu_driver"`
	Commit         string   `json:"commit"`
}

// readHost reads the HostFile of run ix's machine folder, the folder
// above its records: nil, nil where there is none; an error where it
// cannot be read, is not levlab info's JSON, or describes another machine.
func (ix *Index) readHost() (*Host, error) {
	folder := filepath.Dir(AbsPath(ix.Run.Dir))
	path := filepath.Join(folder, HostFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var h Host
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("%s: not levlab info --json: %v", filepath.ToSlash(path), err)
	}
	if name := filepath.Base(folder); h.Machine != name {
		return nil, fmt.Errorf("%s: describes machine %q, not %q, the folder it is in; left out", filepath.ToSlash(path), h.Machine, name)
	}
	return &h, nil
}
