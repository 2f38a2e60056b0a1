# Packages, processes and ports shared by the benchmark scripts (sourced, not run). The caller sets TMP (a scratch
# directory), STARTED=() (the process groups to stop) and READY_TIMEOUT (seconds), and traps cleanup on EXIT.

# ensure_packages TOOL...: installs the missing ones (Debian package name = tool name: wrk, nginx, haproxy) without
# letting the packages start their system services (they would listen on 0.0.0.0:80): a policy-rc.d answering 101
# makes invoke-rc.d skip them.
ensure_packages() {
  local missing=() tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
  done
  ((${#missing[@]})) || return 0
  echo "installing ${missing[*]} from Debian ..."
  local sudo="" own_policy=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
    $sudo chmod 755 /usr/sbin/policy-rc.d; own_policy=1
  fi
  $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
  [ -z "$own_policy" ] || $sudo rm -f /usr/sbin/policy-rc.d
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Start "$@" pinned to CPU 1 in its own session (so cleanup can kill its whole process group).
# Sets LAST_PID (not echoed: a $(...) subshell would become the job's parent).
start_pinned() {
  local name=$1; shift
  setsid taskset -c 1 "$@" >"$TMP/$name.log" 2>&1 </dev/null &
  LAST_PID=$!
  STARTED+=("$LAST_PID")
}

cleanup() {
  local pid
  for pid in "${STARTED[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${STARTED[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  [ -z "$TMP" ] || rm -rf "$TMP"
}

# HTTP status of GET http://127.0.0.1:<port><path>, via bash's /dev/tcp (no curl needed).
http_status() {
  ( exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$2" >&3 &&
    read -r -t 2 _ code _ <&3 && echo "$code" ) 2>/dev/null || true
}

# Wait until <port>/ answers 200 while <pid> lives; fail after READY_TIMEOUT seconds.
wait_ready() {
  local port=$1 pid=$2 deadline=$((SECONDS + READY_TIMEOUT))
  while ((SECONDS < deadline)); do
    [ "$(http_status "$port" /)" = 200 ] && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}
