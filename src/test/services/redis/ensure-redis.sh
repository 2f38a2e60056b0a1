#!/usr/bin/env bash
# Makes sure redis-server (Debian package) is installed for the Redis rate-limit tests, installing it with apt-get
# on a fresh machine, then prints the redis-server path as the last line of stdout. The tests start their own
# server on 127.0.0.1 and a random port; nothing here starts one.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
  command -v redis-server
  exit 0
fi

# Two test JVMs may get here at once: one installs, the other waits.
cache="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}"
mkdir -p "$cache"
exec 9>"$cache/redis-install.lock"
flock 9

if ! command -v redis-server >/dev/null 2>&1; then
  sudo=""
  if [[ "$(id -u)" != 0 ]]; then
    sudo="sudo -n"
  fi
  echo "ensure-redis.sh: installing Debian package redis-server: apt-get update && apt-get install -y --no-install-recommends redis-server" >&2
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends redis-server >&2
  echo "ensure-redis.sh: installed $(redis-server --version)" >&2
fi
command -v redis-server
