//go:build cgo

package cudaext

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// RequireNVRTCEnv, set to 1, turns a missing NVRTC into a failure of the
// compile tests (make test sets it: install-deps installs Debian's NVRTC).
const RequireNVRTCEnv = "LEVLAB_REQUIRE_NVRTC"

func needNVRTC(t *testing.T) {
	t.Helper()
	if _, _, err := NVRTCVersion(); err != nil {
		if os.Getenv(RequireNVRTCEnv) == "1" {
			t.Fatalf("%v (%s=1: NVRTC is required here)", err, RequireNVRTCEnv)
		}
		t.Skipf("skipped: %v", err)
	}
}

// TestKernelsCompile compiles every kernel with NVRTC for Ampere and Hopper,
// and for Volta where this NVRTC still can (CUDA 13 dropped sm_70), no GPU
// needed: no error, no warning, no register spills, and a CUBIN (an ELF
// image) out.
func TestKernelsCompile(t *testing.T) {
	needNVRTC(t)
	major, minor, _ := NVRTCVersion()
	t.Logf("NVRTC %d.%d", major, minor)
	spill := regexp.MustCompile(`(\d+) bytes spill (stores|loads)`)
	for _, cc := range compileTargets(major) {
		opts := append(kernelOptions(cc[0], cc[1]), "-Xptxas=-v")
		cubin, log, err := compile(kernelSource(), "levlab.cu", opts...)
		if err != nil {
			t.Fatalf("sm_%d%d: %v\n%s", cc[0], cc[1], err, log)
		}
		if !bytes.HasPrefix(cubin, []byte("\x7fELF")) {
			t.Errorf("sm_%d%d: the CUBIN is not an ELF image (%d bytes)", cc[0], cc[1], len(cubin))
		}
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, "warning") || strings.Contains(line, "error") {
				t.Errorf("sm_%d%d: %s", cc[0], cc[1], line)
			}
			if m := spill.FindStringSubmatch(line); m != nil && m[1] != "0" {
				t.Errorf("sm_%d%d: register spills: %s", cc[0], cc[1], strings.TrimSpace(line))
			}
		}
		for _, name := range kernelNames() {
			if !strings.Contains(log, "'"+name+"'") {
				t.Errorf("sm_%d%d: ptxas compiled no entry %s", cc[0], cc[1], name)
			}
		}
	}
}

// compileTargets are the compute capabilities TestKernelsCompile builds
// for with an NVRTC of the given major version: sm_80 and sm_90, and sm_70
// before CUDA 13, which no longer compiles for Volta ("invalid value for
// --gpu-architecture").
func compileTargets(nvrtcMajor int) [][2]int {
	if nvrtcMajor >= 13 {
		return [][2]int{{8, 0}, {9, 0}}
	}
	return [][2]int{{7, 0}, {8, 0}, {9, 0}}
}

// kernelNames lists the kernels the module loader looks up, from the C
// table in lv_module.c.
func kernelNames() []string {
	src, err := os.ReadFile("lv_module.c")
	if err != nil {
		panic(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`LV_SYM\(lv_module, \w+, "(\w+)"\)`).FindAllStringSubmatch(string(src), -1) {
		names = append(names, m[1])
	}
	return names
}

// TestKernelNames checks that every kernel the loader looks up is defined
// with C linkage in the sources, so that cuModuleGetFunction finds it.
func TestKernelNames(t *testing.T) {
	names := kernelNames()
	if len(names) < 9 {
		t.Fatalf("found %d kernel names in lv_module.c's table: %v", len(names), names)
	}
	src := kernelSource()
	for _, name := range names {
		if !strings.Contains(src, `extern "C" __global__ void `+name+"(") {
			t.Errorf("kernel %s is not defined extern \"C\" in the sources", name)
		}
	}
}

// TestCubinCache: the second request is served from the cache folder, and
// the file is what NVRTC made.
func TestCubinCache(t *testing.T) {
	needNVRTC(t)
	dir := t.TempDir()
	t.Setenv(EnvCacheDir, dir)
	first, err := cubinFor(9, 0)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 || !strings.HasSuffix(files[0].Name(), ".cubin") {
		t.Fatalf("cache folder holds %v, want one .cubin", files)
	}
	path := dir + "/" + files[0].Name()
	if cached, _ := os.ReadFile(path); !bytes.Equal(cached, first) {
		t.Fatal("the cached file differs from the compiled CUBIN")
	}
	// A marked file in its place proves the second call reads the cache.
	if err := os.WriteFile(path, []byte("cached"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := cubinFor(9, 0); err != nil || string(again) != "cached" {
		t.Fatalf("second call: %q, %v; want the cached file", again, err)
	}
	// Another architecture is another entry.
	if _, err := cubinFor(8, 0); err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 2 {
		t.Fatalf("after sm_80: %d files, want 2", len(files))
	}
	t.Setenv(EnvCacheDir, "off")
	if b, err := cubinFor(9, 0); err != nil || string(b) == "cached" {
		t.Fatalf("with the cache off: %v, %q", err, b[:min(len(b), 8)])
	}
}
