#!/usr/bin/env bash
# Sets up what levlab's notebooks (notebooks/*.ipynb) need, and with --open
# opens them. Safe to run again: it installs only what is missing and runs
# apt-get update at most once.
#
#  1. Debian's Jupyter packages, where missing: jupyter-nbconvert,
#     jupyter-client, python3-nbclient and python3-ipykernel (what the
#     tests execute notebooks with), libjs-requirejs (the RequireJS of a
#     live notebook, where Debian's nbconvert points HTML exports: the tests
#     draw the charts with it), jupyter-notebook (the live notebook,
#     which --open starts and a test drives in headless Chromium, with
#     python3-ipywidgets, whose extension its every page loads: without
#     it the page logs two errors) and jupyter-nbformat (jupyter trust).
#     Nothing comes from PyPI. Installing needs root (as in CI); anyone else
#     is told the apt-get command and the script goes on.
#  2. The GoNB kernel and goimports, at the versions the tool lines of
#     go.mod pin, built into .tools/bin/ (ignored by git); and Go's build
#     cache warmed with the packages the notebooks import.
#  3. The kernel, installed for the current user
#     (~/.local/share/jupyter/kernels/gonb, or $JUPYTER_DATA_DIR) with this
#     repository in every new notebook's go.work, so that a notebook
#     imports github.com/levlab/levlab/... from this checkout.
#
# Usage: bash scripts/setup-notebooks.sh [--open]
#   --open  then start jupyter-notebook on notebooks/ (what `make
#           notebooks` runs).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=$root/.tools/bin

open=false
case ${1:-} in
"") ;;
--open) open=true ;;
*)
	echo "usage: $0 [--open]" >&2
	exit 2
	;;
esac

say() { echo "setup-notebooks: $*"; }

if ! command -v go >/dev/null 2>&1; then
	say "go is not on PATH; install Go 1.26 or later (https://go.dev/dl/)" >&2
	exit 1
fi

# 1. Debian packages.
pkgs=(jupyter-nbconvert jupyter-client python3-nbclient python3-ipykernel libjs-requirejs jupyter-notebook jupyter-nbformat python3-ipywidgets)
missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	say "Jupyter packages present"
elif ! command -v apt-get >/dev/null 2>&1; then
	say "no apt-get here; install these yourself: ${missing[*]}" >&2
elif [ "$(id -u)" -ne 0 ]; then
	say "not root, so not installing; run: sudo apt-get install ${missing[*]}" >&2
else
	export DEBIAN_FRONTEND=noninteractive
	say "missing: ${missing[*]}"
	echo "+ apt-get update"
	apt-get update -q
	echo "+ apt-get install ${missing[*]}"
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# 2. GoNB and goimports, as pinned by go.mod's tool lines. go build is
# quick when nothing changed (its cache holds the packages).
say "building gonb and goimports into .tools/bin"
mkdir -p "$tools"
(cd "$root" && go build -o "$tools/" github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports)
# Warm Go's build cache with what the notebooks import (nb and all below
# it), so that a fresh kernel's first cell links rather than compiles: on
# the 2-core AMD EPYC, 00-quickstart's first cell took 20 s on a cold cache
# and 2 s after this (a later cell: 1 s).
say "warming the build cache for the notebooks"
(cd "$root" && go build ./notebooks/nb)

# 3. The kernel. gonb and the notebooks it runs need go and goimports on
# PATH; the kernel spec records the gonb binary and this repository.
export PATH=$tools:$(dirname "$(command -v go)"):$PATH
if ! command -v jupyter >/dev/null 2>&1; then
	say "jupyter is not on PATH, so the kernel is not installed (see above)" >&2
	exit 0
fi
# The kernel's own log (klog) goes nowhere, so that the terminal running
# Jupyter does not show GoNB's "E… Error message" lines (a missing gopls,
# say) as if something failed: what a cell does wrong shows in the cell.
if ! log=$(gonb --install --force_deps --go_work="$root" --logtostderr=false --log_file=/dev/null --stderrthreshold=3 2>&1); then
	echo "$log" >&2
	say "gonb --install failed" >&2
	exit 1
fi
# Jupyter starts the kernel with its own environment: the kernel spec puts
# the tools and go in front of its PATH (jupyter_client fills in ${PATH}).
spec=${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}/kernels/gonb/kernel.json
python3 - "$spec" "$tools:$(dirname "$(command -v go)")" <<'PY'
import json, sys
path, tools = sys.argv[1], sys.argv[2]
with open(path) as f:
    spec = json.load(f)
spec.setdefault("env", {})["PATH"] = tools + ":${PATH}"
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
    f.write("\n")
PY
say "kernel gonb installed in $(dirname "$spec"), with go.work using $root"

# 4. Trust the committed notebooks for this user (Jupyter keeps the
# signatures in its data folder), so that they open trusted rather than
# "Not Trusted": they are committed without outputs, and what they show is
# what their own cells display.
jupyter trust "$root"/notebooks/*.ipynb >/dev/null
say "notebooks trusted for $(id -un)"

if $open; then
	if ! jupyter notebook --version >/dev/null 2>&1; then
		say "jupyter-notebook is not installed (see above)" >&2
		exit 1
	fi
	cd "$root/notebooks"
	args=()
	if [ "$(id -u)" -eq 0 ]; then
		args+=(--allow-root) # Jupyter refuses root without it (containers)
	fi
	exec jupyter notebook "${args[@]}"
fi
