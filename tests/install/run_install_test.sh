#!/usr/bin/env bash
# Test of the installed package (registered with ctest as install_package):
# `cmake --install` the build into a fresh prefix, check the files a user
# relies on (abt.h, libabt.so with soname libabt.so.1, libabt.a,
# argobots.pc, the CMake package), then build consumer.c against that
# prefix and run it, three ways: through pkg-config (`argobots`, as an
# Argobots program is built), and through the CMake package against the
# shared library and against the static archive. Each program must load
# the installed library, not the build tree's.
#
# usage: run_install_test.sh BUILD_DIR WORKDIR
# Exit status: 0 pass, 1 fail.
set -uo pipefail

BUILD="$1"
WORK="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
PREFIX="$WORK/prefix"
CC="${CC:-cc}"

fail() {
    echo "FAIL: $*"
    exit 1
}

# run NAME PROGRAM: it must print "consumer ok" and exit 0.
run() {
    local out
    out=$("$2" 2>&1) || fail "$1 exited with $?: $out"
    [ "$out" = "consumer ok" ] || fail "$1 printed: $out"
    echo "ok: $1"
}

# uses_installed_lib NAME PROGRAM: libabt.so.1 resolves into the prefix.
uses_installed_lib() {
    local where
    where=$(ldd "$2" | awk '$1 == "libabt.so.1" {print $3}')
    [ "$where" = "$PREFIX/lib/libabt.so.1" ] ||
        fail "$1 loads libabt.so.1 from '${where:-nowhere}', not from $PREFIX/lib"
}

rm -rf "$WORK"
mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" 2>&1 ||
    fail "cmake --install: $(tail -n 3 "$WORK/install.log")"

for f in include/abt.h lib/libabt.so lib/libabt.so.1 lib/libabt.a \
         lib/pkgconfig/argobots.pc lib/cmake/bobbin/bobbinConfig.cmake; do
    [ -e "$PREFIX/$f" ] || fail "the install lacks $f"
done
soname=$(readelf -d "$PREFIX/lib/libabt.so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
[ "$soname" = "libabt.so.1" ] || fail "soname is '$soname', not libabt.so.1"
echo "ok: files, soname $soname"

# 1. pkg-config, as an Argobots program is built
command -v pkg-config >/dev/null 2>&1 ||
    fail "pkg-config not found (Debian: apt-get install pkgconf)"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
cflags=$(pkg-config --cflags argobots) && libs=$(pkg-config --libs argobots) ||
    fail "pkg-config does not find argobots in $PKG_CONFIG_PATH"
# shellcheck disable=SC2086 # the flags are lists
"$CC" $cflags "$HERE/consumer.c" -o "$WORK/consumer_pkgconfig" $libs \
    -Wl,-rpath,"$PREFIX/lib" >"$WORK/pkgconfig.log" 2>&1 ||
    fail "build with pkg-config flags '$cflags $libs': $(tail -n 5 "$WORK/pkgconfig.log")"
uses_installed_lib "pkg-config build" "$WORK/consumer_pkgconfig"
run "pkg-config build" "$WORK/consumer_pkgconfig"

# 2. the CMake package: bobbin::abt and bobbin::abt_static
cmake -S "$HERE" -B "$WORK/cmake" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON \
    >"$WORK/cmake.log" 2>&1 || fail "configuring the consumer project: $(tail -n 5 "$WORK/cmake.log")"
grep -q "$PREFIX/lib/cmake/bobbin" "$WORK/cmake/CMakeCache.txt" ||
    fail "find_package(bobbin) found another bobbin: $(grep bobbin_DIR "$WORK/cmake/CMakeCache.txt")"
cmake --build "$WORK/cmake" >>"$WORK/cmake.log" 2>&1 ||
    fail "building the consumer project: $(tail -n 5 "$WORK/cmake.log")"
uses_installed_lib "CMake build, bobbin::abt" "$WORK/cmake/consumer_shared"
run "CMake build, bobbin::abt" "$WORK/cmake/consumer_shared"
if ldd "$WORK/cmake/consumer_static" | grep -q libabt; then
    fail "the bobbin::abt_static build loads a shared libabt"
fi
run "CMake build, bobbin::abt_static" "$WORK/cmake/consumer_static"
