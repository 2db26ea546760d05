#!/usr/bin/env bash
# Instructions per operation under callgrind, the PEERS.md way: each workload
# runs at two iteration counts, and
#   instr/op = (Ir(big) - Ir(small)) / (ops(big) - ops(small))
# where Ir is the "totals:" line of the callgrind output (all threads) and ops
# is what the program reports (ops_all for multi_es: ULTs on all ESs).
# Start-up, warm-up and shutdown cancel out. --fair-sched=yes: valgrind runs
# one thread at a time, and without it a polling ES can keep the lock for
# thousands of time slices, which makes multi-ES counts random. Prints a
# Markdown table with the
# Argobots 1.2 numbers from PEERS.md for comparison.
#
#   bench/callgrind.sh [BUILD_DIR]   BUILD_DIR defaults to ../build next to
#                                    this script; programs in BUILD_DIR/bench.
#   ONLY=REGEX bench/callgrind.sh ...  only the rows whose program matches.
# Takes about 30 s on a 2-core machine.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh"
bench_bin "${1:-$here/../build}" || exit 1
command -v valgrind >/dev/null || { echo "valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }
TIMEOUT=${TIMEOUT:-300}
cg_dir=$(mktemp -d)
trap 'rm -rf "$cg_dir"' EXIT

# case_ WORKLOAD PARAMS REFERENCE "SMALL ARGS" "BIG ARGS" PROGRAM
case_() {
    local workload=$1 params=$2 ref=$3 small=$4 big=$5 prog=$6 v
    # ONLY=REGEX: run only the rows whose program name matches
    if [ -n "${ONLY:-}" ] && ! [[ $prog =~ $ONLY ]]; then return; fi
    if ! v=$(cg_per_op "$small" "$big" "$prog"); then
        echo "| $workload | $params | FAILED ($(cat "$cg_dir"/cg.*.err 2>/dev/null | grep -v '^==' | tail -n1 | cut -c1-70)) | $ref |"
        return
    fi
    echo "| $workload | $params | $v | $ref |"
}

echo "| workload | parameters | bobbin instr/op | Argobots 1.2 (PEERS.md) |"
echo "|---|---|---|---|"
for n_ in 64 256 4096; do
    ref=; [ $n_ = 256 ] && ref=506.5
    case_ "ULT fork-join" "N=$n_, private pool, per ULT" "$ref" "ult priv $n_ 20" "ult priv $n_ 40" fork_join
done
case_ "ULT fork-join" "N=256, private pool, ABT_thread_free_many, per ULT" "" "ult_many priv 256 20" "ult_many priv 256 40" fork_join
case_ "ULT fork-join" "N=1, private pool, per ULT" "" "ult priv 1 2000" "ult priv 1 4000" fork_join
case_ "ULT fork-join" "N=256, pool of ABT_init, per ULT" 510.4 "ult init 256 20" "ult init 256 40" fork_join
case_ "ULT fork-join" "N=256, private pool, 64 KiB stacks (attribute), per ULT" "" "ult_64k priv 256 20" "ult_64k priv 256 40" fork_join
for n_ in 64 256 4096; do
    ref=; [ $n_ = 256 ] && ref=328.4
    case_ "tasklet fork-join" "N=$n_, private pool, per tasklet" "$ref" "task priv $n_ 20" "task priv $n_ 40" fork_join
done
case_ "tasklet fork-join" "N=256, pool of ABT_init, per tasklet" "" "task init 256 20" "task init 256 40" fork_join
case_ "yield" "N=2, per yield" 180.6 "2 2000" "2 4000" yield
case_ "yield" "N=16, per yield" 180.6 "16 250" "16 500" yield
case_ "yield" "N=256, per yield" 180.6 "256 20" "256 40" yield
case_ "yield_to" "2 ULTs, per switch" 170.0 "2000" "4000" yield_to
case_ "deviation" "N=4096, D=0, per ULT" 508.8 "0 4096 10" "0 4096 20" deviation
case_ "deviation" "N=4096, D=0.25, per ULT" 471.2 "0.25 4096 10" "0.25 4096 20" deviation
case_ "deviation" "N=4096, D=0.5, per ULT" 543.6 "0.5 4096 10" "0.5 4096 20" deviation
case_ "deviation" "N=4096, D=1.0, per ULT" 688.3 "1.0 4096 10" "1.0 4096 20" deviation
# The same workload under each threading technique (ABT_THREAD_TECHNIQUE):
# report.sh's figure 6 has every D.
for t_ in full full-l roc roc-l ss ss-l sc auto; do
    for d_ in 0 1.0; do
        BENCH_ENV="ABT_THREAD_TECHNIQUE=$t_" case_ "deviation, technique $t_" "N=4096, D=$d_, per ULT" "" \
            "$d_ 4096 10" "$d_ 4096 20" deviation
    done
done
# Valgrind runs out of address-space segments (VG_N_SEGMENTS) past ~10,000
# live ULTs: bobbin maps each stack separately, with a guard page.
case_ "memory" "N live ULTs (4096 vs 8192), create + free, per ULT" "" "4096" "8192" memory
case_ "multi-ES fork-join" "E=1, N=256, per ULT" "" "1 20 256" "1 40 256" multi_es
case_ "multi-ES fork-join" "E=2, N=256, per ULT (both ESs)" "" "2 20 256" "2 40 256" multi_es
# The same shapes through user-defined pools (user_pool.c); the predefined
# pool's rows repeat fork_join priv / yield N=2 under this program.
for p_ in predef new legacy; do
    ref=; [ $p_ = predef ] && ref=506.5
    case_ "user-pool fork-join" "N=256, pool $p_, per ULT" "$ref" "fork_join $p_ 256 20" "fork_join $p_ 256 40" user_pool
done
for p_ in predef new legacy; do
    ref=; [ $p_ = predef ] && ref=180.6
    case_ "user-pool yield" "2 ULTs, pool $p_, per yield" "$ref" "yield $p_ 2000" "yield $p_ 4000" user_pool
done
# Synchronization calls and self queries from the main ULT (sync_ops.c): per
# iteration, the loop and the return checks included, as PEERS.md counts.
case_ "mutex, uncontended" "ABT_mutex_lock + unlock, per pair" 78 "mutex 100000" "mutex 200000" sync_ops
case_ "mutex, uncontended" "ABT_mutex_spinlock + unlock, per pair" 62 "spinlock 100000" "spinlock 200000" sync_ops
case_ "mutex, uncontended" "ABT_mutex_trylock + unlock, per pair" 60 "trylock 100000" "trylock 200000" sync_ops
case_ "self query" "ABT_key_set, per call" 55 "key_set 100000" "key_set 200000" sync_ops
case_ "self query" "ABT_key_get, per call" 38 "key_get 100000" "key_get 200000" sync_ops
case_ "self query" "ABT_self_get_thread, per call" 19 "self_get_thread 100000" "self_get_thread 200000" sync_ops
case_ "self query" "ABT_thread_self, per call" 22 "thread_self 100000" "thread_self 200000" sync_ops
