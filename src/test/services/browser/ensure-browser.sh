#!/usr/bin/env bash
# Makes sure a headless browser is available for the dashboard test: Debian's chromium (with chromium-driver),
# installed with apt-get on a fresh machine, and playwright-core from npm in a cache directory outside the clone
# (${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/browser). playwright-core drives the system chromium; it never
# downloads a browser (`npx playwright install` cannot work on this network). Prints, as the last line of stdout,
# the directory of the playwright-core module to require.
set -euo pipefail

PLAYWRIGHT_VERSION=1.56.1
cache="${PROXYDEV_CACHE:-$HOME/.cache/proxy-dev}/browser"
mkdir -p "$cache"
# Two test JVMs may get here at once: one installs, the other waits.
exec 9>"$cache/install.lock"
flock 9

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  sudo=""
  if [[ "$(id -u)" != 0 ]]; then
    sudo="sudo -n"
  fi
  echo "ensure-browser.sh: installing Debian packages chromium chromium-driver" >&2
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium chromium-driver >&2
fi

module="$cache/node_modules/playwright-core"
if [[ ! -f "$module/package.json" ]] || ! grep -q "\"version\": \"$PLAYWRIGHT_VERSION\"" "$module/package.json"; then
  echo "ensure-browser.sh: installing playwright-core@$PLAYWRIGHT_VERSION from npm into $cache" >&2
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
    "playwright-core@$PLAYWRIGHT_VERSION" >&2
fi
echo "$module"
