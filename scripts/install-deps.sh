#!/usr/bin/env bash
# Checks, and where it can installs, what building and testing levlab needs
# beyond the Go module itself. Safe to run again: it installs only what is
# missing, and runs apt-get update at most once.
#
# To add a dependency, append a line "COMMAND PACKAGE" to needs below: when
# COMMAND is not on PATH, the Debian PACKAGE is installed. A library has no
# command: "file:PATH PACKAGE" installs PACKAGE when PATH does not exist.
# Installing needs root (as in CI); anyone else is told what is missing and
# the script goes on. "lib:NAME PACKAGE" installs PACKAGE when the dynamic
# linker knows no library named NAME*.
#
# NVRTC (libnvrtc11.2) is in Debian's non-free component: where it is
# missing the script adds that component (a file of its own under
# /etc/apt/sources.list.d) before installing.
set -euo pipefail

needs=(
	"gcc gcc" # cgo: go test -race, and later cudaext
	"file:/usr/include/edlib.h libedlib-dev" # the edlib peer: go test -tags edlib ./experiments/...
	"edlib-aligner edlib-aligner" # the peer of levlab distance and align in the benchmarks (make bench-results)
	"chromium chromium" # headless browser for the report's PDF and its tests (internal/chromium)
	# pdflatex and graphicx, then booktabs: the report's LaTeX is compiled in
	# its tests (report/tex_test.go); about 50 MB to fetch, 150 MB installed
	"pdflatex texlive-latex-base"
	"file:/usr/share/texlive/texmf-dist/tex/latex/booktabs/booktabs.sty texlive-latex-recommended"
	"pdftotext poppler-utils" # where the words of the report's PDF lie on the page (report/pdf_test.go)
	"lib:libnvrtc.so libnvrtc11.2" # NVRTC: cudaext compiles its kernels in the tests (no GPU needed)
	"mpirun openmpi-bin" # mpirun for levlab match over MPI ranks (go test -tags mpi ./cmd/levlab)
	# gompi's #cgo flags name Debian's amd64 Open MPI headers; elsewhere set
	# CGO_CFLAGS and CGO_LDFLAGS from mpicc -showme:compile and -showme:link
	"file:/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h libopenmpi-dev"
	# internal/mpi's own C finds Open MPI with #cgo pkg-config: ompi-c
	"pkg-config pkgconf"
	# a one-node Slurm the scale-out test starts on loopback (sbatch
	# --array of levlab matrix --shards, cmd/levlab/slurm_test.go)
	"munged munge"
	"slurmctld slurmctld"
	"slurmd slurmd"
	"sbatch slurm-client"
	# a real word list for spelling suggestions: the suggest experiment,
	# notebooks/40-spelling and levlab matrix's tests
	"file:/usr/share/dict/words wamerican"
	# GNU time: a child's own peak memory (align's memory test); Go's
	# ProcessState counts the parent's pages shared until the exec too
	"file:/usr/bin/time time"
)

if ! command -v go >/dev/null 2>&1; then
	echo "install-deps: go is not on PATH; install Go 1.26 or later (https://go.dev/dl/)" >&2
	exit 1
fi
echo "install-deps: $(go version)"

missing=()
for need in "${needs[@]}"; do
	read -r check pkg <<<"$need"
	case $check in
	file:*) [ -e "${check#file:}" ] || missing+=("$pkg") ;;
	lib:*) ldconfig -p 2>/dev/null | grep -q "${check#lib:}" || missing+=("$pkg") ;;
	*) command -v "$check" >/dev/null 2>&1 || missing+=("$pkg") ;;
	esac
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: nothing to install"
	exit 0
fi

echo "install-deps: missing: ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: no apt-get here; install these yourself: ${missing[*]}" >&2
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: not root, so not installing; run: sudo apt-get install ${missing[*]}" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if [[ " ${missing[*]} " == *" libnvrtc11.2 "* ]] && [ -r /etc/os-release ]; then
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	list=/etc/apt/sources.list.d/levlab-non-free.sources
	if [ -n "$codename" ] && [ ! -e "$list" ] && grep -qi debian /etc/os-release; then
		echo "+ enabling Debian's non-free component for NVRTC ($list)"
		printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$codename" >"$list"
	fi
fi
echo "+ apt-get update"
apt-get update -q
echo "+ apt-get install ${missing[*]}"
apt-get install -y -q --no-install-recommends "${missing[@]}"
