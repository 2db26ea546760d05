#!/usr/bin/env bash
# Which lines of the library the test suite never runs. Builds bobbin with
# gcov's counters into build-coverage (BUILD_DIR), runs the suite under a
# few threading techniques (TECHNIQUES) and once with the shortcuts off,
# and writes build-coverage/coverage.txt: the count of lines never run per
# source file, then each such line. A line never run is either a behaviour
# no test checks (write the test), or code nothing can reach (remove it).
# Lines that run only in a process that then crashes (the fault handler,
# src/os/linux/os_overflow.c) or only under ThreadSanitizer or valgrind
# (src/unit/fibers.c) are listed too: gcov cannot see them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/lib.sh"
ensure_packages cc:gcc gcov:gcc cmake:cmake make:make valgrind:valgrind gdb:gdb \
    pkg-config:pkgconf
BUILD="${BUILD_DIR:-$ROOT/build-coverage}"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug -DBOBBIN_BUILD_BENCH=OFF \
    -DCMAKE_C_FLAGS="--coverage -fprofile-update=atomic" \
    -DCMAKE_EXE_LINKER_FLAGS=--coverage -DCMAKE_SHARED_LINKER_FLAGS=--coverage >/dev/null
cmake --build "$BUILD" -j"$(usable_cpus)"
find "$BUILD" -name '*.gcda' -delete
JOBS=$(( $(usable_cpus) * 2 ))

# install_package links the static library into a program built without
# gcov's run-time library: it cannot link in this build.
run_suite() {
    echo "== the suite with $* =="
    env "$@" ctest --test-dir "$BUILD" -j"$JOBS" -E '^install_package$' >/dev/null ||
        echo "   (some tests failed: $BUILD/Testing/Temporary/LastTestsFailed.log)"
}
for technique in ${TECHNIQUES:-auto full sc roc-l ss}; do
    run_suite ABT_THREAD_TECHNIQUE="$technique"
done
run_suite ABT_OPT_FAST_CREATE_FREE=0 ABT_OPT_JOIN_BYPASS=0 ABT_OPT_DIRECT_YIELD=0

# gcov writes one report per source file, headers included, so each object
# gets a directory of its own; a line counts as run if any object ran it.
GCOV_DIR="$BUILD/gcov"
rm -rf "$GCOV_DIR"
mkdir -p "$GCOV_DIR"
n=0
while IFS= read -r gcda; do
    n=$((n + 1))
    mkdir "$GCOV_DIR/$n"
    (cd "$GCOV_DIR/$n" && gcov -p -o "$(dirname "$gcda")" "$gcda" >/dev/null 2>&1) || true
done < <(find "$BUILD/CMakeFiles/abt_objects.dir" -name '*.gcda')

find "$GCOV_DIR" -name '*#src#*.gcov' -print0 | xargs -0 awk '
    FNR == 1 {
        file = FILENAME
        sub(/.*#src#/, "src/", file)
        sub(/\.gcov$/, "", file)
        gsub(/#/, "/", file)
    }
    {
        # "  count:  line:text", count "-" (no code), "#####" (never run)
        colon = index($0, ":")
        count = substr($0, 1, colon - 1)
        rest = substr($0, colon + 1)
        colon = index(rest, ":")
        line = substr(rest, 1, colon - 1) + 0
        gsub(/[ *]/, "", count)
        if (line == 0 || count == "-")
            next
        key = file ":" line
        text[key] = substr(rest, colon + 1)
        if (count == "#####" || count == "=====") {
            if (!(key in ran))
                ran[key] = 0
        } else {
            ran[key] = 1
        }
    }
    END {
        for (key in ran) {
            split(key, part, ":")
            lines[part[1]]++
            if (!ran[key]) {
                missed[part[1]]++
                print "L " key ":" text[key]
            }
        }
        for (file in lines)
            printf "F %6d of %6d  %s\n", missed[file] + 0, lines[file], file
    }' | sort -t: -k1,1 -k2,2n > "$GCOV_DIR/merged"

{
    echo "Lines never run by the suite, per file (of the lines with code):"
    grep '^F ' "$GCOV_DIR/merged" | cut -c3- | sort -rn
    echo
    grep '^L ' "$GCOV_DIR/merged" | cut -c3-
} > "$BUILD/coverage.txt"
awk '/^ *[0-9]+ of/ { m += $1; t += $3 } END { printf "%d of %d lines never run\n", m, t }' \
    "$BUILD/coverage.txt"
echo "details: $BUILD/coverage.txt"
