#!/usr/bin/env bash
# Health-check benchmark: wall time and CPU time (user + sys) of one `proxy healthcheck` call against a running
# proxy, as the median (min–max) of N calls — a container HEALTHCHECK runs it every few seconds.
#
#   mvn -q -DskipTests package && src/bench/healthcheck.sh [calls=10]
#
# Needs curl and python3 (free ports). All traffic stays on 127.0.0.1.
set -euo pipefail

calls=${1:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
launcher=$root/target/bin/proxy
[ -x "$launcher" ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

cd "$(mktemp -d)"   # no ./proxy.yml
ping=$(free_port); web=$(free_port)
config=(--ping --entryPoints.proxy.address=127.0.0.1:"$ping" --entryPoints.web.address=127.0.0.1:"$web")
env -i PATH="$PATH" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$launcher" "${config[@]}" >/dev/null 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$ping/ping")" = 200 ]; do
    kill -0 "$server" 2>/dev/null || { echo "proxy exited before answering /ping" >&2; exit 1; }
    sleep 0.05
done

# median, min and max of the numbers on stdin
stats() { sort -g | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f–%.2f)", m, v[1], v[NR]}'; }

row() {
    local label=$1; shift
    local out="" i t
    for ((i = 0; i < calls; i++)); do
        # bash's `time` reports the child's wall, user and system seconds
        t=$( { TIMEFORMAT='%R %U %S'; time env -i PATH="$PATH" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$@" \
            healthcheck "${config[@]}" >/dev/null; } 2>&1 )
        out+="$t"$'\n'
    done
    printf "%-44s %20s %20s\n" "$label" \
        "$(printf '%s' "$out" | awk 'NF {print $1}' | stats)" \
        "$(printf '%s' "$out" | awk 'NF {print $2 + $3}' | stats)"
}

echo "proxy healthcheck, $calls calls each; $(nproc) CPUs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-44s %20s %20s\n" "variant" "wall, s" "CPU (user+sys), s"
row "target/bin/proxy healthcheck" "$launcher"
row "target/bin/proxy healthcheck, -Xshare:off" env JAVA_OPTS=-Xshare:off "$launcher"
