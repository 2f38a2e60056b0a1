#!/usr/bin/env bash
# Installs Pebble (Let's Encrypt's ACME test server) and pebble-challtestsrv (its DNS/challenge test server) from the
# Go module proxy and prints the directory that holds both binaries and Pebble's test certificates (certs/).
# Idempotent: cached under ${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/pebble-<version>/, so only the first run on a
# machine pays for the build (~1 min on 2 cores); later runs return at once. Two concurrent callers: one builds.
set -euo pipefail

version="v2.10.1"   # pinned; bump here (and in README.md) to move
module="github.com/letsencrypt/pebble/v2"
cache="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}"
dir="$cache/pebble-${version#v}"

if [[ -x "$dir/pebble" && -x "$dir/pebble-challtestsrv" && -f "$dir/certs/localhost/cert.pem" ]]; then
  echo "$dir"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: the Go toolchain (go) is required to build Pebble" >&2; exit 1; }
mkdir -p "$cache"
exec 9>"$cache/pebble-build.lock"
flock 9
if [[ ! -x "$dir/pebble" || ! -x "$dir/pebble-challtestsrv" || ! -f "$dir/certs/localhost/cert.pem" ]]; then
  echo "build.sh: installing Pebble $version into $dir (first run only)" >&2
  # Build into a temporary directory and rename, so an interrupted build never leaves a directory that looks done.
  tmp="$(mktemp -d "$cache/pebble-build.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  GOBIN="$tmp" GOFLAGS=-trimpath go install -ldflags=-s "$module/cmd/pebble@$version" "$module/cmd/pebble-challtestsrv@$version"
  # The certificate Pebble serves its API with (signed by its "minica" test root) ships in the module source only.
  src="$(go env GOMODCACHE)/$module@$version"
  mkdir -p "$tmp/certs"
  cp -r "$src/test/certs/localhost" "$tmp/certs/"
  cp "$src/test/certs/pebble.minica.pem" "$tmp/certs/"
  chmod -R u+w "$tmp/certs"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
fi
echo "$dir"
