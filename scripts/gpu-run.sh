#!/usr/bin/env bash
# The GPU run, prepared: every check and measurement that needs an NVIDIA
# GPU, as one command for a machine that has the driver (and Nsight
# Compute) but no Go.
#
#   bash scripts/gpu-run.sh build   here: the binaries, into bin/gpu/
#   bash scripts/gpu-run.sh run     there, from the repository's root
#                                   (bin/gpu/ carried along), into $OUT
#   bash scripts/gpu-run.sh check   here, without a GPU: build, then run
#                                   every step on the CPU with tiny sizes
#
# build makes bin/gpu/levlab (stamped with this checkout's commit, which
# every record carries), bin/gpu/lev.test and bin/gpu/cudaext.test, and
# bin/gpu/commit. run writes, under $OUT (default out/gpu):
#   steps.txt         each step: its exit status and seconds
#   machine.json      levlab info --json; nvidia-smi.txt
#   tests-cudaext.txt LEVLAB_REQUIRE_GPU=1 cudaext.test -test.v: each kernel
#                     against the reference, timing, Batch, Pairs,
#                     CountWindows
#   pairs.txt         levlab matrix, the whole command with its output
#                     written, on 800 and 4,000 random DNA strings of
#                     500–1000 bp: cuda-fast beside auto on every core, the
#                     seconds and matrix cells a second of each and whether
#                     their outputs are equal
#   results/<machine>/paper/*.csv
#                     levlab run --scale paper --reps REPS (default 5)
#                     --fresh of every GPU experiment (GPU_EXPERIMENTS
#                     below), the host's CPU points among them
#   results/<machine>/bench/gpu.txt
#                     BenchmarkGPU and BenchmarkGPUPairs, 3 iterations,
#                     with the lines saying its commit, date, command and
#                     GPU, as bench-results.sh writes its files
#   tests-lev.txt     LEVLAB_REQUIRE_GPU=1 lev.test: every cuda-* algorithm
#                     through the conformance suite and the fuzz corpora
#   ncu/              Nsight Compute (--set full), where ncu is on PATH:
#                     the many-pairs kernel's first tile on 800 strings,
#                     then cuda-fast's launch at 1,000,000 and 150,000
#                     (the second: the first is BenchmarkGPU's check on a
#                     pair of one symbol);
#                     each .txt ends with the report's details page
# The steps run in that order, most wanted first, each under its own time
# limit and all under DEADLINE seconds (default 480): a step that would
# start with under 20 s left is skipped and steps.txt says so. A step that
# fails does not stop the next; run exits 1 when any failed or was
# skipped, naming them. Copy $OUT/results/<machine> into results/
# and commit it; docs/gpu.md says what the last such run measured.
set -uo pipefail
cd "$(dirname "$0")/.."

# GPU_EXPERIMENTS: the experiments with a GPU algorithm among their points
# (a test holds this list to the catalog).
GPU_EXPERIMENTS=s000-table2,s002-cases,gpu-fast,s003-ratio,many-pairs

bundle=bin/gpu

build() {
	local go=${GO:-go} stamp
	stamp=$(sh scripts/commit.sh)
	mkdir -p "$bundle"
	"$go" build -ldflags "-X github.com/levlab/levlab/internal/buildinfo.stamp=$stamp" -o "$bundle/levlab" ./cmd/levlab &&
		"$go" test -c -o "$bundle/lev.test" ./lev &&
		"$go" test -c -o "$bundle/cudaext.test" ./cudaext &&
		printf '%s\n' "$stamp" >"$bundle/commit" &&
		echo "gpu-run: built $bundle (levlab, lev.test, cudaext.test) at $stamp; carry $bundle to the GPU machine and run: bash scripts/gpu-run.sh run"
}

start=$(date +%s)
deadline=${DEADLINE:-480}
failed=""

# step NAME LIMIT FUNC: the shell function FUNC under the least of LIMIT
# and the time left (timeout runs it in a child bash, which the exports in
# run give the functions and settings), its status and seconds appended to
# steps.txt.
step() {
	local name=$1 limit=$2 fn=$3 left t0 rc
	left=$((deadline - ($(date +%s) - start)))
	if [ "$left" -lt 20 ]; then
		printf '%-14s skipped: %d s of DEADLINE=%d left\n' "$name" "$left" "$deadline" | tee -a "$out/steps.txt"
		failed+=" $name"
		return
	fi
	[ "$limit" -gt "$left" ] && limit=$left
	t0=$(date +%s)
	timeout --kill-after=5 "$limit" bash -c "$fn"
	rc=$?
	[ "$rc" -eq 0 ] || failed+=" $name"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		printf '%-14s timed out after %d s (exit %d)\n' "$name" "$limit" "$rc" | tee -a "$out/steps.txt"
	else
		printf '%-14s exit %d in %d s\n' "$name" "$rc" "$(($(date +%s) - t0))" | tee -a "$out/steps.txt"
	fi
}

tests_cudaext() {
	(cd cudaext && LEVLAB_REQUIRE_GPU=${REQUIRE_GPU} "../$bundle/cudaext.test" -test.v -test.timeout 150s) >"$out/tests-cudaext.txt" 2>&1
}

tests_lev() {
	(cd lev && LEVLAB_REQUIRE_GPU=${REQUIRE_GPU} "../$bundle/lev.test" -test.run 'Conformance|Fuzz' -test.timeout 150s) >"$out/tests-lev.txt" 2>&1
}

experiments() {
	"$bundle/levlab" run --scale "$scale" --reps "$reps" --fresh --only "$GPU_EXPERIMENTS" --out "$out/results/$machine/$scale" 2>"$out/run-stderr.txt"
}

bench() {
	local file=$out/results/$machine/bench/gpu.txt
	mkdir -p "$(dirname "$file")"
	{
		echo "commit: $(cat "$bundle/commit")"
		echo "date: $(date -u +%Y-%m-%d)"
		echo "command: go test -c -o lev.test ./lev; cd lev && LEVLAB_REQUIRE_GPU=$REQUIRE_GPU ../lev.test -test.run '^\$' -test.bench '$bench_filter' -test.benchtime 3x"
		echo "gpu: $gpu"
		(cd lev && LEVLAB_REQUIRE_GPU=${REQUIRE_GPU} "../$bundle/lev.test" -test.run '^$' -test.bench "$bench_filter" -test.benchtime 3x)
	} >"$file" 2>&1
}

# randomDNA N SEED: N lines of random ACGT, each of 500 to 1000 bases
# (awk, so that the GPU machine needs no Go).
randomDNA() {
	awk -v n="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) { l = 500 + int(rand() * 501); s = ""; for (j = 0; j < l; j++) s = s substr("ACGT", 1 + int(rand() * 4), 1); print s } }'
}

pairs() {
	pairs_of >"$out/pairs.txt" 2>&1
}

pairs_of() {
	local tmp n alg t0 t1 rc ms cells status=0
	tmp=$(mktemp -d)
	for n in $pairs_sets; do
		randomDNA "$n" "$n" >"$tmp/dna-$n.txt"
		# The cells of every pair i < j: ((Σ len)² − Σ len²) / 2.
		cells=$(awk '{ l = length($0); s += l; q += l * l } END { printf "%.0f", (s * s - q) / 2 }' "$tmp/dna-$n.txt")
		for alg in "$pairs_gpu" auto; do
			t0=$(date +%s%N)
			"$bundle/levlab" matrix --algo "$alg" "$tmp/dna-$n.txt" >"$tmp/out-$alg.txt" 2>"$tmp/err-$alg.txt"
			rc=$?
			t1=$(date +%s%N)
			ms=$(((t1 - t0) / 1000000))
			printf '%s strings, %s pairs, %s cells, --algo %s: exit %d, %d.%03d s, %s TCUPS (matrix cells a second, end to end)\n' \
				"$n" "$((n * (n - 1) / 2))" "$cells" "$alg" "$rc" "$((ms / 1000))" "$((ms % 1000))" \
				"$(awk -v c="$cells" -v ms="$ms" 'BEGIN { printf "%.3f", (ms > 0 ? c / (ms / 1000) / 1e12 : 0) }')"
			[ "$rc" -eq 0 ] || { status=1; sed 's/^/  stderr: /' "$tmp/err-$alg.txt" | head -5; }
		done
		if cmp -s "$tmp/out-$pairs_gpu.txt" "$tmp/out-auto.txt"; then
			echo "$n strings: the two outputs are equal, byte for byte ($(wc -l <"$tmp/out-auto.txt") lines)"
		else
			echo "$n strings: the outputs DIFFER"
			status=1
		fi
	done
	rm -rf "$tmp"
	return $status
}

profile() {
	local n
	mkdir -p "$out/ncu"
	if ! command -v ncu >/dev/null; then
		echo "no ncu on PATH" >"$out/ncu/none.txt"
		return 0
	fi
	# The many-pairs kernel: one tile of 800 strings' pairs.
	if [ -n "$ncu_pairs" ]; then
		randomDNA "$ncu_pairs" 7 >"$out/ncu/dna-$ncu_pairs.txt"
		ncu --clock-control none --set full --launch-count 1 -k regex:lv_pairs -o "$out/ncu/pairs-$ncu_pairs" \
			"$bundle/levlab" matrix --algo cuda-fast "$out/ncu/dna-$ncu_pairs.txt" >/dev/null 2>"$out/ncu/pairs-$ncu_pairs.txt"
		ncu -i "$out/ncu/pairs-$ncu_pairs.ncu-rep" --page details >>"$out/ncu/pairs-$ncu_pairs.txt" 2>&1
		rm -f "$out/ncu/dna-$ncu_pairs.txt"
	fi
	for n in $ncu_sizes; do
		(cd lev && ncu --clock-control none --set full --launch-skip 1 --launch-count 1 -k regex:fast \
			-o "$out/ncu/cuda-fast-$n" "../$bundle/lev.test" -test.run '^$' \
			-test.bench "GPU/alg=cuda-fast/n=$n/" -test.benchtime 1x) >"$out/ncu/cuda-fast-$n.txt" 2>&1
		ncu -i "$out/ncu/cuda-fast-$n.ncu-rep" --page details >>"$out/ncu/cuda-fast-$n.txt" 2>&1
	done
}

run() {
	# Sizes: the paper's, or with SMALL=1 (check) the least that runs
	# each step's code, with myers in cuda-fast's place in pairs.
	if [ "${SMALL:-}" = 1 ]; then
		scale=quick reps=1 pairs_sets="40" pairs_gpu=myers bench_filter='GPU/alg=cuda-fast/n=10000/' ncu_pairs="" ncu_sizes=""
	else
		scale=paper reps=${REPS:-5} pairs_sets="800 4000" pairs_gpu=cuda-fast bench_filter=GPU ncu_pairs=800 ncu_sizes="1000000 150000"
	fi
	out=${OUT:-out/gpu}
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	: >"$out/steps.txt"
	for f in levlab lev.test cudaext.test commit; do
		if [ ! -e "$bundle/$f" ]; then
			echo "gpu-run: $bundle/$f is missing: run 'bash scripts/gpu-run.sh build' here and carry $bundle" >&2
			exit 2
		fi
	done
	REQUIRE_GPU=${REQUIRE_GPU:-1}
	"$bundle/levlab" info --json >"$out/machine.json"
	machine=$(sed -n 's/.*"machine":"\([^"]*\)".*/\1/p' "$out/machine.json")
	if [ -z "$machine" ]; then
		echo "gpu-run: levlab info --json named no machine" >&2
		exit 2
	fi
	nvidia-smi -q >"$out/nvidia-smi.txt" 2>&1
	gpu=$(sed -n 's/.*"gpu":"\([^"]*\)".*/\1/p' "$out/machine.json")
	echo "gpu-run: $machine, ${gpu:-no GPU named}, commit $(cat "$bundle/commit"), into $out"
	export bundle out machine gpu scale reps pairs_sets pairs_gpu bench_filter ncu_pairs ncu_sizes REQUIRE_GPU GPU_EXPERIMENTS
	export -f tests_cudaext tests_lev experiments bench randomDNA pairs pairs_of profile
	step tests-cudaext 120 tests_cudaext
	step pairs 90 pairs
	cat "$out/pairs.txt"
	step experiments 280 experiments
	step bench 90 bench
	step tests-lev 120 tests_lev
	step ncu 120 profile
	echo "gpu-run: done in $(($(date +%s) - start)) s; steps:"
	cat "$out/steps.txt"
	if [ -n "$failed" ]; then
		echo "gpu-run: failed or skipped:$failed (their files under $out say why)" >&2
		return 1
	fi
}

case ${1:-} in
build) build ;;
run) run ;;
check)
	build || exit 1
	SMALL=1 REQUIRE_GPU=0 OUT=${OUT:-out/gpu-check} DEADLINE=${DEADLINE:-600} run
	;;
*)
	echo "usage: bash scripts/gpu-run.sh build|run|check" >&2
	exit 2
	;;
esac
