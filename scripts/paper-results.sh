#!/usr/bin/env bash
# Measures everything the committed report draws, at this commit, on this
# machine, so that no number in it comes from older code than another:
# every experiment of the reports at their sizes (levlab run --scale paper
# --fresh), the examples of one's own (examples/ed_omp.toml and
# examples/offbyone.toml), with the edlib peer built in (-tags edlib), then
# the benchmarks (scripts/bench-results.sh),
# all into results/<machine>/ (the folder levlab info names), with that
# command's --json as results/<machine>/machine.json. Old record
# files are moved aside as <name>.csv.<time>.bak, which git ignores. About
# 38 minutes on 2 cores; run it on a quiet machine, then levlab report.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
start=$(date +%s)
# The edlib peer is part of the experiments: a build with it (libedlib-dev).
if ! $GO build -tags edlib -ldflags "-X github.com/levlab/levlab/internal/buildinfo.stamp=$(sh scripts/commit.sh)" -o bin/levlab-paper ./cmd/levlab; then
	echo "paper-results: building levlab with -tags edlib failed; the edlib peer needs libedlib-dev (make deps installs it)" >&2
	exit 1
fi
levlab=bin/levlab-paper
machine=$($levlab info --json | sed -n 's/.*"machine":"\([^"]*\)".*/\1/p')
if [ -z "$machine" ]; then
	echo "paper-results: levlab info --json named no machine" >&2
	exit 1
fi
out=results/$machine/paper
# What the records do not carry of the machine (memory, clock, SMT, ISA,
# kernel, GPU driver), for the report's method section.
mkdir -p "results/$machine"
$levlab info --json >"results/$machine/machine.json"
$levlab run --scale paper --fresh --out "$out"
$levlab run --spec examples/ed_omp.toml --fresh --out "$out"
# offbyone's wrong answers are its point: its run ends with status 1,
# having recorded them as failed points.
status=0
$levlab run --spec examples/offbyone.toml --fresh --out "$out" || status=$?
if [ "$status" -gt 1 ]; then
	exit "$status"
fi
GO=$GO bash scripts/bench-results.sh
echo "paper-results: $out and results/$machine/bench in $(( ($(date +%s) - start) / 60 )) minutes"
