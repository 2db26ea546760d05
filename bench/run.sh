#!/usr/bin/env bash
# Wall-time benchmarks: runs every workload RUNS (5) times and prints a
# Markdown table of the median, min and max of what the programs report
# (ns per operation, timed inside each program with clock_gettime after a
# warm-up round; peak RSS in MiB for "memory"; CPU time, wake-ups and
# latencies for "idle"; CPU time and elapsed time for "sync_block").
#
#   bench/run.sh [BUILD_DIR]     BUILD_DIR defaults to ../build next to this
#                                script; the programs are in BUILD_DIR/bench
#                                (or in BUILD_DIR itself). Builds nothing.
#   ONLY=REGEX bench/run.sh ...  only the rows whose program matches, e.g.
#                                ONLY=sync_ for the synchronization rows.
# Takes about 60 s on a 2-core machine (idle alone: ~20 s). sync_block runs
# min(RUNS, BLOCK_RUNS=3) times: its blocked-waiters row alone takes ~1.3 s.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh"
bench_bin "${1:-$here/../build}" || exit 1
RUNS=${RUNS:-5}
TIMEOUT=${TIMEOUT:-60}
BLOCK_RUNS=${BLOCK_RUNS:-3}

# case WORKLOAD PARAMS ROWS -- PROGRAM ARGS...
#   ROWS: space-separated KEY[:SUFFIX[:UNIT]], one table row per entry
#   ("_" in SUFFIX stands for a space)
case_() {
    local workload=$1 params=$2 rows=$3
    # ONLY=REGEX: run only the rows whose program name matches
    if [ -n "${ONLY:-}" ] && ! [[ $5 =~ $ONLY ]]; then return; fi
    shift 4
    local outs
    if ! outs=$(run_repeat "$RUNS" "$@"); then
        echo "| $workload | $params | $(tail -n1 <<<"$outs") | | |"
        return
    fi
    local row key suffix unit
    for row in $rows; do
        IFS=: read -r key suffix unit <<<"$row"
        local p=$params
        [ -n "$suffix" ] && p="$params, ${suffix//_/ }"
        local s
        s=$(while read -r o; do field "$key" "$o"; done <<<"$outs" | stats)
        [ -n "$unit" ] && s=$(sed "s|\([0-9.]\+\)|\1 $unit|g" <<<"$s")
        echo "| $workload | $p | $s |"
    done
}

echo "| workload | parameters | median ns/op | min | max |"
echo "|---|---|---|---|---|"
for n in 64 256 4096; do
    case_ "ULT fork-join" "N=$n, private pool" ns_per_op -- fork_join ult priv $n $((2097152 / n))
done
for n in 64 256 4096; do
    case_ "ULT fork-join" "N=$n, pool of ABT_init" ns_per_op -- fork_join ult init $n $((2097152 / n))
done
case_ "ULT fork-join" "N=256, private pool, 64 KiB stacks (attribute)" ns_per_op -- fork_join ult_64k priv 256 2048
for n in 64 256 4096; do
    case_ "tasklet fork-join" "N=$n, private pool" ns_per_op -- fork_join task priv $n $((4194304 / n))
done
case_ "tasklet fork-join" "N=256, pool of ABT_init" ns_per_op -- fork_join task init 256 16384
for n in 2 16 256; do
    case_ "yield" "N=$n ULTs, per yield" ns_per_op -- yield $n $((2097152 / n))
done
case_ "yield_to" "2 ULTs, per switch" ns_per_op -- yield_to 1048576
for d in 0 0.25 0.5 1.0; do
    case_ "deviation" "N=4096, D=$d, per ULT" ns_per_op -- deviation $d 4096 256
done
case_ "memory" "65536 live ULTs, 16 KiB stacks" "rss_mib:peak_RSS:MiB ns_per_op:create+free_ns/ULT" -- memory 65536
case_ "multi-ES fork-join" "E=1, N=256, per ULT per ES" ns_per_op -- multi_es 1 8192 256
case_ "multi-ES fork-join" "E=2, N=256, per ULT per ES" "ns_min:fastest_ES ns_max:slowest_ES" -- multi_es 2 8192 256
for p in predef new legacy; do
    case_ "user-pool fork-join" "N=256, pool $p, per ULT" ns_per_op -- user_pool fork_join $p 256 8192
done
for p in predef new legacy; do
    case_ "user-pool yield" "2 ULTs, pool $p, per yield" ns_per_op -- user_pool yield $p 1048576
done
case_ "idle" "2 ESs, BASIC_WAIT over FIFO_WAIT" \
    "cpu_us_per_s:CPU_time_of_the_process:us/s es_cpu_us_per_s:CPU_time_of_the_ES_threads:us/s wakeups_per_s:wake-ups_of_the_ES_threads:/s wake_us_median:wake-up_latency,_median:us wake_us_p99:wake-up_latency,_p99:us join_us_median:join_of_an_idle_ES,_median:us join_us_max:join_of_an_idle_ES,_max:us futex_wake_us_median:floor,_bare_futex_wake,_median:us futex_call_us_median:floor,_the_futex_wake_call_alone,_median:us wake1_us_median:wake-up_latency_of_one_ES_alone,_median:us" \
    -- idle
# Synchronization (sync_ops.c, sync_contend.c, sync_block.c)
for op in lock:mutex spinlock:spinlock trylock:trylock; do
    case_ "mutex, uncontended" "${op%%:*} + unlock, 1 ES, per pair" ns_per_op -- sync_ops "${op#*:}" 4194304
done
for op in ABT_key_set:key_set ABT_key_get:key_get ABT_self_get_thread:self_get_thread \
    ABT_thread_self:thread_self; do
    case_ "self query" "${op%%:*}, main ULT, per call" ns_per_op -- sync_ops "${op#*:}" 4194304
done
case_ "contended mutex" "2 ESs x 8 ULTs x 32768 increments, BASIC" \
    "ns_per_op:per_increment handovers:lock_passes_between_the_ESs_(count)" \
    -- sync_contend mutex 32768
for pp in eventual cond; do
    case_ "ping-pong" "$pp, 2 ESs, BASIC (polling), per round trip" ns_per_op \
        -- sync_contend pingpong-$pp 50000
    case_ "ping-pong" "$pp, 2 ESs, BASIC_WAIT + FIFO_WAIT, per round trip" ns_per_op \
        -- sync_contend pingpong-$pp --wait 20000
done
runs_saved=$RUNS
RUNS=$((RUNS < BLOCK_RUNS ? RUNS : BLOCK_RUNS))
case_ "blocked waiters" "100 ULTs in cond_wait on a BASIC_WAIT ES + a pthread in eventual_wait, 1 s (runs: $RUNS)" \
    "cpu_us:CPU_time_of_the_process:us others_cpu_us:CPU_time_of_the_threads_but_main:us" \
    -- sync_block blocked
case_ "cond_timedwait" "50 ms timeout, main ULT, primary ES on BASIC_WAIT (runs: $RUNS)" \
    "elapsed_ms_median:elapsed,_median_of_5_calls:ms cpu_us_median:CPU_time,_median_of_5_calls:us" \
    -- sync_block timedwait wait
case_ "cond_timedwait" "50 ms timeout, main ULT, default (polling) scheduler (runs: $RUNS)" \
    "elapsed_ms_median:elapsed,_median_of_5_calls:ms cpu_us_median:CPU_time,_median_of_5_calls:us" \
    -- sync_block timedwait default
RUNS=$runs_saved
