#!/bin/sh
# fuzz/build.sh NAME BUILD_DIR OUT [extra cflags]
#   builds fuzz/NAME.c (fuzz_life, fuzz_sched, fuzz_sync or fuzz_tech) against BUILD_DIR's libabt;
#   for a sanitizer build add its flag, e.g.
#   fuzz/build.sh fuzz_life build-asan /tmp/fl_asan -fsanitize=address,undefined
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
name=$1; b=$(cd "$2" && pwd); out=$3; shift 3
lib=$(dirname "$(find "$b" -maxdepth 1 -name 'libabt.so*' | head -1)")
cc -O1 -g -pthread -Wall -Wextra -I"$here/include" -I"$b/include" -I"$here/tests" \
   -DBB_TEST_GDB_SCRIPT="\"$here/scripts/bobbin-gdb.py\"" \
   "$here/fuzz/$name.c" -L"$lib" -labt -Wl,-rpath,"$lib" -lm "$@" -o "$out"
