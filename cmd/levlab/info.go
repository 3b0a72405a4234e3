package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/records"
)

func infoUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab info [--json]

Describes the machine and the build: CPU model, logical cores, GOMAXPROCS,
memory, the clock and threads a core the system reports and whether it
is a virtual machine (a hypervisor in the CPU flags), the vector
extensions Go found, Go version, OS, its kernel release and architecture,
the vector kernel the bit-parallel algorithms run (avx512, avx2, or go
where the CPU has neither), levlab's
version and commit (where the build recorded them), whether a CUDA GPU
is usable (device found and the kernels compiled and loaded), or why
not, the NVRTC version, and the machine's folder name under results/
(its runs and benchmarks): the CPU's model and cores, and its GPU, unless
LEVLAB_MACHINE names another (run and reproduce take --name for it), as
two VMs of one CPU model need. scripts/paper-results.sh and
scripts/bench-results.sh keep its --json beside their results, as
results/<machine>/machine.json, for the report's method section.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status: 0 (a missing GPU is reported, not a failure), 2 for bad usage.
`)
}

// machineInfo is what info reports; the JSON names are stable.
type machineInfo struct {
	Machine      string   `json:"machine"` // the folder of its results: results/<machine>/
	CPUModel     string   `json:"cpu_model"`
	LogicalCores int      `json:"logical_cores"`
	GOMAXPROCS   int      `json:"gomaxprocs"`
	MemoryBytes  int64    `json:"memory_bytes"`     // /proc/meminfo MemTotal; 0 where unknown
	CPUMHz       float64  `json:"cpu_mhz"`          // /proc/cpuinfo "cpu MHz"; 0 where unknown
	ThreadsCore  int      `json:"threads_per_core"` // 2 with SMT, 1 without; 0 where unknown
	Virtual      bool     `json:"virtual"`          // /proc/cpuinfo's flags name a hypervisor: a VM, its cores virtual CPUs
	ISA          []string `json:"isa"`              // the extensions Go found, of those levlab's kernels can use
	OSRelease    string   `json:"os_release"`       // the kernel's release; "" where unknown
	GoVersion    string   `json:"go_version"`
	OS           string   `json:"os"`
	Arch         string   `json:"arch"`
	Kernel       string   `json:"kernel"`   // lev.Kernel(): avx512, avx2 or go
	Version      string   `json:"version"`  // the main module's version, "(devel)" in a checkout
	Commit       string   `json:"commit"`   // vcs.revision, "" when the build did not record it
	Modified     bool     `json:"modified"` // vcs.modified: built from a tree with uncommitted changes
	GPUAvailable bool     `json:"gpu_available"`
	GPU          string   `json:"gpu"`        // "available: " and the device, or why not
	GPUDriver    string   `json:"gpu_driver"` // the CUDA driver API's version, "" without a GPU
	NVRTC        string   `json:"nvrtc"`      // the version the kernels are compiled with, or why none
}

func runInfo(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("info", stdout, infoUsage)
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErrorf("takes no arguments, got %s", quoteAll(pos))
	}
	id, err := experiments.MachineID()
	if err != nil {
		return usageErrorf("%v", err)
	}
	info := collectInfo()
	info.Machine = id
	if *asJSON {
		out, err := json.Marshal(info)
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(out, '\n'))
		return err
	}
	build := info.Version
	if info.Commit != "" {
		build += " commit " + info.Commit
		if info.Modified {
			build += " (modified)"
		}
	}
	gpu := info.GPU
	if info.GPUDriver != "" {
		gpu += ", driver " + info.GPUDriver
	}
	_, err = fmt.Fprintf(stdout, `cpu:        %s
cores:      %d logical, %s
clock:      %s
memory:     %s
isa:        %s
gomaxprocs: %d
go:         %s
os/arch:    %s/%s
os release: %s
kernel:     %s
levlab:     %s
gpu:        %s
nvrtc:      %s
results:    results/%s
`, info.CPUModel, info.LogicalCores, threadsText(info.ThreadsCore)+virtualText(info.Virtual), orUnknown(mhzText(info.CPUMHz)), orUnknown(memoryText(info.MemoryBytes)),
		orUnknown(strings.Join(info.ISA, " ")), info.GOMAXPROCS, info.GoVersion, info.OS, info.Arch, orUnknown(info.OSRelease),
		info.Kernel, build, gpu, info.NVRTC, info.Machine)
	return err
}

// threadsText says how many threads a core runs, as info prints it.
func threadsText(n int) string {
	switch n {
	case 0:
		return "threads a core unknown"
	case 1:
		return "1 thread a core (no SMT)"
	}
	return fmt.Sprintf("%d threads a core (SMT)", n)
}

// virtualText is what info's cores line adds on a virtual machine.
func virtualText(virtual bool) string {
	if virtual {
		return ", virtual CPUs (the CPU flags name a hypervisor)"
	}
	return ""
}

// mhzText is a clock in MHz as the system reports it, "" where unknown.
func mhzText(mhz float64) string {
	if mhz <= 0 {
		return ""
	}
	return fmt.Sprintf("%.0f MHz, as /proc/cpuinfo reports it", mhz)
}

// memoryText is a size in GiB, "" where unknown.
func memoryText(b int64) string {
	if b <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func collectInfo() machineInfo {
	m := experiments.CurrentMachine() // what the records say of this machine
	info := machineInfo{
		Machine:      m.Slug(),
		CPUModel:     m.CPU,
		LogicalCores: m.Cores,
		GOMAXPROCS:   runtime.GOMAXPROCS(0),
		GoVersion:    runtime.Version(),
		OS:           runtime.GOOS,
		Arch:         runtime.GOARCH,
		Kernel:       lev.Kernel(),
		Version:      "unknown",
	}
	h := experiments.CurrentHost()
	info.MemoryBytes, info.CPUMHz, info.ThreadsCore, info.Virtual, info.ISA, info.OSRelease = h.MemoryBytes, h.CPUMHz, h.ThreadsPerCore, h.Virtual, h.ISA, h.OSRelease
	if info.ISA == nil {
		info.ISA = []string{}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			info.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	if info.Commit == "" {
		// A build without VCS stamps (-buildvcs=false, or one made by
		// scripts/paper-results.sh): the commit the records carry.
		if c := m.Commit; c != "unknown" && c != "" {
			info.Commit, info.Modified = strings.CutSuffix(c, "-dirty")
		}
	}
	info.GPUAvailable, info.GPU = m.GPUUsable(), m.GPUStatus()
	if m.GPU != "none" {
		if d, err := cudaext.Device(); err == nil && d.Driver > 0 {
			info.GPUDriver = fmt.Sprintf("%d.%d", d.Driver/1000, d.Driver%1000/10)
		}
	}
	if major, minor, err := cudaext.NVRTCVersion(); err != nil {
		info.NVRTC = err.Error()
	} else {
		info.NVRTC = fmt.Sprintf("%d.%d", major, minor)
	}
	return info
}

// keepHostInfo keeps what levlab info --json says of this machine where
// the report's method section looks for it (records.HostFile), once a run
// has written records to dir: in dir itself where the run went to a
// folder of its own (own: --out), replacing what an earlier run there
// left; else in the machine's folder above dir, where none is yet (the
// results scripts keep theirs). A failure is said on stderr: the records
// stand without it.
func keepHostInfo(dir string, own bool, stderr io.Writer) {
	path, machine := filepath.Join(dir, records.HostFile), ""
	if own {
		if id, err := experiments.MachineID(); err == nil {
			machine = id
		}
	} else {
		folder := filepath.Dir(dir)
		path, machine = filepath.Join(folder, records.HostFile), filepath.Base(folder) // the name the report checks it by
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			return // before collecting: that probes the GPU
		}
	}
	info := collectInfo()
	if machine != "" {
		info.Machine = machine
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		out, err := json.Marshal(info)
		if err != nil {
			return err
		}
		_, err = w.Write(append(out, '\n'))
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "levlab run: keeping levlab info beside the records: %v (the report's machine table will say less)\n", err)
	}
}
