#!/usr/bin/env bash
# Build bobbin, run the paper's hello world, then the headline benchmarks
# (nanoseconds per operation, median of 5 runs).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/lib.sh"
ensure_packages cc:gcc cmake:cmake make:make valgrind:valgrind
build_into "$ROOT/build"
echo
echo "== examples/hello_world: 4 execution streams, one tasklet each =="
"$ROOT/build/examples/hello_world"
echo
echo "== benchmarks (ns per operation; instruction counts: bench/callgrind.sh) =="
"$ROOT/bench/run.sh" "$ROOT/build"
