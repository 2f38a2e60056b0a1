#!/usr/bin/env bash
# Builds the Consul agent used by tests and demos from the Go module proxy and prints the binary path.
# Idempotent: the binary is cached under ${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/consul-<version>/,
# so only the first run on a machine pays for the build (~minutes on 2 cores); later runs return at once.
# Go's own module and build caches (GOMODCACHE, GOCACHE) are used as configured, by default under $HOME.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$here/build"
# The Consul version is the one the wrapper module pins; read it from go.mod so they cannot drift.
version="$(awk '$1 == "github.com/hashicorp/consul" { sub(/^v/, "", $2); print $2 }' "$module/go.mod")"
[[ -n "$version" ]] || { echo "build.sh: no github.com/hashicorp/consul in $module/go.mod" >&2; exit 1; }

cache="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}"
dir="$cache/consul-$version"
binary="$dir/consul"

if [[ -x "$binary" ]]; then
  echo "$binary"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: the Go toolchain (go) is required to build Consul" >&2; exit 1; }
mkdir -p "$dir"
# Build to a temporary name and rename, so an interrupted build never leaves a binary that looks done.
tmp="$(mktemp "$dir/consul.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
echo "build.sh: building Consul $version into $dir (first run only; takes minutes)" >&2
(
  cd "$module"
  # -mod=readonly: go.mod/go.sum are committed and must not change during a build (reproducible).
  go build -mod=readonly -trimpath -ldflags=-s -o "$tmp" github.com/hashicorp/consul
)
mv -f "$tmp" "$binary"
trap - EXIT
echo "$binary"
