#!/usr/bin/env bash
# Test that the library's sources compile with clang as well as with gcc,
# warning-free under the flags of CMakeLists.txt (CONTRIBUTING.md, "Style").
# Registered with ctest as regress_clang_build. The eleventh audit round
# found that src/arch/x86_64/bb_arch.h used GCC's `%z` operand modifier,
# which clang 14 rejects: the library did not build with clang at all.
#
# usage: run_clang_build_test.sh SOURCE_DIR CONTEXT ARCH
# Exit status: 0 pass, 1 fail, 77 skipped (no clang, or not x86-64).
set -uo pipefail
SRC="$1"
CONTEXT="${2:-asm}"
arch="${3:-x86_64}" # the CPU code the build uses (BOBBIN_ARCH)
command -v clang >/dev/null 2>&1 || { echo "skipped: clang not installed"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "skipped: the x86-64 sources only"; exit 77; }
failed=0
for f in $(cd "$SRC" && find src -name '*.c' ! -path 'src/arch/*' | sort) \
         $( [ "$CONTEXT" = ucontext ] && echo src/arch/ucontext/ctx_ucontext.c); do
    if ! out=$(clang -std=gnu11 -O2 -fPIC -fvisibility=hidden -c -o /dev/null \
            -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror \
            -D_GNU_SOURCE -DABT_BOBBIN_BUILDING_LIBRARY \
            -DBB_CONTEXT_NAME="\"$CONTEXT\"" -DBB_ARCH_NAME="\"$arch\"" \
            -I "$SRC/include" -I "$SRC/src/include" -I "$SRC/src/arch/$arch" \
            "$SRC/$f" 2>&1); then
        echo "FAIL: clang: $f"
        echo "$out" | head -n 20
        failed=1
    fi
done
[ $failed -eq 0 ] && echo "ok: every library source compiles with $(clang --version | head -n 1)"
exit $failed
