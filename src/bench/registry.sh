#!/usr/bin/env bash
# registryCatalog benchmark: registration → routable latency (p50/p99 over 50 registrations, watch mode, a real
# Consul agent on 127.0.0.1) and the rebuild time of a 10,000-service catalog (pure builder + merge + routing
# compile). Targets: p99 <= 100 ms, rebuild <= 200 ms. Prints PASS/FAIL lines; exits 0 once it has measured.
#   bash src/bench/registry.sh [--registrations N] [--services N]    (MVN_ARGS=-o: extra Maven flags, e.g. offline)
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
REGISTRATIONS=50 SERVICES=10000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --registrations) REGISTRATIONS="$2"; shift 2 ;;
    --services) SERVICES="$2"; shift 2 ;;
    -h|--help) sed -n 2,5p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

cd "$REPO_ROOT"
rm -f target/bench/registry.txt
# The Consul agent is built (first run only) and started by the test extension, like in `mvn verify`.
mvn -B -q ${MVN_ARGS:-} verify -Dit.test=RegistryCatalogBenchIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dproxy.bench=registry -Dproxy.bench.registrations="$REGISTRATIONS" -Dproxy.bench.services="$SERVICES" \
  >target/bench-registry.log 2>&1 || { tail -50 target/bench-registry.log; exit 1; }
cat target/bench/registry.txt
