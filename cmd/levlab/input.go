package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/levlab/levlab/internal/sysmem"
)

// defaultMaxInput is the --max-input default: an eighth of the memory
// this process may use (the machine's available memory, ulimit -v, the
// cgroup limit), so that two inputs, their runes and the work on them fit.
// It is read once: the flag's help and inputLimit both want it, and
// /proc/meminfo and the cgroup's files are read again on every call.
var defaultMaxInput = sync.OnceValue(func() int64 {
	return max(sysmem.Available(4<<30)/8, minMaxInput)
})

// minMaxInput is the least --max-input default: an input of at most this
// many bytes is read without finding the default, which costs file reads
// on every start (levlab verify starts levlab distance a thousand times).
const minMaxInput = 1 << 20

// maxInputFlag is the --max-input flag of distance and match.
func maxInputFlag(fs *flagSet) *byteSize {
	limit := new(byteSize)
	fs.Var(limit, "max-input", "`BYTES` read from one input file at most, e.g. 64MiB; unset: an eighth of the memory available, here ")
	if fs.later == nil {
		fs.later = make(map[string]func() string)
	}
	fs.later["max-input"] = func() string { return sysmem.Size(defaultMaxInput()) }
	return limit
}

// inputLimit returns the --max-input value, or 0 when unset: the default,
// which readInput finds only for an input larger than minMaxInput; a value
// below 1 is bad usage.
func inputLimit(fs *flagSet, limit *byteSize) (int64, error) {
	if !fs.given()["max-input"] {
		return 0, nil
	}
	if *limit < 1 {
		return 0, usageErrorf("--max-input %d: want at least 1 byte", int64(*limit))
	}
	return int64(*limit), nil
}

// fitsMemory returns an error naming what needs the bytes, how many, and
// the memory this process may still use and what bounds it
// (sysmem.Room: ulimit -v, the cgroup's limit, the machine's available
// memory), when need is more than that: the check made before an
// allocation that would otherwise end levlab with an out-of-memory trace.
func fitsMemory(what string, need int64) error {
	if need < 64<<20 {
		return nil // reading the limits costs a few file reads
	}
	room := sysmem.Room()
	// The runtime maps more than it is asked for beside a large
	// allocation: a margin, as lev's fullmatrix keeps.
	const margin = 128 << 20
	if room.Bytes == sysmem.Unlimited || need+margin <= room.Bytes {
		return nil
	}
	return fmt.Errorf("%s needs about %s of memory, and %s leaves this process %s", what, sysmem.Size(need), room.By, sysmem.Size(room.Bytes))
}

// errInterrupted is wrapped by the error of a command stopped by Ctrl-C or
// SIGTERM.
var errInterrupted = errors.New("interrupted")

// readInput reads the file at path whole: a regular file, a pipe, a FIFO,
// a device. A regular file over limit bytes is refused before it is read;
// anything else is read until it ends or passes limit, which is an error
// naming the file, what was read and the limit (flag names the option that
// raises it). ctx ends the wait at once, also where opening blocks (a FIFO
// with no writer) or a read waits: the error then wraps errInterrupted and
// ctx's error, and the blocked read is left behind for the process's exit
// to end. A regular file is read on the caller's goroutine (it does not
// keep a read waiting, and a goroutine more costs a thread at start-up).
func readInput(ctx context.Context, path string, limit int64, flag string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return readLimited(ctx, path, limit, flag)
	}
	watchInterrupts(ctx) // a pipe, a FIFO, a device may keep it waiting
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := readLimited(ctx, path, limit, flag)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%w while reading %s: %w", errInterrupted, path, ctx.Err())
	}
}

func readLimited(ctx context.Context, path string, limit int64, flag string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	lazy := limit == 0
	if lazy {
		limit = minMaxInput
		if size < 0 || size > limit {
			limit, lazy = defaultMaxInput(), false
		}
	}
	if size >= 0 {
		if size > limit {
			return nil, fmt.Errorf("%s is %s, more than the %s input limit; raise it with %s", path, sysmem.Size(size), sysmem.Size(limit), flag)
		}
	}
	buf := make([]byte, 0, min(max(size+1, 512), limit+1))
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w while reading %s: %w", errInterrupted, path, err)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := min(int64(cap(buf)), limit+1)
		n, err := f.Read(buf[len(buf):room])
		buf = buf[:len(buf)+n]
		if lazy && int64(len(buf)) > limit { // the file grew since Stat
			limit, lazy = defaultMaxInput(), false
		}
		if int64(len(buf)) > limit {
			return nil, fmt.Errorf("%s: more than the %s input limit (%d bytes read so far, and it goes on); raise the limit with %s", path, sysmem.Size(limit), len(buf), flag)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
