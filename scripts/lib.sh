# Shared by the set-up scripts: make sure Debian packages are there.
# ensure_packages CMD:PACKAGE ... installs each PACKAGE whose CMD is missing,
# with apt-get as root or through sudo; otherwise says exactly what to install.
ensure_packages() {
    local missing=()
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local apt=""
    if [ "$(id -u)" -eq 0 ]; then
        apt="apt-get"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        apt="sudo apt-get"
    fi
    if [ -z "$apt" ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "Missing: ${missing[*]}. Install them (Debian: apt-get install ${missing[*]}) and run again." >&2
        exit 1
    fi
    echo "Installing ${missing[*]} ..."
    $apt update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $apt install -y -qq "${missing[@]}" >/dev/null
}

# How many CPUs this process may really use: nproc, or fewer when a cgroup
# CPU quota (v2 cpu.max, v1 cfs_quota_us) allows less. A container often
# sees all of its host's CPUs but gets the time of a few: running a job per
# CPU seen there starves the suite's spinning execution streams.
usable_cpus() {
    local n quota period q
    n=$(nproc)
    if [ -r /sys/fs/cgroup/cpu.max ]; then
        read -r quota period < /sys/fs/cgroup/cpu.max
    elif [ -r /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
        quota=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)
        period=$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)
    fi
    if [[ "${quota:-max}" =~ ^[0-9]+$ && "${period:-0}" =~ ^[1-9][0-9]*$ ]]; then
        q=$(( (quota + period - 1) / period ))
        [ "$q" -lt "$n" ] && n=$q
    fi
    [ "$n" -ge 1 ] || n=1
    echo "$n"
}

# Configure and build into $1 with extra CMake arguments after it. Tests and
# benchmarks are asked for explicitly: a directory configured before
# without them keeps that choice in its cache otherwise.
build_into() {
    local dir="$1"
    shift
    cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release \
        -DBOBBIN_BUILD_TESTS=ON -DBOBBIN_BUILD_BENCH=ON "$@" >/dev/null
    cmake --build "$dir" -j"$(usable_cpus)"
}
