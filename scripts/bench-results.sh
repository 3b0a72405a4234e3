#!/usr/bin/env bash
# Writes the benchmark output behind the report's Benchmarks section to
# results/<machine>/bench/ (the folder levlab info names):
#   lev.txt    BenchmarkDistance: every CPU algorithm and the Go peers at
#              n = 10,000 and 30,000; myers and myers-parallel also at
#              50,000, each with every vector kernel the CPU runs
#   kernel.txt BenchmarkMyersKernel: one group of Myers strips per kernel
#              over 50,000 columns, every cell (GCUPS per core); and
#              BenchmarkMyersRamps, the same in runs of 100 columns
#   distance.txt BenchmarkDistanceCommand: levlab distance --algo
#              myers-parallel --workers 2, and 1, beside edlib-aligner -m NW
#              on random DNA of 50,000 and 1,000,000, each command's time,
#              its own computation time and its peak memory (about 100 s)
#   similar.txt BenchmarkSimilarCommand: levlab distance of 1M × 1M DNA
#              1 %, 5 % and 15 % diverged on 1 and 2 workers beside
#              edlib-aligner -m NW, and 10M × 10M 1 % diverged (about 40 s)
#   match.txt  BenchmarkCountMatches: report 003's pattern, k = 2
#   many.txt   BenchmarkCountMany (-tags edlib): 96 patterns of 24 over
#              100 MB of random DNA, k = 3, in lanes beside a pattern at a
#              time and beside edlib's infix mode (about 70 s)
#   pairs.txt  BenchmarkManyPairs: 800 × 800 DNA strings of 500–1000 bp,
#              lev.Cross beside edlib a pair a call (-tags edlib); lev.Cross
#              on one worker on 5,000 × 5,000 DNA strings of 100–200 bp and
#              on 2,000 × 2,000 UTF-8 strings (about 90 s)
#   matrix.txt BenchmarkMatrixCommand: the whole levlab matrix command on
#              800 × 800 such strings, with and without --max 10, and on one
#              worker
#   align.txt  BenchmarkAlignCommand: the whole levlab align command, on
#              every core and on one worker, beside edlib-aligner -p
#              (Debian's edlib-aligner, one thread) on 1M × 1M DNA 1%
#              diverged and 100k × 100k random DNA, time and peak memory
#   scaleout.txt BenchmarkScaleOut (-tags mpi): levlab distance of 1M × 1M
#              random DNA under mpirun -np 2 beside one process, matrix of
#              20,000 strings in 3 shards beside one process, merge of 10^7
#              lines (about 4 minutes)
#   scaleout-huge.txt BenchmarkScaleOutHuge (-tags mpi): levlab distance of
#              10M × 10M random DNA under mpirun -np 2, once (about 6
#              minutes)
# levlab info --json goes to results/<machine>/machine.json.
# Each file is go test's output after configuration lines saying the
# commit, the date and the command, so that a file says what made it. A
# file is replaced only once its run has finished. About 19 minutes on 2
# cores; run it on a quiet machine (COUNT=N repeats each benchmark N times,
# ONLY=NAME,... writes only the files named, e.g. ONLY=align).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
COUNT=${COUNT:-3}
ONLY=${ONLY:-}

info=$($GO run ./cmd/levlab info --json)
machine=$(printf '%s\n' "$info" | sed -n 's/.*"machine":"\([^"]*\)".*/\1/p')
if [ -z "$machine" ]; then
	echo "bench-results: levlab info --json named no machine" >&2
	exit 1
fi
dir=results/$machine/bench
mkdir -p "$dir"
# What the benchmark files' cpu line does not say of the machine.
printf '%s\n' "$info" >"results/$machine/machine.json"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no -- . ':(exclude)results' 2>/dev/null)" ]; then
	commit+=-dirty
fi

# run NAME PKG ARGS...: go test ARGS in PKG, into $dir/NAME.txt
run() {
	local name=$1 pkg=$2
	shift 2
	if [ -n "$ONLY" ] && [[ ",$ONLY," != *",$name,"* ]]; then
		return
	fi
	local tmp a shown=""
	for a in "$@"; do # quoted where the shell would read it otherwise
		if [[ $a == *[^A-Za-z0-9_./=-]* ]]; then shown+=" '$a'"; else shown+=" $a"; fi
	done
	tmp=$(mktemp "$dir/.$name.XXXXXX")
	{
		echo "commit: $commit"
		echo "date: $(date -u +%Y-%m-%d)"
		echo "command: go test -run '^\$'$shown -count $COUNT $pkg"
		$GO test -run '^$' "$@" -count "$COUNT" "$pkg"
	} > "$tmp" || { rm -f "$tmp"; echo "bench-results: $pkg failed" >&2; exit 1; }
	chmod 644 "$tmp"
	mv "$tmp" "$dir/$name.txt"
	echo "wrote $dir/$name.txt"
}

run lev ./lev -bench 'Distance/alg=myers/kernel=/n=(10000|30000|50000)/|Distance/alg=/n=(10000|30000)/' -benchtime 3x
run kernel ./lev -bench 'Myers(Kernel|Ramps)' -benchtime 300x
run distance ./cmd/levlab -bench 'DistanceCommand' -benchtime 1x
run similar ./cmd/levlab -bench 'SimilarCommand' -benchtime 1x
run match ./match -bench 'CountMatches' -benchtime 500ms
run many ./match -tags edlib -bench 'CountMany' -benchtime 1x
run pairs ./experiments -tags edlib -bench 'ManyPairs' -benchtime 2x
run matrix ./cmd/levlab -bench 'MatrixCommand' -benchtime 2x
run align ./cmd/levlab -bench 'AlignCommand' -benchtime 3x
run scaleout ./cmd/levlab -tags mpi -bench '^BenchmarkScaleOut$' -benchtime 1x
COUNT=1 run scaleout-huge ./cmd/levlab -tags mpi -bench '^BenchmarkScaleOutHuge$' -benchtime 1x
