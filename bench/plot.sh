#!/usr/bin/env bash
# Bar chart of run.sh's table (median ns/op with min-max error bars; the
# memory rows are left out) as a PNG, if gnuplot is installed.
#
#   bench/plot.sh [BUILD_DIR] [OUT.png]    runs run.sh BUILD_DIR, then plots
#   TABLE=saved.md bench/plot.sh - OUT.png plots a saved run.sh table
# OUT.png defaults to bench-results.png in the current directory.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
if ! command -v gnuplot >/dev/null; then
    echo "plot.sh: gnuplot is not installed, skipping the plot" >&2
    exit 0
fi
out=${2:-bench-results.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "${TABLE:-}" ]; then
    cp "$TABLE" "$tmp/table.md"
else
    "$here/run.sh" ${1:+"$1"} | tee "$tmp/table.md"
fi

# label <TAB> median <TAB> min <TAB> max, ns rows only
awk -F' *[|] *' 'NR > 2 && $2 != "memory" && $4 ~ /^[0-9.]+$/ && $5 ~ /^[0-9.]+$/ {
        label = $2 " " $3
        sub(/, per ULT per ES/, "", label)
        gsub(/"/, "", label)
        printf "\"%s\"\t%s\t%s\t%s\n", label, $4, $5, $6
    }' "$tmp/table.md" >"$tmp/data.tsv"
if [ ! -s "$tmp/data.tsv" ]; then
    echo "plot.sh: no ns/op rows to plot" >&2
    exit 1
fi

gnuplot <<GP
set terminal pngcairo size 1400,800 noenhanced font ",10"
set output "$out"
set title "bobbin benchmarks: median ns per operation (bars: min-max of runs)"
set datafile separator "\t"
set style fill solid 0.6 border -1
set boxwidth 0.7
set xtics rotate by -50 left
set ylabel "ns / op"
set yrange [0:*]
set grid ytics
set bmargin 16
set rmargin 24
plot "$tmp/data.tsv" using 0:2:xtic(1) with boxes notitle lc rgb "#4a7ebb", \
     "" using 0:2:3:4 with yerrorbars notitle lc rgb "black" pt -1
GP
echo "plot.sh: wrote $out" >&2
