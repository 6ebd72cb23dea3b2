#!/usr/bin/env bash
# CI: the sandbox, tools and core tests once more as an ordinary user (uid 65534), from a copy of
# the checkout that user can read (the checkout itself may sit under a private folder such as
# /root). The sandbox then runs at whatever tier an unprivileged process gets, and every test
# must pass or skip naming why. Run as root by .ci/run; a no-op when CI already runs unprivileged.
#
# Usage: bash .ci/unprivileged.sh [pytest args...]   (default: -n 2 tests/sandbox tests/tools tests/core)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then set -- -n 2 tests/sandbox tests/tools tests/core; fi
if [ "$(id -u)" != 0 ]; then
    echo "unprivileged: CI already runs as uid $(id -u); nothing more to do"
    exit 0
fi
USER_ID=${PALAESTRA_UNPRIVILEGED_UID:-65534}
if ! command -v setpriv >/dev/null 2>&1; then
    echo "unprivileged: SKIPPED, no setpriv (util-linux) to drop privileges with"
    exit 0
fi
work=$(mktemp -d /tmp/palaestra-unprivileged.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir "$work/src" "$work/home"
chown "$USER_ID:$USER_ID" "$work/home"
# The working tree as it is (uncommitted changes included), without the virtualenv, git's data and
# what .ci/run writes meanwhile (mypy's cache, its logs).
# tar's exit 1 only says a file changed while it was read (the copy is made); anything else fails.
{ tar --exclude=./.venv --exclude=./.git --exclude='__pycache__' --exclude=./.mypy_cache --exclude='./.ci-*.log' \
    --warning=no-file-changed -cf - . || [ $? -eq 1 ]; } | tar -xf - -C "$work/src"
# An interpreter that user can run: the real one behind python3 (a virtualenv's link to it, or
# the interpreter itself, may lie in a private folder such as /root/.pyenv), else the system's.
base=""
for candidate in "$(python3 -c 'import os, sys; print(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))')" /usr/bin/python3; do
    if setpriv --reuid="$USER_ID" --regid="$USER_ID" --clear-groups "$candidate" -c \
        'import subprocess, sys, venv; subprocess.run([sys.executable, "-c", "pass"], check=True)' 2>/dev/null; then
        base=$candidate
        break
    fi
done
if [ -z "$base" ]; then
    echo "unprivileged: SKIPPED, no Python interpreter here that uid $USER_ID can run"
    exit 0
fi
# A virtualenv of its own (the checkout's may be unreadable too), without the heavy test extras
# (torch, ray) none of these tests needs.
"$base" -m venv "$work/venv"
# With .ci/run's uv (in the checkout's virtualenv) the install takes seconds; pip otherwise.
if [ -x .venv/bin/uv ]; then
    .venv/bin/uv pip install -q --link-mode copy --compile-bytecode --python "$work/venv/bin/python" -e "$work/src[verify,tools]" pytest pytest-xdist
else
    "$work/venv/bin/pip" install -q -e "$work/src[verify,tools]" pytest pytest-xdist
fi
# Byte-compile the copy now: that user cannot write __pycache__ there (timing tests would pay).
"$work/venv/bin/python" -m compileall -q "$work/src/palaestra" "$work/src/tests" >/dev/null
chmod -R a+rX "$work/venv" "$work/src"
cd "$work/src"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work/home" CI=true \
    setpriv --reuid="$USER_ID" --regid="$USER_ID" --clear-groups "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
