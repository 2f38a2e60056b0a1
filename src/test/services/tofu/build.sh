#!/usr/bin/env bash
# Builds OpenTofu (a Terraform-compatible CLI, for `tofu fmt -check`) and hclcheck (offline parse and reference
# check of terraform/) from the Go module proxy, and prints the directory holding both binaries.
# Idempotent: cached under ${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/tofu-<version>/ (the first build takes
# minutes on 2 cores; later runs return at once). CI: `.ci/run` calls it; TerraformIT calls it when missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$here/build"
version="$(awk '$1 == "github.com/opentofu/opentofu" { sub(/^v/, "", $2); print $2 }' "$module/go.mod")"
[[ -n "$version" ]] || { echo "build.sh: no github.com/opentofu/opentofu in $module/go.mod" >&2; exit 1; }

cache="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}"
# hclcheck is small and changes with this repository: its binary name carries the hash of its source.
check_hash="$(cat "$module/hclcheck/main.go" "$module/go.sum" | sha256sum | cut -c1-12)"
dir="$cache/tofu-$version"
mkdir -p "$dir"

build() { # <package> <binary name>
  local tmp
  tmp="$(mktemp "$dir/.build.XXXXXX")"
  # -mod=readonly: go.mod/go.sum are committed and must not change during a build (reproducible).
  if ! (cd "$module" && go build -mod=readonly -trimpath -ldflags=-s -o "$tmp" "$1"); then
    rm -f "$tmp"
    exit 1
  fi
  mv -f "$tmp" "$dir/$2"
}

command -v go >/dev/null || { echo "build.sh: the Go toolchain (go) is required" >&2; exit 1; }
if [[ ! -x "$dir/tofu" ]]; then
  echo "build.sh: building OpenTofu $version into $dir (first run only; takes minutes)" >&2
  build github.com/opentofu/opentofu/cmd/tofu tofu
fi
if [[ ! -x "$dir/hclcheck-$check_hash" ]]; then
  build ./hclcheck "hclcheck-$check_hash"
  ln -sfn "hclcheck-$check_hash" "$dir/hclcheck"
fi
echo "$dir"
