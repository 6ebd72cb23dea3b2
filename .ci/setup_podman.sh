#!/usr/bin/env bash
# Provide a Docker-compatible engine for tests/sandbox/test_docker.py: Debian's podman + runc,
# serving the Docker API on a unix socket. Idempotent. Never fails the CI: when podman cannot be
# installed or started it says so and exits 0 (the Docker tests then skip).
#
# Usage (prints the socket URL on its last stdout line):
#   url=$(.ci/setup_podman.sh | tail -n1) && export PALAESTRA_DOCKER_URL="$url"
set -u
SOCK=${PALAESTRA_PODMAN_SOCKET:-/run/podman/podman.sock}
LOG=${PALAESTRA_PODMAN_LOG:-/tmp/podman-service.log}

say() { echo "setup_podman: $*" >&2; }
give_up() { say "$* -- Docker sandbox tests will be skipped"; exit 0; }

if [ "$(id -u)" != 0 ]; then give_up "not root"; fi

if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || give_up "no podman and no apt-get"
    say "installing podman and runc"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        podman runc conmon) >/tmp/setup_podman_apt.log 2>&1 \
        || give_up "apt-get install podman runc failed (see /tmp/setup_podman_apt.log)"
fi

# The configuration must exist before the first podman command: podman records the storage
# configuration in its database on first use and refuses a different one later.
mkdir -p /etc/containers
if ! grep -q 'palaestra' /etc/containers/containers.conf 2>/dev/null; then
    cat >/etc/containers/containers.conf <<'CONF'
# written by palaestra .ci/setup_podman.sh
[containers]
# root cannot raise nofile/nproc to podman's defaults on some CI hosts
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
netns = "none"
[engine]
# crun rejects hybrid cgroup layouts; runc copes
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
# 0 breaks the exit codes the Docker SDK reads after exec; the default keeps conmon for 5 minutes
exit_command_delay = 5
CONF
fi
if ! grep -q 'palaestra' /etc/containers/storage.conf 2>/dev/null; then
    driver=overlay
    # overlay on overlay (a container CI host) may not work; vfs always does
    if [ "$(stat -fc %T /var/lib 2>/dev/null)" = overlayfs ] && ! grep -qw overlay /proc/filesystems; then driver=vfs; fi
    cat >/etc/containers/storage.conf <<CONF
# written by palaestra .ci/setup_podman.sh
[storage]
driver = "$driver"
runroot = "/run/containers/storage"
graphroot = "/var/lib/containers/storage"
CONF
fi

mkdir -p "$(dirname "$SOCK")"
ping() {
    python3 - "$SOCK" <<'PY' >/dev/null 2>&1
import socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
s.sendall(b"GET /_ping HTTP/1.0\r\nHost: d\r\n\r\n")
sys.exit(0 if b" 200 " in s.recv(4096) else 1)
PY
}
if [ -S "$SOCK" ] && ping; then
    say "podman service already running"
else
    rm -f "$SOCK"
    # from /: conmon drops files such as "oom" into its working directory when a container hits its memory limit
    (cd / && exec nohup podman system service --time=0 "unix://$SOCK" >"$LOG" 2>&1 </dev/null) &
    for _ in $(seq 1 100); do
        [ -S "$SOCK" ] && break
        sleep 0.1
    done
    [ -S "$SOCK" ] && ping || give_up "podman system service is not answering on $SOCK (see $LOG)"
    say "podman service started (pid $!, log $LOG)"
fi
podman --version >&2 || true
echo "unix://$SOCK"
