package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
)

// readHost reads the machine folder's machine.json: none is no error, and
// one that is not levlab info's JSON, or names another machine, is.
func TestReadHost(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "lab-vm", "paper")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	ix := &Index{Run: records.Run{Machine: "lab-vm", Scale: "paper", Dir: run}}
	if h, err := ix.readHost(); h != nil || err != nil {
		t.Errorf("no machine.json: %+v, %v; want nil, nil", h, err)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, "lab-vm", HostFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"machine":"lab-vm","memory_bytes":25276026880,"cpu_mhz":2096.012,"threads_per_core":1,"isa":["avx2","avx512f"],"os_release":"6.1","kernel":"avx512","commit":"42fe091563c8"}`)
	h, err := ix.readHost()
	if err != nil || h == nil || h.MemoryBytes != 25276026880 || h.CPUMHz != 2096.012 || h.ThreadsPerCore != 1 ||
		strings.Join(h.ISA, " ") != "avx2 avx512f" || h.OSRelease != "6.1" || h.Kernel != "avx512" || h.Commit != "42fe091563c8" {
		t.Errorf("readHost = %+v, %v", h, err)
	}
	for in, want := range map[string]string{
		`{"machine":"other-vm"}`: `describes machine "other-vm", not "lab-vm"`,
		`{"machine":`:            "not levlab info --json",
	} {
		write(in)
		if h, err := ix.readHost(); h != nil || err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), HostFile) {
			t.Errorf("machine.json %s: %+v, %v; want an error saying %q", in, h, err, want)
		}
	}
}

// A run's folder of its own (levlab run --out DIR) keeps the machine.json
// of the machine its records were made on: read whatever the folder is
// called, and before the one of the folder above.
func TestReadHostOwnFolder(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "my-run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, HostFile), []byte(`{"machine":"elsewhere"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, HostFile), []byte(`{"machine":"lab-vm","cpu_mhz":2096.5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := &Index{Run: records.Run{Machine: "my-run", Scale: "my-run", Dir: run}}
	h, err := ix.readHost()
	if err != nil || h == nil || h.Machine != "lab-vm" || h.CPUMHz != 2096.5 || !h.Own {
		t.Errorf("readHost = %+v, %v; want the run folder's own, lab-vm at 2096.5 MHz", h, err)
	}
}
