#!/usr/bin/env bash
# Build bobbin and run the whole test suite (ctest, 2 jobs per core).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/lib.sh"
ensure_packages cc:gcc cmake:cmake make:make valgrind:valgrind gdb:gdb
BUILD="${BUILD_DIR:-$ROOT/build}"
build_into "$BUILD" ${CMAKE_ARGS:-}
ctest --test-dir "$BUILD" -j"$(( $(nproc) * 2 ))" --output-on-failure
