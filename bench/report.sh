#!/usr/bin/env bash
# The benchmark report of issue #6: runs the benchmarks and writes
# bench/results/REPORT.md plus one PNG per figure (gnuplot; without it, the
# tables only). Every figure is also a Markdown table.
#
#   bench/report.sh [BUILD_DIR]   BUILD_DIR defaults to ../build next to this
#                                 script; programs in BUILD_DIR/bench (or in
#                                 BUILD_DIR itself). Builds nothing.
#   QUICK=1 bench/report.sh ...   fewer runs and iterations: about 2.5
#                                 minutes instead of about 6.5 on 2 CPUs (for
#                                 testing the report, not for numbers)
#   RUNS=N, OUT=DIR               runs per wall-time measurement (9, QUICK 3);
#                                 output directory (bench/results)
#   TIMEOUT=S                     seconds one program run may take, under
#                                 valgrind too (120); past it, a FAILED cell
#
# Wall times: the median, min and max of RUNS runs of what the program
# reports (ns per operation, timed inside it with clock_gettime after a
# warm-up round). Instructions: callgrind at two iteration counts,
# (Ir(big) - Ir(small)) / (ops(big) - ops(small)), as callgrind.sh.
set -uo pipefail

# ---- Figure 2: the optimization steps ------------------------------------
# One line per step, one bar each, "label|VAR=value VAR2=value ...": the
# assignments (separated by spaces, no space inside a value) are set for that
# step's runs only, the wall-time runs and the callgrind runs of
# fork_join ult priv 256 alike. Every variable that any step names is unset
# for all other runs (the other steps and figures 1, 3-5 get the library's
# defaults), so a step is exactly its own assignments. Cumulative steps,
# the first with every optimization switched off, each later one switching
# one more back on by leaving its variable out:
#   "baseline|ABT_OPT_FAST_CREATE_FREE=0 ABT_OPT_JOIN_BYPASS=0"
#   "+ fast create|ABT_OPT_JOIN_BYPASS=0"
#   "+ join bypass|"
STEPS=(
    "general path only|ABT_OPT_FAST_CREATE_FREE=0 ABT_OPT_JOIN_BYPASS=0 ABT_OPT_DIRECT_YIELD=0"
    "+ inline create/free|ABT_OPT_JOIN_BYPASS=0 ABT_OPT_DIRECT_YIELD=0"
    "+ join bypass|ABT_OPT_DIRECT_YIELD=0"
    "+ direct yield|"
)

# ---- Parameters ------------------------------------------------------------
PHASE_NS="64 256 1024 4096 16384 65536" # figure 1
ES_LIST="1 2"                            # figure 3; multi_es takes any E
YIELD_NS="2 16 256 4096"                 # figure 4
PTHREAD_NS="64 256"                      # figure 5
# Figures 6-9 run once per name in TECHNIQUES, as ABT_THREAD_TECHNIQUE; any
# names work (a name the library does not know: it warns and runs "auto").
TECHNIQUES="full full-l roc roc-l ss ss-l sc auto" # figures 6-9 (ABT_THREAD_TECHNIQUE)
DEVIATIONS="0 0.01 0.1 0.25 0.5 1"       # figure 6
FJ_NS="64 256 1024 4096 16384"           # figure 7 (N at D = 0 and D = 1)
MEM_N=65536                              # figure 8 (live ULTs)
MEM_DEVIATIONS="0 0.1 0.5 1"             # figure 8
FIB_N=20                                 # figure 9: fib(FIB_N), 21,890 ULTs a round
KMEANS_RS="1 4 16 64"                    # figure 9: replicas per cluster
KMEANS_POINTS=8192                       # figure 9: ULTs per KMeans iteration

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench_lib.sh
. "$here/bench_lib.sh"
build=$(cd "${1:-$here/../build}" 2>/dev/null && pwd) || {
    echo "report.sh: no build directory ${1:-$here/../build}" >&2
    exit 1
}
bench_bin "$build" || exit 1
BENCH_ENV= # set per step below, for figure 2's runs only
step_vars=
for step in "${STEPS[@]}"; do
    if [[ $step != *"|"* || -z ${step%%|*} ]]; then
        echo "report.sh: STEPS entry '$step' is not \"label|VAR=value ...\"" >&2
        exit 1
    fi
    env_check "${step#*|}" || exit 1
    read -ra assignments <<<"${step#*|}"
    for a in "${assignments[@]}"; do
        v=${a%%=*}
        [[ " $step_vars " == *" $v "* ]] && continue
        step_vars+=" $v"
        [ -n "${!v+set}" ] &&
            echo "report.sh: $v=${!v} from the environment is ignored (the STEPS set it)" >&2
        unset "$v"
    done
done
[ -x "$bin/phases" ] && [ -x "$bin/pthreads" ] && [ -x "$bin/fib" ] && [ -x "$bin/kmeans" ] || {
    echo "report.sh: $bin lacks phases, pthreads, fib or kmeans: rebuild" >&2
    exit 1
}
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
    RUNS=${RUNS:-3}
    PHASE_OPS=32768  # units per timed loop, phases (at least 2 rounds)
    OPS=65536        # units per worker and timed loop, fork_join / multi_es
    SWITCHES=524288  # switches per timed loop, yield programs
    PT_THREADS=512   # threads per timed loop, pthreads fork-join
    PT_ROUNDS=20000  # round trips, sched_yield ping-pong
    FIB_REPS=4       # timed rounds of fib(FIB_N)
    KMEANS_ITERS=4   # timed KMeans iterations
else
    # About 6.5 minutes on 2 cores, 2.5 of them figures 7-9 (figure 7's
    # callgrind runs the most). phases with N >= 16384 ULTs is the long
    # part: ~9 us per ULT today, 2.4 s per run.
    RUNS=${RUNS:-9}
    PHASE_OPS=262144
    OPS=1048576
    SWITCHES=8388608
    PT_THREADS=2560
    PT_ROUNDS=100000
    FIB_REPS=40
    KMEANS_ITERS=20
fi
MEM_RUNS=$((RUNS < 3 ? RUNS : 3)) # figure 8: peak RSS hardly varies
TIMEOUT=${TIMEOUT:-120}
out=${OUT:-$here/results}
mkdir -p "$out" || exit 1
cg_dir=$(mktemp -d)
data=$(mktemp -d)
trap 'rm -rf "$cg_dir" "$data"' EXIT
have_cg=1
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || have_cg=0
have_gp=1
command -v gnuplot >/dev/null || {
    have_gp=0
    echo "report.sh: gnuplot is not installed (Debian: gnuplot-nox): writing the tables without plots" >&2
}
ulimit -c 0 # a crashing benchmark must not leave a core dump
start=$SECONDS

log() { echo "report.sh [$((SECONDS - start)) s] $*" >&2; }
max() { echo $(($1 > $2 ? $1 : $2)); }

# msum KEY OUTS: "median min max" of KEY over the result lines in OUTS
msum() {
    local s
    s=$(while read -r o; do field "$1" "$o"; done <<<"$2" | stats)
    awk -F' [|] ' '{ print $1, $2, $3 }' <<<"$s"
}
# cell "median min max": "median (min–max)" for a table
cell() {
    local a b c
    read -r a b c <<<"$1"
    echo "$a ($b–$c)"
}

# plot NAME TITLE: runs the gnuplot script on stdin into $out/NAME.png and
# prints the Markdown image link (nothing without gnuplot or on failure)
plot() {
    local name=$1 title=$2 script
    script=$(cat)
    [ "$have_gp" = 1 ] || return 0
    if gnuplot <<GP 2>"$data/$name.gp.err"; then
set terminal pngcairo size 1200,600 noenhanced font ",10"
set output "$out/$name.png"
set datafile separator "\t"
set grid
$script
GP
        echo
        echo "![$title]($name.png)"
    else
        echo "report.sh: gnuplot failed for $name: $(tail -n1 "$data/$name.gp.err")" >&2
    fi
}

rep=$out/REPORT.md.tmp
exec 3>"$rep"
md() { echo "$@" >&3; }
# failed_row NCOLS OUTS CELL...: a table row of the CELLs, then the failure
# (the last line of run_repeat's OUTS), then empty cells up to NCOLS
failed_row() {
    local ncols=$1 outs=$2 row="|" c i
    shift 2
    for c in "$@" "$(tail -n1 <<<"$outs")"; do row+=" $c |"; done
    for ((i = $# + 1; i < ncols; i++)); do row+=" |"; done
    md "$row"
}
# num X: X when it is a number, else NaN (a missing point for gnuplot)
num() { [[ $1 =~ ^-?[0-9]+([.][0-9]+)?$ ]] && echo "$1" || echo NaN; }

# ---- Header -----------------------------------------------------------------
src=$here/..
if [ -f "$build/CMakeCache.txt" ]; then
    s=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
    [ -n "$s" ] && src=$s
fi
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
dirty=
[ -n "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] &&
    dirty=" (with uncommitted changes)"
lib=$(ldd "$bin/fork_join" 2>/dev/null | awk '/libabt/ { print $3; exit }')
md "# bobbin benchmark report (issue #6)"
md
md "| | |"
md "|---|---|"
md "| machine | $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1) |"
md "| kernel | $(uname -sr) |"
md "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
md "| tree measured | \`$commit\`$dirty ($src) |"
md "| programs | \`$bin\`, library \`${lib:-static or unknown}\` |"
md "| mode | $([ "$QUICK" = 1 ] && echo "QUICK=1 (short runs, for testing)" || echo full), $RUNS runs per wall time |"
md
md "Generated by \`bench/report.sh\`. Wall times are the median of $RUNS runs,"
md "with the min and max in parentheses (ns; each run times its own loop with"
md "\`clock_gettime(CLOCK_MONOTONIC)\` after a warm-up round). Instruction"
md "counts are exact: user-mode instructions from callgrind (\`--fair-sched=yes\`),"
md "per operation, from the difference of two iteration counts (start-up,"
md "warm-up and shutdown cancel out; see \`bench/callgrind.sh\`). Wall times on"
md "these shared VMs drift by up to 2x between runs: compare instructions."
md "Argobots 1.2 figures come from \`shared/PEERS.md\` (\`--enable-perf-opt\`,"
md "measured on the same kind of VM), where a workload matches."
[ "$have_cg" = 1 ] || md "" "valgrind or callgrind_annotate is missing: no instruction counts."
[ "$have_gp" = 1 ] || md "" "gnuplot is not installed: tables only, no plots."

# ---- Figure 1: create / join / free per unit vs N ----------------------------
log "figure 1: phases"
md
md "## 1. Create, join and free per unit vs number of units"
md
md "\`phases KIND N REPS\`: the main ULT, alone on the primary ES with a private"
md "FIFO pool (\`ABT_POOL_ACCESS_PRIV\`, basic scheduler, as \`fork_join ... priv\`),"
md "creates N units with empty bodies (ULTs: default attributes, 16 KiB"
md "stacks), then joins all N (\`ABT_thread_join\` / \`ABT_task_join\`: the units"
md "run here), then frees all N (\`ABT_thread_free\` / \`ABT_task_free\`). Each"
md "phase is timed on its own; REPS = max(2, $PHASE_OPS / N) rounds after one"
md "untimed round; $RUNS runs. ns per unit, median (min–max). Instructions: the"
md "inclusive count of the create and free phases (functions of their own,"
md "no context switch inside) from the callgrind profile; join = total minus"
md "the two (it includes the four clock reads per round, < 1 per unit at N ≥ 64)."
md "Under valgrind only 1,024 stacks get a guard page (valgrind's table of"
md "mappings is small); the others come from 2 MiB slabs, 128 to a mapping."
md "Past N ≈ 16,000 stacks have no guard page (the kernel's mapping budget)"
md "and come from slabs too."
md
md "| unit | N | REPS | create ns | join ns | free ns | total ns | create instr | join instr | free instr | total instr |"
md "|---|---|---|---|---|---|---|---|---|---|---|"
for kind in ult task; do
    : >"$data/phases_$kind.tsv"
    for n in $PHASE_NS; do
        reps=$(max 2 $((PHASE_OPS / n)))
        if ! outs=$(run_repeat "$RUNS" phases $kind $n $reps); then
            failed_row 11 "$outs" $kind $n $reps
            continue
        fi
        c=$(msum create_ns "$outs") j=$(msum join_ns "$outs") f=$(msum free_ns "$outs")
        t=$(msum ns_per_op "$outs")
        # each of c j f t is "median min max": ${x// /<tab>} makes three TSV columns
        printf '%s\t%s\t%s\t%s\t%s\n' "$n" "${c// /$'\t'}" "${j// /$'\t'}" "${f// /$'\t'}" \
            "${t// /$'\t'}" >>"$data/phases_$kind.tsv"
        ci=– ji=– fi_=– ti=–
        if [ "$have_cg" = 1 ]; then
            small=$(max 2 $((4096 / n)))
            if ti=$(cg_per_op "$kind $n $small" "$kind $n $((2 * small))" phases); then
                d=$((n * small)) # ops(big) - ops(small)
                c1=$(cg_inclusive "$cg_dir/cg.small" phase_create)
                c2=$(cg_inclusive "$cg_dir/cg.big" phase_create)
                f1=$(cg_inclusive "$cg_dir/cg.small" phase_free)
                f2=$(cg_inclusive "$cg_dir/cg.big" phase_free)
                if [ -n "$c1" ] && [ -n "$c2" ] && [ -n "$f1" ] && [ -n "$f2" ]; then
                    read -r ci fi_ ji < <(awk -v c1="$c1" -v c2="$c2" -v f1="$f1" -v f2="$f2" \
                        -v d="$d" -v t="$ti" 'BEGIN { c = (c2 - c1) / d; f = (f2 - f1) / d
                            printf "%.1f %.1f %.1f\n", c, f, t - c - f }')
                fi
            else
                ti=FAILED
            fi
        fi
        md "| $kind | $n | $reps | $(cell "$c") | $(cell "$j") | $(cell "$f") | $(cell "$t") | $ci | $ji | $fi_ | $ti |"
    done
done
md
md "Argobots 1.2 (PEERS.md), the closest workload (\`fork_join\`: create N, then"
md "free, which joins; no separate join), N = 256, private pool: ULTs 506.5"
md "instructions and 53–90 ns per ULT, tasklets 328.4 instructions and ~34 ns;"
md "N = 64, 256 and 4096 cost the same there."
plot fig1_phases "Figure 1: create / join / free per unit vs N" <<GP >&3
set multiplot layout 1,2 title "Figure 1: fork-join phases per unit vs N (median; bars: min-max of $RUNS runs)"
set logscale xy
set xlabel "N (units per round)"
set ylabel "ns per unit"
set key top left
set xtics ($(tr ' ' '\n' <<<"$PHASE_NS" | awk '{ printf "%s\"%s\" %s", (NR > 1 ? ", " : ""), $1, $1 }'))
set title "ULTs"
plot "$data/phases_ult.tsv" using 1:2:3:4 with yerrorlines title "create", \
     "" using 1:5:6:7 with yerrorlines title "join (units run)", \
     "" using 1:8:9:10 with yerrorlines title "free", \
     "" using 1:11:12:13 with yerrorlines title "total"
set title "tasklets"
plot "$data/phases_task.tsv" using 1:2:3:4 with yerrorlines title "create", \
     "" using 1:5:6:7 with yerrorlines title "join (units run)", \
     "" using 1:8:9:10 with yerrorlines title "free", \
     "" using 1:11:12:13 with yerrorlines title "total"
unset multiplot
GP

# ---- Figure 2: the optimization steps --------------------------------------
log "figure 2: optimization steps"
reps2=$((OPS / 256))
md
md "## 2. Effect of each optimization"
md
md "\`fork_join ult priv 256 $reps2\` (the main ULT creates 256 ULTs into a"
md "private pool, then frees them; per ULT), once per step with the step's"
md "environment variables set (and every variable another step names unset);"
md "$RUNS runs for the wall time, callgrind at 20 and 40 rounds for the"
md "instructions, both with the step's variables. The steps are the list"
md "\`STEPS\` at the top of \`bench/report.sh\`."
md
md "| step | environment | ns per ULT | instr per ULT |"
md "|---|---|---|---|"
: >"$data/steps.tsv"
i=0
for step in "${STEPS[@]}"; do
    label=${step%%|*}
    BENCH_ENV=${step#*|}
    ins=-
    if ! outs=$(run_repeat "$RUNS" fork_join ult priv 256 $reps2); then
        failed_row 4 "$outs" "$label" "\`${BENCH_ENV:-none}\`"
        continue
    fi
    t=$(msum ns_per_op "$outs")
    if [ "$have_cg" = 1 ]; then
        ins=$(cg_per_op "ult priv 256 20" "ult priv 256 40" fork_join) || ins=FAILED
    fi
    md "| $label | \`${BENCH_ENV:-none}\` | $(cell "$t") | $ins |"
    printf '%s\t"%s"\t%s\t%s\n' "$i" "$label" "${t// /$'\t'}" "$(num "$ins")" >>"$data/steps.tsv"
    i=$((i + 1))
done
md
md "Argobots 1.2 (PEERS.md), the same workload: 506.5 instructions, 53–90 ns per ULT."

# The same steps on the other critical-path workloads (tables only): a step
# may help one workload and cost another, e.g. the join bypass.
fig2_workload() { # TITLE UNIT "WALL ARGS" "CG SMALL" "CG BIG" PROGRAM
    local title=$1 unit=$2 wall=$3 small=$4 big=$5 prog=$6 step label outs t ins
    md
    md "$title, per $unit:"
    md
    md "| step | ns per $unit | instr per $unit |"
    md "|---|---|---|"
    for step in "${STEPS[@]}"; do
        label=${step%%|*}
        BENCH_ENV=${step#*|}
        ins=-
        # shellcheck disable=SC2086
        if ! outs=$(run_repeat "$RUNS" "$prog" $wall); then
            failed_row 3 "$outs" "$label"
            continue
        fi
        t=$(msum ns_per_op "$outs")
        if [ "$have_cg" = 1 ]; then
            ins=$(cg_per_op "$small" "$big" "$prog") || ins=FAILED
        fi
        md "| $label | $(cell "$t") | $ins |"
    done
}
fig2_workload "\`fork_join ult priv 1\` (create one ULT, free it at once)" ULT \
    "ult priv 1 $OPS" "ult priv 1 2000" "ult priv 1 4000" fork_join
fig2_workload "\`fork_join ult_many priv 256\` (the same, freed with one \`ABT_thread_free_many\`: with the join bypass on, the 256 ULTs run as one chain, 257 switches instead of 512, except on an ES under sc, auto's usual choice, where the scheduler calls them on its own stack once the caller waits)" ULT \
    "ult_many priv 256 $reps2" "ult_many priv 256 20" "ult_many priv 256 40" fork_join
fig2_workload "\`fork_join task priv 256\`" tasklet \
    "task priv 256 $reps2" "task priv 256 20" "task priv 256 40" fork_join
fig2_workload "\`fork_join task priv 1\`" tasklet \
    "task priv 1 $OPS" "task priv 1 2000" "task priv 1 4000" fork_join
fig2_workload "\`yield 16\` (16 ULTs yield in turn)" yield \
    "16 $((SWITCHES / 16))" "16 250" "16 500" yield
fig2_workload "\`yield_to\` (2 ULTs ping-pong)" switch \
    "$((SWITCHES / 2))" "2000" "4000" yield_to

# Free reserved huge pages of 2 MiB (vm.nr_hugepages), 0 if the system has none.
huge_pages_free() {
    cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0
}

# Large pages act where the caches do not: past the per-ES stack caches,
# stacks go back to the system and come again at every round, unless they
# live in large-page slabs (stacks without a guard page). Wall time only:
# instruction counts do not see page faults, system calls or TLB misses.
md
md "Memory regions and large pages (\`ABT_MEM_LP_ALLOC\`, \`ABT_STACK_OVERFLOW_CHECK\`):"
md "\`phases ult 65536 4\` (create 65,536 ULTs, join, free; per ULT), where"
md "most stacks have no guard page. \`malloc\`: one mapping per stack, as"
md "before slabs; \`mmap_rp\` (default): 2 MiB slabs of regular pages;"
md "\`thp\`: slabs on transparent huge pages; \`mmap_hp_rp\`: on the huge pages"
md "the system reserved ($(huge_pages_free) of 2 MiB free here when this table was"
md "made; once they run out, regular pages). Wall time only: instruction"
md "counts see neither system calls, page faults nor TLB misses."
md
md "| pages | stack guard pages | ns per ULT |"
md "|---|---|---|"
for lp in malloc mmap_rp thp mmap_hp_rp; do
    for guard in mprotect none; do
        BENCH_ENV="ABT_MEM_LP_ALLOC=$lp ABT_STACK_OVERFLOW_CHECK=$guard"
        if ! outs=$(run_repeat "$RUNS" phases ult 65536 4); then
            failed_row 3 "$outs" "$lp" "$guard"
            continue
        fi
        md "| \`$lp\` | \`$guard\` | $(cell "$(msum ns_per_op "$outs")") |"
    done
done
BENCH_ENV=
plot fig2_steps "Figure 2: effect of each optimization" <<GP >&3
set multiplot layout 1,2 title "Figure 2: fork_join ult priv 256, per ULT, one bar per step"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]
set xrange [-0.6:$i - 0.4]
set xtics rotate by -30 left
set title "wall time (median; bars: min-max of $RUNS runs)"
set ylabel "ns per ULT"
plot "$data/steps.tsv" using 1:3:xtic(2) with boxes notitle lc rgb "#4a7ebb", \
     "" using 1:3:4:5 with yerrorbars notitle lc rgb "black" pt -1
set title "instructions (callgrind); Argobots 1.2: 506.5"
set ylabel "instructions per ULT"
plot "$data/steps.tsv" using 1:6:xtic(2) with boxes notitle lc rgb "#bb7e4a", \
     506.5 title "Argobots 1.2" lc rgb "black" dt 2
unset multiplot
GP

# ---- Figure 3: multi-ES, private vs shared pools -----------------------------
log "figure 3: multi-ES"
reps3=$((OPS / 256))
md
md "## 3. Create + join per unit vs number of ESs, private vs shared pools"
md
md "\`multi_es E $reps3 256 KIND POOLS\`: one worker per ES (the main ULT on the"
md "primary ES) repeatedly creates 256 units with empty bodies and frees them"
md "(free joins), $reps3 timed rounds after one untimed, each worker timing"
md "its own rounds between two barriers. \`priv\`: every ES has its own FIFO"
md "pool with \`ABT_POOL_ACCESS_PRIV\` and each worker creates into its ES's"
md "pool. \`shared\`: one FIFO pool with \`ABT_POOL_ACCESS_MPMC\` under every ES's"
md "basic scheduler, every worker creating into it, so any ES may run any unit"
md "(the primary ES's scheduler also has an MPSC pool, first, holding only the"
md "main ULT). ns per unit per worker: the mean over the workers, and the"
md "fastest and the slowest worker (the tolerance figure's spread); each the"
md "median (min–max) of $RUNS runs. The machine has $(nproc) CPUs."
md
md "| unit | pools | E | mean ns | fastest ES ns | slowest ES ns |"
md "|---|---|---|---|---|---|"
for kind in ult task; do
    for pools in priv shared; do
        : >"$data/es_${kind}_$pools.tsv"
        for e in $ES_LIST; do
            if ! outs=$(run_repeat "$RUNS" multi_es $e $reps3 256 $kind $pools); then
                failed_row 6 "$outs" $kind $pools $e
                continue
            fi
            m=$(msum ns_mean "$outs") lo=$(msum ns_min "$outs") hi=$(msum ns_max "$outs")
            md "| $kind | $pools | $e | $(cell "$m") | $(cell "$lo") | $(cell "$hi") |"
            printf '%s\t%s\t%s\t%s\n' "$e" "${m%% *}" "${lo%% *}" "${hi%% *}" \
                >>"$data/es_${kind}_$pools.tsv"
        done
    done
done
md
md "Argobots 1.2 (PEERS.md), ULTs, private pools, 256 per round: 135–160 ns per"
md "ULT per ES for E = 1 and 2."
plot fig3_multi_es "Figure 3: create + join per unit vs number of ESs" <<GP >&3
set title "Figure 3: multi-ES fork-join, per unit per ES (points: mean over ESs; bars: fastest to slowest ES; medians of $RUNS runs)"
set xlabel "execution streams (E)"
set ylabel "ns per unit"
set yrange [0:*]
set xrange [0.5:$(( $(tr ' ' '\n' <<<"$ES_LIST" | sort -n | tail -n1) ))+0.5]
set xtics 1
set key top left
plot "$data/es_ult_priv.tsv" using (\$1-0.09):2:3:4 with yerrorlines title "ULT, private pools", \
     "$data/es_ult_shared.tsv" using (\$1-0.03):2:3:4 with yerrorlines title "ULT, one shared pool", \
     "$data/es_task_priv.tsv" using (\$1+0.03):2:3:4 with yerrorlines title "tasklet, private pools", \
     "$data/es_task_shared.tsv" using (\$1+0.09):2:3:4 with yerrorlines title "tasklet, one shared pool"
GP

# ---- Figure 4: yield and yield_to vs N ---------------------------------------
log "figure 4: yield and yield_to"
md
md "## 4. yield and yield_to vs number of ULTs"
md
md "\`yield N K\`: N ULTs on one ES (private FIFO pool, the main ULT one of"
md "them) each call \`ABT_thread_yield\` K times; per yield. \`yield_to M N\`: N"
md "ULTs on one ES pass control around a ring with \`ABT_thread_yield_to\`"
md "(ULT i to ULT i+1 mod N; N = 2 is a ping-pong), M rounds; per switch, the"
md "N-1 others waiting in the pool. K = M = $SWITCHES / N, $RUNS runs."
md "Instructions: callgrind at K (M) = max(2, 8192 / N) and twice that."
md
md "| operation | N | K or M | ns per switch | instr per switch |"
md "|---|---|---|---|---|"
for op in yield yield_to; do
    : >"$data/$op.tsv"
    for n in $YIELD_NS; do
        k=$(max 2 $((SWITCHES / n)))
        small=$(max 2 $((8192 / n)))
        if [ $op = yield ]; then
            args="$n $k" cs="$n $small" cb="$n $((2 * small))"
        else
            args="$k $n" cs="$small $n" cb="$((2 * small)) $n"
        fi
        # shellcheck disable=SC2086
        if ! outs=$(run_repeat "$RUNS" $op $args); then
            failed_row 5 "$outs" $op $n $k
            continue
        fi
        t=$(msum ns_per_op "$outs")
        ins=-
        if [ "$have_cg" = 1 ]; then
            ins=$(cg_per_op "$cs" "$cb" $op) || ins=FAILED
        fi
        md "| $op | $n | $k | $(cell "$t") | $ins |"
        printf '%s\t%s\t%s\n' "$n" "${t// /$'\t'}" "$(num "$ins")" >>"$data/$op.tsv"
    done
done
md
md "Argobots 1.2 (PEERS.md): yield 180.6 instructions and ~40 ns (N = 2, 16,"
md "256), yield_to 170.0 instructions and ~40 ns (2 ULTs)."
plot fig4_yield "Figure 4: yield and yield_to vs N" <<GP >&3
set multiplot layout 1,2 title "Figure 4: yield and yield_to on one ES, per switch"
set logscale x
set xlabel "N (ULTs)"
set xtics ($(tr ' ' '\n' <<<"$YIELD_NS" | awk '{ printf "%s\"%s\" %s", (NR > 1 ? ", " : ""), $1, $1 }'))
set key top left
set yrange [0:*]
set title "wall time (median; bars: min-max of $RUNS runs)"
set ylabel "ns per switch"
plot "$data/yield.tsv" using 1:2:3:4 with yerrorlines title "ABT_thread_yield", \
     "$data/yield_to.tsv" using 1:2:3:4 with yerrorlines title "ABT_thread_yield_to (ring)"
set title "instructions (callgrind)"
set ylabel "instructions per switch"
set key bottom right
plot "$data/yield.tsv" using 1:5 with linespoints title "ABT_thread_yield", \
     "$data/yield_to.tsv" using 1:5 with linespoints title "ABT_thread_yield_to (ring)", \
     180.6 title "Argobots 1.2 yield" dt 2 lc rgb "gray40", \
     170.0 title "Argobots 1.2 yield_to (N=2)" dt 3 lc rgb "gray20"
unset multiplot
GP

# ---- Figure 5: pthreads, for scale -------------------------------------------
log "figure 5: pthreads"
md
md "## 5. The same workloads with pthreads, for scale"
md
md "\`pthreads fork_join N REPS\`: the main thread creates N threads with empty"
md "bodies (default attributes), then joins them; REPS = $PT_THREADS / N rounds"
md "after one untimed; per thread. \`pthreads yield $PT_ROUNDS\`: two threads"
md "pinned to one CPU pass a turn back and forth, each waiting for it with"
md "\`sched_yield\`; per switch (time / 2 round trips). $RUNS runs. bobbin's"
md "numbers are those of figures 1 and 4 (create + join + free per unit;"
md "yield_to and yield with N = 2)."
md
md "| workload | pthreads ns | bobbin ULT ns | bobbin tasklet ns | pthreads / ULT |"
md "|---|---|---|---|---|"
: >"$data/pthreads.tsv"
# median of figure 1's or figure 4's TSV column COL at key N
tsv_median() { awk -F'\t' -v n="$2" -v c="$3" '$1 == n { print $c }' "$data/$1.tsv"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.0fx", a / b; else print "–" }'; }
for n in $PTHREAD_NS; do
    reps=$(max 2 $((PT_THREADS / n)))
    if ! outs=$(run_repeat "$RUNS" pthreads fork_join $n $reps); then
        failed_row 5 "$outs" "create + join, N=$n"
        continue
    fi
    t=$(msum ns_per_op "$outs")
    u=$(tsv_median phases_ult "$n" 11) k=$(tsv_median phases_task "$n" 11)
    md "| create + join, N=$n | $(cell "$t") | ${u:-–} | ${k:-–} | $(ratio "${t%% *}" "$u") |"
    printf '"%s"\t%s\t%s\t%s\n' "create+join, N=$n" "${t%% *}" "${u:-NaN}" "${k:-NaN}" >>"$data/pthreads.tsv"
done
if outs=$(run_repeat "$RUNS" pthreads yield $PT_ROUNDS); then
    t=$(msum ns_per_op "$outs")
    pinned=$(field pinned "$(head -n1 <<<"$outs")")
    ypsw=$(msum yields_per_switch "$outs")
    u=$(tsv_median yield_to 2 2) y=$(tsv_median yield 2 2)
    md "| switch: sched_yield ping-pong (pinned=$pinned, sched_yield calls per switch $(cell "$ypsw")) vs yield_to / yield, N=2 | $(cell "$t") | ${u:-–} / ${y:-–} | | $(ratio "${t%% *}" "$u") |"
    printf '"%s"\t%s\t%s\tNaN\n' "switch (yield_to, N=2)" "${t%% *}" "${u:-NaN}" >>"$data/pthreads.tsv"
else
    failed_row 5 "$outs" "sched_yield ping-pong"
fi
md
md "PEERS.md, glibc pthreads on the same kind of VM: create + join 27–28 µs per thread."
plot fig5_pthreads "Figure 5: pthreads vs bobbin" <<GP >&3
set title "Figure 5: pthreads vs bobbin ULTs and tasklets (medians of $RUNS runs; log scale)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.6 border -1
set logscale y
set yrange [1:*]
set ylabel "ns per thread / unit / switch"
set key top right
plot "$data/pthreads.tsv" using 2:xtic(1) title "pthreads" lc rgb "#bb4a4a", \
     "" using 3 title "bobbin ULT" lc rgb "#4a7ebb", \
     "" using 4 title "bobbin tasklet" lc rgb "#4abb7e"
GP

# ---- Figure 6: threading techniques vs deviation --------------------------------
log "figure 6: threading techniques"
md
md "## 6. Threading techniques vs deviation (Iwasaki et al., Figure 22)"
md
md "\`deviation D 4096 REPS\` under each \`ABT_THREAD_TECHNIQUE\`: the main"
md "ULT creates 4,096 ULTs in a private FIFO pool and frees them; a share D of"
md "them, spread evenly, yield once (a deviation). Per ULT (fork + join),"
md "REPS = max(2, $OPS / 4096) rounds, $RUNS runs; instructions from callgrind"
md "at 5 and 10 rounds. \`full\`: stack from creation, a switch on each side;"
md "\`-l\`: a lazy stack, lent at the first run and given back at the end;"
md "\`roc\`: a ULT that did not deviate returns to the scheduler that called it."
md
# deviation_rows ORDER TECH:LABEL ...: the table, one row per technique:
# `deviation D 4096 REPS ORDER` under ABT_THREAD_TECHNIQUE=TECH for each D,
# its data in $data/tech_LABEL.tsv. Prints the plot clauses, one line per
# technique, as tech_lines does.
deviation_rows() {
    local order=$1 hdr="| technique |" sep="|---|" reps d t ins row pair tech label lines=''
    shift
    for d in $DEVIATIONS; do hdr+=" D=$d ns | D=$d instr |"; sep+="---|---|"; done
    md "$hdr"
    md "$sep"
    reps=$(max 2 $((OPS / 4096)))
    for pair in "$@"; do
        tech=${pair%%:*} label=${pair#*:}
        row="| $label |"
        : >"$data/tech_$label.tsv"
        for d in $DEVIATIONS; do
            if ! outs=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" run_repeat "$RUNS" deviation "$d" 4096 "$reps" "$order"); then
                row+=" FAILED | – |"
                continue
            fi
            t=$(msum ns_per_op "$outs")
            ins=-
            if [ "$have_cg" = 1 ]; then
                ins=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" cg_per_op "$d 4096 5 $order" "$d 4096 10 $order" deviation) ||
                    ins=FAILED
            fi
            row+=" $(cell "$t") | $ins |"
            printf '%s\t%s\t%s\n' "$d" "${t// /$'\t'}" "$(num "$ins")" >>"$data/tech_$label.tsv"
        done
        md "$row"
        lines+="${lines:+, }\"$data/tech_$label.tsv\" using 1:COL with linespoints title \"$label\""
    done
    echo "$lines"
}

# deviation_plot NAME TITLE LINES: figure 6's two plots
deviation_plot() {
    plot "$1" "$2" <<GP >&3
set multiplot layout 1,2 title "$2, N = 4096, per ULT"
set xlabel "D (share of ULTs that yield once)"
set key top left
set yrange [0:*]
set title "wall time (median of $RUNS runs)"
set ylabel "ns per ULT"
plot ${3//COL/2}
set title "instructions (callgrind)"
set ylabel "instructions per ULT"
plot ${3//COL/5}
unset multiplot
GP
}

pairs=()
for tech in $TECHNIQUES; do pairs+=("$tech:$tech"); done
lines=$(deviation_rows pf "${pairs[@]}")
md
md "Argobots 1.2 (PEERS.md, \`deviation\`): 508.8 / 471.2 / 543.6 / 688.3"
md "instructions at D = 0 / 0.25 / 0.5 / 1.0; it has only full and full-l."
deviation_plot fig6_techniques "Figure 6: ULT fork-join vs deviation probability D" "$lines"

md
md "### 6b. Child-first techniques vs deviation (Iwasaki et al., Figure 22b)"
md
md "\`deviation D 4096 REPS cf\`: the same, but each ULT is made by"
md "\`ABT_thread_create_to\`, which runs it at once while the main ULT waits"
md "in its pool; a ULT that ends without deviating takes the main ULT back"
md "out of the pool and resumes it. Which of the paper's four child-first"
md "techniques runs follows from \`ABT_THREAD_TECHNIQUE\` (README.md):"
md "full: c-full, full-l: c-full-e (the stack is lent only while the ULT"
md "runs), roc: c-roc (a ULT that did not deviate returns to its creator),"
md "roc-l: c-roc-e."
md
lines=$(deviation_rows cf full:c-full full-l:c-full-e roc:c-roc roc-l:c-roc-e)
deviation_plot fig6b_child_first "Figure 6b: child-first ULT fork-join vs deviation probability D" "$lines"

# A technique name as a file name part (any name works in TECHNIQUES).
tfile() { echo "${1//[^A-Za-z0-9_.-]/_}"; }
# The plot clause "FILE" using 1:COL with linespoints title "TECH", one per
# technique, FILE being $data/PREFIX<technique>SUFFIX.tsv (COL to be replaced)
tech_lines() {
    local prefix=$1 suffix=$2 lines='' tech
    for tech in $TECHNIQUES; do
        lines+="${lines:+, }\"$data/$prefix$(tfile "$tech")$suffix.tsv\" using 1:COL with linespoints title \"$tech\""
    done
    echo "$lines"
}
ns_xtics() { tr ' ' '\n' <<<"$1" | awk '{ printf "%s\"%s\" %s", (NR > 1 ? ", " : ""), $1, $1 }'; }
# A log-scale x range with some room around the numbers of the list $1
log_xrange() { tr ' ' '\n' <<<"$1" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
    END { printf "[%g:%g]", lo / 1.6, hi * 1.6 }'; }

# ---- Figure 7: threading techniques vs number of ULTs ---------------------------
log "figure 7: threading techniques vs N"
md
md "## 7. Threading techniques vs number of ULTs (Iwasaki et al., Figure 23)"
md
md "\`deviation D N REPS\` under each \`ABT_THREAD_TECHNIQUE\`, as figure 6, for"
md "N = ${FJ_NS// /, } ULTs per round at D = 0 (no ULT yields) and D = 1 (every"
md "ULT yields once): the main ULT creates N ULTs in a private FIFO pool and"
md "frees them. Per ULT (fork + join), REPS = max(2, $OPS / N) rounds, $RUNS"
md "runs, median (min–max); instructions from callgrind at max(2, 16384 / N)"
md "rounds and twice that. With few ULTs every stack stays in the caches, so"
md "the lazy stacks (\`-l\`) can only cost; the paper saw them pay off from a"
md "few thousand ULTs."
md
hdr="| technique | D |" sep="|---|---|"
for n in $FJ_NS; do hdr+=" N=$n ns | N=$n instr |"; sep+="---|---|"; done
md "$hdr"
md "$sep"
for tech in $TECHNIQUES; do
    for d in 0 1; do
        row="| $tech | $d |"
        tsv=$data/fj_$(tfile "$tech")_d$d.tsv
        : >"$tsv"
        for n in $FJ_NS; do
            reps=$(max 2 $((OPS / n)))
            if ! outs=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" run_repeat "$RUNS" deviation $d $n $reps); then
                row+=" FAILED | – |"
                continue
            fi
            t=$(msum ns_per_op "$outs")
            ins=-
            if [ "$have_cg" = 1 ]; then
                small=$(max 2 $((16384 / n)))
                ins=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" cg_per_op "$d $n $small" "$d $n $((2 * small))" deviation) ||
                    ins=FAILED
            fi
            row+=" $(cell "$t") | $ins |"
            printf '%s\t%s\t%s\n' "$n" "${t// /$'\t'}" "$(num "$ins")" >>"$tsv"
        done
        md "$row"
    done
done
md
md "Argobots 1.2 (PEERS.md, \`deviation\` N = 4096): 508.8 instructions at D = 0,"
md "688.3 at D = 1; it has only full and full-l."
plot fig7_techniques_n "Figure 7: threading techniques vs number of ULTs" <<GP >&3
set multiplot layout 2,2 title "Figure 7: ULT fork-join vs N at D = 0 and D = 1, per ULT"
set logscale x
set xrange $(log_xrange "$FJ_NS")
set xlabel "N (ULTs per round)"
set xtics ($(ns_xtics "$FJ_NS"))
set key top left
set yrange [0:*]
set ylabel "ns per ULT"
set title "D = 0: wall time (median of $RUNS runs)"
plot $(l=$(tech_lines fj_ _d0); echo "${l//COL/2}")
set title "D = 1: wall time (median of $RUNS runs)"
plot $(l=$(tech_lines fj_ _d1); echo "${l//COL/2}")
set ylabel "instructions per ULT"
set title "D = 0: instructions (callgrind)"
plot $(l=$(tech_lines fj_ _d0); echo "${l//COL/5}")
set title "D = 1: instructions (callgrind)"
plot $(l=$(tech_lines fj_ _d1); echo "${l//COL/5}")
unset multiplot
GP

# ---- Figure 8: threading techniques, memory vs deviation ------------------------
log "figure 8: threading techniques, memory"
md
md "## 8. Threading techniques: peak memory vs deviation (Iwasaki et al., Figure 24)"
md
md "\`memory $MEM_N D\` under each \`ABT_THREAD_TECHNIQUE\`: the main ULT creates"
md "$MEM_N ULTs (16 KiB stacks) in a private FIFO pool, none of which runs"
md "before all exist, then frees them in creation order; a share D of them,"
md "spread evenly, yield once, so they end only after the ULTs behind them"
md "have run, still holding a stack. Peak RSS of the process (\`ru_maxrss\`),"
md "MiB, median (min–max) of $MEM_RUNS runs. Eager stacks hold one stack per"
md "ULT from creation ($MEM_N × 16 KiB = $((MEM_N * 16 / 1024)) MiB of address space; RSS counts"
md "only the touched pages); lazy stacks (\`-l\`, sc, auto) only one per running or"
md "yielded ULT, about D × $MEM_N. No instruction counts: valgrind cannot"
md "hold that many separately mapped stacks."
md
hdr="| technique |" sep="|---|"
for d in $MEM_DEVIATIONS; do hdr+=" D=$d MiB |"; sep+="---|"; done
md "$hdr"
md "$sep"
for tech in $TECHNIQUES; do
    row="| $tech |"
    tsv=$data/mem_$(tfile "$tech").tsv
    : >"$tsv"
    for d in $MEM_DEVIATIONS; do
        if ! outs=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" run_repeat "$MEM_RUNS" memory $MEM_N $d); then
            row+=" $(tail -n1 <<<"$outs") |"
            continue
        fi
        m=$(msum rss_mib "$outs")
        row+=" $(cell "$m") |"
        printf '%s\t%s\n' "$d" "${m// /$'\t'}" >>"$tsv"
    done
    md "$row"
done
md
md "Iwasaki et al. (Skylake, Argobots with their techniques): about 1 GB for"
md "every technique without lazy stacks at any D; with them, close to nothing"
md "at D = 0, growing with D."
plot fig8_techniques_memory "Figure 8: threading techniques, peak memory vs deviation" <<GP >&3
set title "Figure 8: peak RSS with $MEM_N ULTs alive vs deviation probability D (median of $MEM_RUNS runs; bars: min-max)"
set xlabel "D (share of ULTs that yield once)"
set ylabel "peak RSS (MiB)"
set key top left
set yrange [0:*]
set xrange [-0.05:1.05]
plot $(l=$(tech_lines mem_ ""); l=${l//with linespoints/with yerrorlines}; echo "${l//1:COL/1:2:3:4}")
GP

# ---- Figure 9: threading techniques on two workloads -------------------------------
log "figure 9: threading techniques, fib and kmeans"
md
md "## 9. Threading techniques on divide and conquer and KMeans (Iwasaki et al., Sections 4.2-4.3)"
md
md "\`fib $FIB_N $FIB_REPS\`: the main ULT (private FIFO pool) computes fib($FIB_N);"
md "every node with n ≥ 2 creates two child ULTs for n-1 and n-2 and frees them"
md "(newest first), a leaf (n < 2) returns n at once: about half the ULTs are"
md "leaves, which never deviate, and the inner nodes all wait for their"
md "children (the ExaFMM shape of Section 4.3). $FIB_REPS timed rounds after one"
md "untimed, $RUNS runs; per ULT; instructions from callgrind at 2 and 4 rounds."
md
md "| technique | fib ns per ULT | fib instr per ULT |"
md "|---|---|---|"
: >"$data/fib.tsv"
i=0
for tech in $TECHNIQUES; do
    if ! outs=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" run_repeat "$RUNS" fib $FIB_N $FIB_REPS); then
        failed_row 3 "$outs" "$tech"
        continue
    fi
    t=$(msum ns_per_ult "$outs")
    ins=-
    if [ "$have_cg" = 1 ]; then
        ins=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" cg_per_op "$FIB_N 2" "$FIB_N 4" fib) || ins=FAILED
    fi
    md "| $tech | $(cell "$t") | $ins |"
    printf '%s\t"%s"\t%s\t%s\n' "$i" "$tech" "${t// /$'\t'}" "$(num "$ins")" >>"$data/fib.tsv"
    i=$((i + 1))
done
md
md "\`kmeans R $KMEANS_ITERS $KMEANS_POINTS\`: $KMEANS_POINTS points of 8 features,"
md "4 clusters, 2 ESs (the primary and one secondary, each a basic scheduler"
md "over its own MPMC FIFO pool). Per iteration the main ULT and a worker ULT on"
md "the secondary ES (after a start gate) each create one ULT per point of"
md "their half into their own pool and free them; a point's ULT finds the"
md "nearest centre and adds itself to partial sum (cluster, point mod R) under"
md "that sum's \`ABT_mutex\`; then the main ULT adds up the replicas. A ULT that"
md "finds its mutex held blocks in \`ABT_mutex_lock\` (a deviation), so a"
md "larger R means less contention. $KMEANS_ITERS timed iterations after one"
md "untimed, $RUNS runs; per point ULT, the reduction included. Contended: the"
md "share of ULTs whose \`ABT_mutex_trylock\` failed before they called"
md "\`ABT_mutex_lock\`; switched: the share during whose \`ABT_mutex_lock\`"
md "another ULT of the same ES started (a lower bound for the deviations)."
md "Both medians of the runs. The result is checked against a sequential"
md "KMeans. No instruction counts: two ESs that poll and meet at random do not"
md "make a repeatable count. The two ESs compete only while both have a CPU;"
md "on a loaded machine they often do not, and contention drops."
md
md "| technique | R | ns per ULT | contended % | switched % |"
md "|---|---|---|---|---|"
for tech in $TECHNIQUES; do
    tsv=$data/km_$(tfile "$tech").tsv
    : >"$tsv"
    for r in $KMEANS_RS; do
        if ! outs=$(BENCH_ENV="ABT_THREAD_TECHNIQUE=$tech" run_repeat "$RUNS" kmeans $r $KMEANS_ITERS $KMEANS_POINTS); then
            failed_row 5 "$outs" "$tech" "$r"
            continue
        fi
        t=$(msum ns_per_ult "$outs") c=$(msum contended_pct "$outs") sw=$(msum switched_pct "$outs")
        md "| $tech | $r | $(cell "$t") | ${c%% *} | ${sw%% *} |"
        printf '%s\t%s\t%s\n' "$r" "${t// /$'\t'}" "${c%% *}" >>"$tsv"
    done
done
plot fig9_techniques_apps "Figure 9: threading techniques on fib and kmeans" <<GP >&3
set multiplot layout 2,2 title "Figure 9: fib($FIB_N) and KMeans ($KMEANS_POINTS points, 2 ESs), per ULT (medians of $RUNS runs)"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]
set xrange [-0.6:$i - 0.4]
set title "fib: wall time (bars: min-max)"
set ylabel "ns per ULT"
plot "$data/fib.tsv" using 1:3:xtic(2) with boxes notitle lc rgb "#4a7ebb", \\
     "" using 1:3:4:5 with yerrorbars notitle lc rgb "black" pt -1
set title "fib: instructions (callgrind)"
set ylabel "instructions per ULT"
plot "$data/fib.tsv" using 1:6:xtic(2) with boxes notitle lc rgb "#bb7e4a"
set logscale x 2
set xrange $(log_xrange "$KMEANS_RS")
set xlabel "R (partial sums per cluster)"
set xtics ($(ns_xtics "$KMEANS_RS"))
set key top right
set title "KMeans: wall time (bars: min-max)"
set ylabel "ns per ULT"
plot $(l=$(tech_lines km_ ""); l=${l//with linespoints/with yerrorlines}; echo "${l//1:COL/1:2:3:4}")
set title "KMeans: ULTs that found their mutex held (trylock failed)"
set ylabel "contended (% of ULTs)"
plot $(l=$(tech_lines km_ ""); echo "${l//COL/5}")
unset multiplot
GP

md
md "---"
md "Report written in $((SECONDS - start)) s."
exec 3>&-
mv "$rep" "$out/REPORT.md"
log "wrote $out/REPORT.md$([ "$have_gp" = 1 ] && echo " and $(cd "$out" && ls fig*.png 2>/dev/null | tr '\n' ' ')")"
