# make test is what CI runs (.ci/run). Variables can be overridden:
# make bench BENCH=Myers BENCHTIME=5x, make fuzz FUZZTIME=10m.

GO          ?= go
GOFMT       ?= $(shell $(GO) env GOROOT)/bin/gofmt
TESTTIMEOUT ?= 20m
BENCH       ?= .
BENCHTIME   ?= 1s
FUZZTIME    ?= 60s

.PHONY: test deps vet fmt-check build bench fuzz clean

## test: go vet, a gofmt check and the race-enabled tests of every package,
## then the experiments again with the edlib peer (cgo, libedlib-dev); the
## browser tests must find chromium and the cudaext compile tests NVRTC
## (make deps installs both) and not skip
test: deps vet fmt-check
	LEVLAB_REQUIRE_BROWSER=1 LEVLAB_REQUIRE_NVRTC=1 $(GO) test -race -timeout $(TESTTIMEOUT) ./...
	$(GO) test -race -timeout $(TESTTIMEOUT) -tags edlib ./experiments/...

## deps: check (and as root install) the tools the tests need
deps:
	bash scripts/install-deps.sh

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
	$(GO) build -o bin/levlab ./cmd/levlab

## bench: the lev benchmarks
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) ./lev

## fuzz: the FuzzDistance target of lev
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDistance -fuzztime $(FUZZTIME) ./lev

clean:
	rm -rf bin
