#!/usr/bin/env bash
# Build bobbin and run the whole test suite (ctest, 2 jobs per usable CPU), once
# per threading technique (ABT_THREAD_TECHNIQUE, src/unit/technique.c):
# TECHNIQUES="roc full-l" picks some; by default, all of them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/lib.sh"
ensure_packages cc:gcc cmake:cmake make:make valgrind:valgrind gdb:gdb pkg-config:pkgconf
BUILD="${BUILD_DIR:-$ROOT/build}"
build_into "$BUILD" ${CMAKE_ARGS:-}
JOBS=$(( $(usable_cpus) * 2 ))
echo "== $JOBS test jobs at a time: $(nproc) CPUs seen, $(usable_cpus) usable =="
for technique in ${TECHNIQUES:-full full-l roc roc-l ss ss-l sc auto}; do
    echo "== the suite with ABT_THREAD_TECHNIQUE=$technique =="
    ABT_THREAD_TECHNIQUE=$technique ctest --test-dir "$BUILD" -j"$JOBS" \
        --output-on-failure
done
