#!/usr/bin/env bash
# A ctest check (issue #5): the shared library exports exactly the 266
# symbols of Argobots 1.2 (scripts/abt-symbols.txt) and nothing else, and
# every one of them is used by a test or an example, so none goes untested.
#   scripts/check_symbols.sh LIBABT_SO SOURCE_DIR
set -euo pipefail
lib=$1
src=$2
list="$src/scripts/abt-symbols.txt"
expected=$(sort -u "$list")
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
status=0
if [ "$expected" != "$exported" ]; then
    echo "exported symbols differ from the expected set:"
    diff <(echo "$expected") <(echo "$exported") | sed -n 's/^[<>]/  &/p'
    status=1
fi
for name in $(cat "$list"); do
    if ! grep -qw "$name" "$src"/tests/*.c "$src"/tests/*.h "$src"/examples/*.c; then
        echo "no test or example uses $name"
        status=1
    fi
done
[ $status -eq 0 ] && echo "all $(grep -c . "$list") Argobots symbols exported and used by tests"
exit $status
