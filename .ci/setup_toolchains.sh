#!/usr/bin/env bash
# Install the toolchains of the sandbox's languages besides Python and SQL: gcc and g++ (C, C++),
# node (JavaScript), iverilog and vvp (Verilog), lua5.4 (Lua), go (Go 1.19: the last release that ships its
# standard library compiled, which the sandbox's compile stage links against), swipl (Prolog), coqc (Coq, the proofs
# family), and the headless browser of the web playground's test
# (chromium and chromedriver), from the distribution's packages. Idempotent and
# quick when they are present (no apt-get at all then). Never fails the CI: a package that cannot
# be installed is reported, and the tests of its language skip, naming the missing tool.
#
# Usage: bash .ci/setup_toolchains.sh
set -u

say() { echo "setup_toolchains: $*" >&2; }

# tool -> Debian package
declare -A PACKAGE=([gcc]=gcc [g++]=g++ [node]=nodejs [iverilog]=iverilog [vvp]=iverilog [chromium]=chromium
                   [chromedriver]=chromium-driver [lua5.4]=lua5.4 [go]=golang-go [swipl]=swi-prolog-nox [coqc]=coq)

present() { [ -x "/usr/local/bin/$1" ] || [ -x "/usr/bin/$1" ] || [ -x "/bin/$1" ]; }

missing=()
TOOLS=(gcc g++ node iverilog vvp chromium chromedriver lua5.4 go swipl coqc)
for tool in "${TOOLS[@]}"; do
    present "$tool" || missing+=("${PACKAGE[$tool]}")
done
# gcc only recommends the C library's headers and start files: without them nothing links
[ -e /usr/include/stdio.h ] || missing+=(libc6-dev)
if [ ${#missing[@]} -eq 0 ]; then
    say "all present"
    exit 0
fi
# shellcheck disable=SC2207
packages=($(printf '%s\n' "${missing[@]}" | sort -u))
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "missing ${packages[*]} and cannot install (needs root and apt-get): their languages' tests will skip"
    exit 0
fi

log=/tmp/setup_toolchains_apt.log
export DEBIAN_FRONTEND=noninteractive
say "installing ${packages[*]}"
if ! apt-get install -y -qq --no-install-recommends "${packages[@]}" >"$log" 2>&1; then
    # Stale or missing package lists: refresh once, then install what can be installed, one by one.
    apt-get update -qq >>"$log" 2>&1 || say "apt-get update failed (see $log)"
    for package in "${packages[@]}"; do
        apt-get install -y -qq --no-install-recommends "$package" >>"$log" 2>&1 \
            || say "could not install $package (see $log): its language's tests will skip"
    done
fi
for tool in "${TOOLS[@]}"; do
    present "$tool" || say "$tool is still missing"
done
exit 0
