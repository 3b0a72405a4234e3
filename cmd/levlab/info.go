package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
)

func infoUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab info [--json]

Describes the machine and the build: CPU model, logical cores, GOMAXPROCS,
Go version, OS and architecture, the vector kernel the bit-parallel
algorithms run (avx512, avx2, or go where the CPU has neither), levlab's
version and commit (where the build recorded them), whether a CUDA GPU
is usable (device found and the kernels compiled and loaded), or why
not, the NVRTC version, and the machine's folder name under results/
(its runs and benchmarks): the CPU's model and cores, and its GPU, unless
LEVLAB_MACHINE names another (run and reproduce take --name for it), as
two VMs of one CPU model need.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status: 0 (a missing GPU is reported, not a failure), 2 for bad usage.
`)
}

// machineInfo is what info reports; the JSON names are stable.
type machineInfo struct {
	Machine      string `json:"machine"` // the folder of its results: results/<machine>/
	CPUModel     string `json:"cpu_model"`
	LogicalCores int    `json:"logical_cores"`
	GOMAXPROCS   int    `json:"gomaxprocs"`
	GoVersion    string `json:"go_version"`
	OS           string `json:"os"`
	Arch         string `json:"arch"`
	Kernel       string `json:"kernel"`   // lev.Kernel(): avx512, avx2 or go
	Version      string `json:"version"`  // the main module's version, "(devel)" in a checkout
	Commit       string `json:"commit"`   // vcs.revision, "" when the build did not record it
	Modified     bool   `json:"modified"` // vcs.modified: built from a tree with uncommitted changes
	GPUAvailable bool   `json:"gpu_available"`
	GPU          string `json:"gpu"`   // "available: " and the device, or why not
	NVRTC        string `json:"nvrtc"` // the version the kernels are compiled with, or why none
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
	_, err = fmt.Fprintf(stdout, `cpu:        %s
cores:      %d logical
gomaxprocs: %d
go:         %s
os/arch:    %s/%s
kernel:     %s
levlab:     %s
gpu:        %s
nvrtc:      %s
results:    results/%s
`, info.CPUModel, info.LogicalCores, info.GOMAXPROCS, info.GoVersion, info.OS, info.Arch, info.Kernel, build, info.GPU, info.NVRTC, info.Machine)
	return err
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
	info.GPUAvailable, info.GPU = m.GPUUsable(), m.GPUStatus()
	if major, minor, err := cudaext.NVRTCVersion(); err != nil {
		info.NVRTC = err.Error()
	} else {
		info.NVRTC = fmt.Sprintf("%d.%d", major, minor)
	}
	return info
}
