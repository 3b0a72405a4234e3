package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/internal/matrixshard"
)

func mergeUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab merge [--out FILE] DIR

Joins the shards levlab matrix --shard I/N (or --shards N, under a Slurm
array or a Kubernetes indexed job) wrote into DIR, and writes exactly what
one levlab matrix of the same files and flags writes, byte for byte, to
stdout or to FILE (whole or not at all).

Before writing a line it checks every *.shard file of DIR: each is a
shard's file, whole (its last line says how many lines and bytes it holds),
of this format; all are of the same input files (by SHA-256), flags, shard
count and levlab; and every shard from 0 to N-1 is there exactly once.
Otherwise it names the missing, the duplicated, the cut and the foreign
files, and writes nothing.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  the shards were joined
  1  DIR holds no shard, or shards that do not make one run (named), a
     *.shard that is no regular file, a file cannot be read, or the output
     cannot be written
  2  bad usage: an unknown flag, not one DIR, an --out that is one of the
     shards (or a link to one) or a new *.shard file in DIR
`)
}

func runMerge(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("merge", stdout, mergeUsage)
	out := fs.String("out", "", "`FILE` to write (whole or not at all); unset: stdout")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("want one DIR, the folder of the shards, got %d arguments: %s", len(pos), quoteAll(pos))
	}
	dir := pos[0]
	paths, err := matrixshard.Paths(dir)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if *out != "" {
		if err := matrixshard.CheckOut(*out, dir, paths); err != nil {
			return usageError{err}
		}
	}
	shards, err := matrixshard.Read(paths)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if *out != "" {
		return atomicfile.Write(*out, func(w io.Writer) error { return matrixshard.Copy(w, shards) })
	}
	bw := bufio.NewWriterSize(stdout, 1<<16)
	if err := matrixshard.Copy(bw, shards); err != nil {
		return err
	}
	return bw.Flush()
}
