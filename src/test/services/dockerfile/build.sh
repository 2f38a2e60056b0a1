#!/usr/bin/env bash
# Builds dockerfile-lint (BuildKit's Dockerfile parser and build checks, lint/main.go) from the Go module proxy and
# prints the binary's path. Cached under ${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/dockerfile-lint-<hash>/, the
# hash covering the program and its pinned dependencies; the first build takes about a minute.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$here/lint"
hash="$(cat "$module/main.go" "$module/go.mod" "$module/go.sum" | sha256sum | cut -c1-12)"
dir="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/dockerfile-lint-$hash"
binary="$dir/dockerfile-lint"

if [[ -x "$binary" ]]; then
  echo "$binary"
  exit 0
fi
command -v go >/dev/null || { echo "build.sh: the Go toolchain (go) is required" >&2; exit 1; }
mkdir -p "$dir"
tmp="$(mktemp "$dir/.build.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
(cd "$module" && go build -mod=readonly -trimpath -ldflags=-s -o "$tmp" .)
mv -f "$tmp" "$binary"
trap - EXIT
echo "$binary"
