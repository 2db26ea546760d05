#!/usr/bin/env bash
# Test of scripts/bobbin-gdb.py with gdb in batch mode (registered with ctest
# as gdb_script):
#   1. live: run PROGRAM (tests/gdb/gdb_states.c) to its checkpoint, check the
#      script's listing and backtraces, save a core (gcore), then let the
#      program finish: it must exit 0, so nothing of it was disturbed;
#   2. core: the same checks on PROGRAM + that core.
# The checks themselves run inside gdb: tests/gdb/check_states.py.
#
# usage: run_gdb_test.sh PROGRAM SCRIPT WORKDIR [--no-core REASON]
# Exit status: 0 pass, 1 fail, 77 skip (ctest SKIP_RETURN_CODE).
set -uo pipefail

PROGRAM="$1"
SCRIPT="$2"
WORKDIR="$3"
NO_CORE_REASON=""
if [ "${4:-}" = "--no-core" ]; then
    NO_CORE_REASON="${5:-}"
fi
HERE="$(cd "$(dirname "$0")" && pwd)"
GDB="${GDB:-gdb}"

if ! command -v "$GDB" >/dev/null 2>&1; then
    # A failure, not a skip: CI installs gdb (scripts/test.sh).
    echo "FAIL: gdb not found (Debian: apt-get install gdb)"
    exit 1
fi
if [ "$(uname -m)" != "x86_64" ]; then
    echo "SKIP: the script unwinds saved contexts on x86-64 only"
    exit 77
fi

mkdir -p "$WORKDIR"
CORE="$WORKDIR/gdb_states.core"
rm -f "$CORE"
trap 'rm -f "$CORE"' EXIT

# gcore writes every mapping, even inaccessible reservations: never let a core
# grow past 2 GiB (this program's is about 150 MB). Past the limit the write
# fails with EFBIG (gdb must not die of SIGXFSZ) and the test fails.
ulimit -f $((2 * 1024 * 1024))
trap '' XFSZ

# LeakSanitizer cannot work under ptrace: it would abort the program at exit.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

export BOBBIN_GDB_SCRIPT="$SCRIPT"
export BOBBIN_GDB_CORE="$CORE"
export BOBBIN_GDB_NO_CORE="$NO_CORE_REASON"

status=0

run_gdb() { # MODE, then gdb's arguments
    local mode="$1"
    shift
    echo "==== $mode: $GDB -batch -nx -x check_states.py $*"
    local out
    out="$(BOBBIN_GDB_MODE="$mode" "$GDB" -batch -nx -x "$HERE/check_states.py" "$@" 2>&1 </dev/null)"
    echo "$out"
    if grep -q "ptrace: Operation not permitted" <<<"$out"; then
        echo "SKIP: this environment forbids ptrace, so gdb cannot run the program"
        exit 77
    fi
    if ! grep -q "^BOBBIN-GDB-CHECK: PASS ($mode)" <<<"$out"; then
        echo "FAIL: the $mode checks did not pass"
        status=1
    fi
}

run_gdb live "$PROGRAM"
if [ -n "$NO_CORE_REASON" ]; then
    echo "==== core: not checked in this build: $NO_CORE_REASON"
elif [ -s "$CORE" ]; then
    run_gdb core "$PROGRAM" "$CORE"
else
    echo "FAIL: the live session saved no core file"
    status=1
fi
exit $status
