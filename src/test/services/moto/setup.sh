#!/usr/bin/env bash
# Creates, once per machine, the virtualenv that runs the moto emulator and its smoke test,
# then prints that virtualenv's python path as the last line of stdout.
# The venv lives outside the clone, keyed by a hash of requirements.txt and the Python version,
# so a fresh clone reuses it and a changed pin builds a new one next to it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/requirements.txt"
base_python="${PROXY_PYTHON:-python3}"
cache="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}"

key="$( { cat "$requirements"; "$base_python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -c1-12)"
venv="$cache/moto-venv-$key"

mkdir -p "$cache"
# Two test JVMs (or a test and a developer) may run this at once: one builds, the other waits.
exec 9>"$cache/moto-venv.lock"
flock 9

if [[ ! -f "$venv/.complete" ]]; then
  echo "setup.sh: building $venv (first run on this machine)" >&2
  rm -rf "$venv"
  "$base_python" -m venv "$venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input -q -r "$requirements" >&2
  touch "$venv/.complete"
fi

echo "$venv/bin/python"
