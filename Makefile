# make test is what CI runs (.ci/run). Variables can be overridden:
# make bench BENCH=Myers BENCHTIME=5x, make fuzz FUZZTIME=10m, make bench-results COUNT=5.

GO          ?= go
GOFMT       ?= $(shell $(GO) env GOROOT)/bin/gofmt
TESTTIMEOUT ?= 20m
BENCH       ?= .
BENCHTIME   ?= 1s
FUZZTIME    ?= 60s
# The commit a built binary names in its records (scripts/commit.sh).
STAMP       := -ldflags "-X github.com/levlab/levlab/internal/buildinfo.stamp=$(shell sh scripts/commit.sh)"

.PHONY: test portable deps notebook-deps notebooks vet fmt-check build build-mpi bench bench-results paper-results gpu-bundle gpu-check fuzz examples your-own clean

## test: go vet, a gofmt check and the race-enabled tests of every package,
## then the experiments again with the edlib peer (cgo, libedlib-dev), then
## levlab match, matrix and distance under mpirun with 1 to 3 ranks (-tags mpi; Open MPI), a
## fuzz of the many pairs (FuzzCross), the Myers kernels against their
## schedule a strip at a time (FuzzMyersKernel), the alignments (FuzzAlign), the
## options that size a loop (FuzzOptions) and many patterns in lanes
## (FuzzCountMany), 10 to 30 s each on 2 cores,
## counted in inputs (-fuzztime Nx: a duration races Go 1.26's fuzzing
## coordinator at its deadline, go.dev/issue/75804, and fails with
## "context deadline exceeded" on a busy machine), then the portable lanes
## (portable); the browser, LaTeX, NVRTC, MPI and Slurm tests must find
## chromium, pdflatex, NVRTC, mpirun and Slurm (make deps installs them)
## and the notebook tests Jupyter and GoNB (make notebook-deps sets them
## up), and none may skip
test: deps notebook-deps vet fmt-check
	LEVLAB_REQUIRE_BROWSER=1 LEVLAB_REQUIRE_TEX=1 LEVLAB_REQUIRE_NVRTC=1 LEVLAB_REQUIRE_NOTEBOOKS=1 LEVLAB_REQUIRE_SLURM=1 $(GO) test -race -timeout $(TESTTIMEOUT) ./...
	$(GO) test -race -timeout $(TESTTIMEOUT) -tags edlib ./experiments/...
	$(GO) vet -tags mpi ./cmd/levlab ./internal/mpi
	LEVLAB_REQUIRE_MPI=1 $(GO) test -timeout $(TESTTIMEOUT) -tags mpi -run MPI ./cmd/levlab
	$(GO) test -run '^$$' -fuzz FuzzCross -fuzztime 100000x ./lev
	$(GO) test -run '^$$' -fuzz FuzzMyersKernel -fuzztime 50000x ./lev
	$(GO) test -run '^$$' -fuzz FuzzAlign -fuzztime 4000x ./lev
	$(GO) test -run '^$$' -fuzz FuzzOptions -fuzztime 5000x ./lev
	$(GO) test -run '^$$' -fuzz FuzzCountMany -fuzztime 20000x ./match
	$(MAKE) --no-print-directory portable
	$(MAKE) --no-print-directory gpu-check

## portable: what runs where cgo or AVX2 is not — every package built and
## vetted without cgo, lev and match vetted for arm64, their tests and a
## short fuzz with the purego tag (the portable Myers kernel under the
## conformance suite) — and cudaext's C compiled with warnings as errors
portable:
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 $(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./lev/... ./match/...
	$(GO) test -tags purego -count=1 -timeout $(TESTTIMEOUT) ./lev/... ./match/...
	$(GO) test -tags purego -run '^$$' -fuzz FuzzDistance -fuzztime 8000x ./lev
	CGO_CFLAGS="-O2 -g -Werror" $(GO) build ./cudaext

## gpu-bundle: what scripts/gpu-run.sh runs on a GPU machine that has no
## Go, built into bin/gpu (carry that folder there, then: bash
## scripts/gpu-run.sh run, into $$OUT)
gpu-bundle:
	GO=$(GO) bash scripts/gpu-run.sh build

## gpu-check: the prepared GPU run, every step, on this machine's CPU with
## the least sizes (no GPU needed), into out/gpu-check
gpu-check:
	rm -rf out/gpu-check
	GO=$(GO) OUT=out/gpu-check bash scripts/gpu-run.sh check

## deps: check (and as root install) the tools the tests need
deps:
	bash scripts/install-deps.sh

## notebook-deps: Debian's Jupyter packages, GoNB and goimports (pinned in
## go.mod) in .tools/bin, and the gonb kernel with this checkout in its go.work
notebook-deps:
	bash scripts/setup-notebooks.sh

## notebooks: set up as notebook-deps, then open the notebooks in Jupyter
notebooks:
	bash scripts/setup-notebooks.sh --open

vet: deps
	$(GO) vet ./...

## fmt-check: fail, listing them, if any Go files need gofmt
fmt-check:
	@unformatted=$$($(GOFMT) -l .) || exit 1; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt would change these files (run gofmt -w on them):"; \
		echo "$$unformatted"; \
		exit 1; \
	fi

## build: the command line as bin/levlab
build:
	$(GO) build $(STAMP) -o bin/levlab ./cmd/levlab

## build-mpi: the command line with MPI (levlab match, matrix and distance under mpirun) as
## bin/levlab-mpi; needs Open MPI (make deps)
build-mpi:
	$(GO) build $(STAMP) -tags mpi -o bin/levlab-mpi ./cmd/levlab

## examples: the example programs of docs/your-own.md in examples/bin/:
## ed_omp (antidiagonals with OpenMP) and its off-by-one twin, and one
## program of each shape levlab verify and run --spec take — ed_args (the
## strings as arguments), ed_menu (a menu on stdin), ed_file (one input
## file), ed_fixed (a file of a fixed name, input.txt), ed_seeded
## (strings of its own from a seed); ed_mpi where mpicc
## is (Open MPI: make deps) and ed_cuda where nvcc is (the CUDA toolkit)
CC ?= cc
MPICC ?= mpicc
NVCC ?= nvcc
examples:
	mkdir -p examples/bin
	$(CC) -O2 -Wall -Wextra -fopenmp -o examples/bin/ed_omp examples/ed_omp.c
	$(CC) -O2 -Wall -Wextra -fopenmp -DOFF_BY_ONE -o examples/bin/ed_omp_offbyone examples/ed_omp.c
	for p in ed_args ed_menu ed_file ed_fixed ed_seeded; do \
		$(CC) -O2 -Wall -Wextra -o examples/bin/$$p examples/$$p.c || exit 1; \
	done
	@if command -v $(MPICC) >/dev/null 2>&1; then \
		echo "$(MPICC) -O2 -Wall -o examples/bin/ed_mpi examples/ed_mpi.c"; \
		$(MPICC) -O2 -Wall -o examples/bin/ed_mpi examples/ed_mpi.c; \
	else echo "examples: no $(MPICC), so no examples/bin/ed_mpi (Open MPI: make deps)"; fi
	@if command -v $(NVCC) >/dev/null 2>&1; then \
		echo "$(NVCC) -O2 -o examples/bin/ed_cuda examples/ed_cuda.cu"; \
		$(NVCC) -O2 -o examples/bin/ed_cuda examples/ed_cuda.cu; \
	else echo "examples: no $(NVCC), so no examples/bin/ed_cuda (the CUDA toolkit)"; fi

## your-own: docs/your-own.md's example end to end: examples/ed_omp.c
## built, verified, timed beside levlab from examples/ed_omp.toml (under
## results/<machine>/quick/, resumed when run again) and written up alone
## as levlab-my-omp.html (about a minute on 2 cores); then the program of
## each shape verified the way docs/your-own.md shows
your-own: build examples
	bin/levlab verify --cases 300 -- examples/bin/ed_omp {a} {b}
	bin/levlab run --spec examples/ed_omp.toml
	bin/levlab report --only my-omp --out levlab-my-omp.html
	bin/levlab verify --cases 300 -- examples/bin/ed_args {a:text} {b:text}
	bin/levlab verify --cases 300 --text --stdin '1\n{a:text}\n{b:text}\n2\n3\n' -- examples/bin/ed_menu
	bin/levlab verify --cases 300 --input '{n} {m}\n{a:text}\n{b:text}\n' -- examples/bin/ed_file {input}
	bin/levlab verify --cases 300 --text --input '{a:text}\n{b:text}\n' --input-name input.txt -- examples/bin/ed_fixed
	bin/levlab verify --cases 300 -- examples/bin/ed_seeded -f {a} {b}

## bench: the lev benchmarks
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) ./lev

## bench-results: the benchmarks behind the report's Benchmarks section, as
## go test output in results/<machine>/bench/ (about 6 minutes; run it on a
## quiet machine, then levlab report; the edlib peer needs libedlib-dev)
bench-results:
	GO=$(GO) bash scripts/bench-results.sh

## paper-results: everything the committed report draws, measured again
## at this commit on this machine — the reports' experiments at paper
## scale, the examples of one's own, the benchmarks — so that no number
## comes from older code than another (about 38 minutes on 2 cores; run it
## on a quiet machine, then levlab report)
paper-results: examples
	GO=$(GO) bash scripts/paper-results.sh

## fuzz: the FuzzDistance target of lev
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDistance -fuzztime $(FUZZTIME) ./lev

clean:
	rm -rf bin .tools examples/bin
