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

# Configure and build into $1 with extra CMake arguments after it.
build_into() {
    local dir="$1"
    shift
    cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
    cmake --build "$dir" -j"$(nproc)"
}
