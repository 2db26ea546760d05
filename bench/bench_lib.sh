# Shell helpers shared by run.sh, callgrind.sh and report.sh; sourced, not run.
#
#   bench_bin BUILD_DIR      sets $bin: BUILD_DIR/bench, else BUILD_DIR itself
#                            (a directory of standalone builds); fails with a
#                            message when neither holds the programs
#   field KEY LINE           the value of KEY=value in a result line
#   stats                    "median | min | max" of the numbers on stdin
#   run_repeat N PROG ARGS   runs $bin/PROG N times (timeout $TIMEOUT, the
#                            variables of $BENCH_ENV set), prints each run's
#                            result line (its last line); on a failure prints
#                            "FAILED (exit RC: last line)" and returns 1
#   run_cg TAG PROG ARGS     runs $bin/PROG under callgrind into $cg_dir/TAG
#                            and prints "Ir ops" (Ir from the totals: line, ops
#                            from ops_all= or ops=), or returns 1
#   cg_per_op "SMALL ARGS" "BIG ARGS" PROG
#                            instructions per op by differencing two runs:
#                            (Ir(big) - Ir(small)) / (ops(big) - ops(small));
#                            leaves the profiles in $cg_dir/cg.small, cg.big
#   cg_inclusive FILE FUNC   inclusive Ir of function FUNC in a profile
#   env_check ASSIGNMENTS    fails, naming it, on a word that is not VAR=value
#
# $BENCH_ENV: VAR=value assignments separated by spaces (no spaces inside a
# value), set for the measured program only, in run_repeat and run_cg alike
# (report.sh's optimization steps); empty by default.

BENCH_ENV=${BENCH_ENV:-}

bench_bin() {
    bin=$1/bench
    [ -x "$bin/fork_join" ] || bin=$1
    if [ ! -x "$bin/fork_join" ]; then
        echo "no benchmark programs in $1/bench or $1: build first" >&2
        return 1
    fi
}

field() { sed -n "s/.*[[:space:]]$1=\([^ ]*\).*/\1/p" <<<"$2"; }

stats() {
    sort -g | awk '{ v[NR] = $1 }
        END { if (NR == 0) { print "n/a | n/a | n/a"; exit }
              printf "%.1f | %.1f | %.1f", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

# The words of $BENCH_ENV into the array bench_env (split on spaces only: no
# pathname expansion of a value such as X=*).
bench_env_words() { read -ra bench_env <<<"$BENCH_ENV"; }

env_check() {
    local w words
    read -ra words <<<"$1"
    for w in "${words[@]}"; do
        [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || {
            echo "not a VAR=value assignment: '$w' (in '$1')" >&2
            return 1
        }
    done
}

run_repeat() {
    local runs=$1 prog=$2 out rc i bench_env
    shift 2
    bench_env_words
    for ((i = 0; i < runs; i++)); do
        out=$(timeout "${TIMEOUT:-60}" env "${bench_env[@]}" "$bin/$prog" "$@" 2>&1)
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "FAILED (exit $rc: $(tail -n1 <<<"$out" | cut -c1-80))"
            return 1
        fi
        tail -n1 <<<"$out"
    done
}

run_cg() {
    local tag=$1 prog=$2 out ir ops bench_env
    shift 2
    bench_env_words
    out=$(timeout "${TIMEOUT:-300}" env "${bench_env[@]}" valgrind --tool=callgrind \
        --fair-sched=yes --callgrind-out-file="$cg_dir/$tag" \
        "$bin/$prog" "$@" 2>"$cg_dir/$tag.err") || return 1
    ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$cg_dir/$tag" | head -n1)
    [ -n "$ir" ] || ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$cg_dir/$tag" | head -n1)
    ops=$(sed -n 's/.*[[:space:]]ops_all=\([0-9]*\).*/\1/p' <<<"$out")
    [ -n "$ops" ] || ops=$(sed -n 's/.*[[:space:]]ops=\([0-9]*\).*/\1/p' <<<"$out")
    [ -n "$ir" ] && [ -n "$ops" ] && echo "$ir $ops"
}

cg_per_op() {
    local small=$1 big=$2 prog=$3 a b
    rm -f "$cg_dir"/cg.small* "$cg_dir"/cg.big* # no stale profile or .err
    # shellcheck disable=SC2086
    a=$(run_cg cg.small $prog $small) && b=$(run_cg cg.big $prog $big) || return 1
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
        if (y[2] == x[2]) exit 1
        printf "%.1f\n", (y[1] - x[1]) / (y[2] - x[2]) }'
}

cg_inclusive() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        sed -n "s/^ *\([0-9,]*\) .*:$2 \[.*/\1/p" | head -n1 | tr -d ,
}
