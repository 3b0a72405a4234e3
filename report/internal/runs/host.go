package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/levlab/levlab/records"
)

// HostFile is records.HostFile: what levlab info --json said of the
// machine as its results were measured, what the records do not carry.
const HostFile = records.HostFile

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
	// Own: read from the run's own folder (levlab run --out), not its
	// machine folder.
	Own bool `json:"-"`
}

// readHost reads the HostFile of run ix: the one in the run's own folder
// (levlab run --out DIR keeps it beside the records), else the one in its
// machine folder, the folder above. nil, nil where there is none; an error
// where it cannot be read, is not levlab info's JSON, or, in a machine
// folder, describes another machine than the folder names.
func (ix *Index) readHost() (*Host, error) {
	own := AbsPath(ix.Run.Dir)
	if h, err := readHostFile(filepath.Join(own, HostFile)); h != nil || err != nil {
		if h != nil {
			h.Own = true
		}
		return h, err
	}
	folder := filepath.Dir(own)
	path := filepath.Join(folder, HostFile)
	h, err := readHostFile(path)
	if h != nil {
		if name := filepath.Base(folder); h.Machine != name {
			return nil, fmt.Errorf("%s: describes machine %q, not %q, the folder it is in; left out", filepath.ToSlash(path), h.Machine, name)
		}
	}
	return h, err
}

// readHostFile reads one HostFile: nil, nil where there is none.
func readHostFile(path string) (*Host, error) {
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
	return &h, nil
}
