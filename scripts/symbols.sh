#!/usr/bin/env bash
# Compare the symbols libabt.so exports with the 266 that Argobots 1.2 exports.
#   scripts/symbols.sh [build-dir] [symbol-list]
# Prints the counts, any exported symbol that is not an Argobots one (there
# must be none), and the Argobots symbols not exported yet, by group.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
LIST="${2:-$ROOT/scripts/abt-symbols.txt}"
exported=$(nm -D --defined-only "$BUILD/libabt.so" | awk '{print $3}' | sort -u)
expected=$(sort -u "$LIST")
echo "exported: $(echo "$exported" | grep -c .) symbols; Argobots 1.2 exports $(echo "$expected" | grep -c .)"
extra=$(comm -23 <(echo "$exported") <(echo "$expected"))
if [ -n "$extra" ]; then
    echo "exported but not an Argobots 1.2 symbol:"
    echo "$extra" | sed 's/^/  /'
fi
missing=$(comm -13 <(echo "$exported") <(echo "$expected"))
# Which issue brings each missing symbol.
show() {
    local label="$1" pattern="$2" names
    names=$(echo "$missing" | grep -E "$pattern" || true)
    [ -n "$names" ] && echo "  $label ($(echo "$names" | grep -c .)): $(echo "$names" | tr '\n' ' ')"
    missing=$(echo "$missing" | grep -vE "$pattern" || true)
}
if [ -n "$missing" ]; then
    echo "not exported yet:"
    show "schedulers, pools, migration (#3)" '^ABT_(sched|pool|unit)_|^ABT_thread_migrate'
    show "synchronization, keys, timers (#4)" '^ABT_(mutex|cond|rwlock|barrier|xstream_barrier|future|eventual|key|timer)_|_specific$|^ABT_get_wtime$'
    show "introspection, tools (#5)" '^ABT_(info|tool|error)_'
    show "other" '.'
fi
