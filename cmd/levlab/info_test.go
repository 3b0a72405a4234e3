package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
)

func TestInfoText(t *testing.T) {
	t.Setenv(experiments.MachineEnv, "")
	stdout, stderr, code := levlab(t, "info")
	if code != exitOK || stderr != "" {
		t.Fatalf("levlab info: exit status %d, stderr %q", code, stderr)
	}
	m := experiments.CurrentMachine() // the records' own identity
	gpu := m.GPUStatus()
	if err := cudaext.Available(); err != nil && gpu != err.Error() {
		t.Errorf("GPUStatus() = %q, want Available's reason %q", gpu, err)
	}
	for _, want := range []string{
		"cpu:        " + m.CPU + "\n",
		"cores:      " + strconv.Itoa(runtime.NumCPU()) + " logical, ",
		"clock:      ",
		"memory:     ",
		"isa:        ",
		"os release: ",
		"gomaxprocs: " + strconv.Itoa(runtime.GOMAXPROCS(0)) + "\n",
		"go:         " + runtime.Version() + "\n",
		"os/arch:    " + runtime.GOOS + "/" + runtime.GOARCH + "\n",
		"kernel:     " + lev.Kernel() + "\n",
		"levlab:     ",
		"gpu:        " + gpu + "\n",
		"results:    results/" + m.Slug() + "\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("levlab info does not print %q:\n%s", want, stdout)
		}
	}
}

func TestInfoJSON(t *testing.T) {
	t.Setenv(experiments.MachineEnv, "")
	stdout, stderr, code := levlab(t, "info", "--json")
	if code != exitOK || stderr != "" {
		t.Fatalf("levlab info --json: exit status %d, stderr %q", code, stderr)
	}
	got := decodeJSON[machineInfo](t, "info --json", stdout)
	gpuErr := cudaext.Available()
	if got.LogicalCores != runtime.NumCPU() || got.GOMAXPROCS != runtime.GOMAXPROCS(0) ||
		got.GoVersion != runtime.Version() || got.OS != runtime.GOOS || got.Arch != runtime.GOARCH ||
		got.CPUModel == "" || got.Version == "" || got.GPUAvailable != (gpuErr == nil) ||
		got.Machine != experiments.CurrentMachine().Slug() || got.Kernel != lev.Kernel() {
		t.Errorf("levlab info --json = %+v; want this process's cores, Go, OS, arch and GPU", got)
	}
	h := experiments.CurrentHost()
	if got.MemoryBytes != h.MemoryBytes || got.ThreadsCore != h.ThreadsPerCore || got.Virtual != h.Virtual || got.OSRelease != h.OSRelease ||
		strings.Join(got.ISA, " ") != strings.Join(h.ISA, " ") || got.ISA == nil {
		t.Errorf("levlab info --json = %+v; want this host's %+v, isa a list", got, h)
	}
	if gpuErr != nil && got.GPU != gpuErr.Error() {
		t.Errorf("gpu = %q, want the reason %q", got.GPU, gpuErr)
	}
}

func TestInfoUsageErrors(t *testing.T) {
	checkFailure(t, []string{"info", "extra"}, exitUsage, `"extra"`)
	checkFailure(t, []string{"info", "--verbose"}, exitUsage, "-verbose")
}

// TestMachineName: LEVLAB_MACHINE, or run's and reproduce's --name, names
// the machine's folder under results/ in place of the CPU's; a name out of
// range, or --name beside --out, is bad usage naming it.
func TestMachineName(t *testing.T) {
	t.Setenv(experiments.MachineEnv, "lab-vm-2")
	stdout, _, code := levlab(t, "info")
	if code != exitOK || !strings.Contains(stdout, "results:    results/lab-vm-2\n") {
		t.Errorf("LEVLAB_MACHINE=lab-vm-2 levlab info: exit %d\n%s", code, stdout)
	}
	stdout, _, _ = levlab(t, "info", "--json")
	if got := decodeJSON[machineInfo](t, "info --json", stdout); got.Machine != "lab-vm-2" {
		t.Errorf("LEVLAB_MACHINE=lab-vm-2 levlab info --json: machine %q", got.Machine)
	}
	if dir, err := resultsDir("", "", "quick"); err != nil || dir != filepath.Join("results", "lab-vm-2", "quick") {
		t.Errorf("resultsDir with LEVLAB_MACHINE: %q, %v", dir, err)
	}
	if dir, err := resultsDir("", "vm.b", "paper"); err != nil || dir != filepath.Join("results", "vm.b", "paper") {
		t.Errorf("resultsDir --name vm.b: %q, %v", dir, err)
	}
	checkFailure(t, []string{"run", "--name", "Lab VM", "--only", "peers"}, exitUsage, `"Lab VM"`, "a-z, 0-9")
	checkFailure(t, []string{"reproduce", "--name", "published"}, exitUsage, `"published"`)
	checkFailure(t, []string{"run", "--name", "vm", "--out", "elsewhere"}, exitUsage, "--name vm", "--out elsewhere")
	t.Setenv(experiments.MachineEnv, "../up")
	checkFailure(t, []string{"info"}, exitUsage, "LEVLAB_MACHINE", `"../up"`)
}

// TestKeepHostInfo: a run into a folder of its own keeps levlab info
// there, replacing an earlier one; a run into a machine's folder of the
// results tree keeps one there, named by the folder, only where none is.
func TestKeepHostInfo(t *testing.T) {
	dir := t.TempDir()
	read := func(path string) (m map[string]any) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return m
	}
	var stderr strings.Builder
	own := filepath.Join(dir, "mine")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(own, "machine.json"), []byte(`{"machine":"stale"}`), 0o644)
	keepHostInfo(own, true, &stderr)
	if m := read(filepath.Join(own, "machine.json")); m["machine"] == "stale" || m["go_version"] == nil {
		t.Errorf("own folder: %v; want this machine's levlab info", m)
	}
	run := filepath.Join(dir, "results", "box", "quick")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	keepHostInfo(run, false, &stderr)
	kept := filepath.Join(dir, "results", "box", "machine.json")
	if m := read(kept); m["machine"] != "box" || m["go_version"] == nil {
		t.Errorf("machine folder: %v; want levlab info named box", m)
	}
	os.WriteFile(kept, []byte(`{"machine":"box","cpu_mhz":1}`), 0o644)
	keepHostInfo(run, false, &stderr)
	if m := read(kept); m["cpu_mhz"] != 1.0 {
		t.Errorf("machine folder's own machine.json replaced: %v", m)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}
