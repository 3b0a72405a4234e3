//go:build cgo

package cudaext

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/levlab/levlab/internal/atomicfile"
)

// cubinFor returns the kernels compiled for compute capability
// major.minor: from the cache when an earlier run compiled the same source
// with the same options and NVRTC, else from NVRTC (and then cached; a
// cache that cannot be written is no error).
func cubinFor(major, minor int) ([]byte, error) {
	r, err := compiler()
	if err != nil {
		return nil, err
	}
	src, opts := kernelSource(), kernelOptions(major, minor)
	h := sha256.New()
	fmt.Fprintf(h, "nvrtc %d.%d\x00%s\x00%s", r.major, r.minor, strings.Join(opts, "\x00"), src)
	key := hex.EncodeToString(h.Sum(nil))[:32]
	dir := cacheDir()
	path := ""
	if dir != "" {
		path = filepath.Join(dir, fmt.Sprintf("levlab-sm%d%d-%s.cubin", major, minor, key))
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return b, nil
		}
	}
	cubin, log, err := compile(src, "levlab.cu", opts...)
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	if path != "" {
		writeCache(path, cubin)
	}
	return cubin, nil
}

func cacheDir() string {
	if d := os.Getenv(EnvCacheDir); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "levlab", "cubin")
}

// writeCache writes b to path whole or not at all (atomicfile), so that a
// reader never sees half a CUBIN; a cache that cannot be written is no
// error.
func writeCache(path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
