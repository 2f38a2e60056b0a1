#!/usr/bin/env bash
# Start-up benchmark: time from process start to the first `200` from /ping, the CPU time the process used until
# then (user + sys; unlike wall time it hardly changes when other work shares the CPUs) and its resident memory
# (RSS) right then, as the median (min–max) of N starts of the packaged program, with and without class-data sharing.
#
#   mvn -q -DskipTests package && src/bench/startup.sh [runs=5]
#
# Needs curl and python3 (free ports). All traffic stays on 127.0.0.1. Not a test: figures depend on the machine and
# on what else runs on it, so the load average is printed with them.
set -euo pipefail

runs=${1:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
launcher=$root/target/bin/proxy
jar=$root/target/proxy.jar
[ -x "$launcher" ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }
java_bin=$(readlink -f "$(command -v java)")
jdk_archive=$(dirname "$java_bin")/../lib/server/classes.jsa

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# One start: prints "<ms to first ping 200> <CPU ms> <RSS KiB>".
measure() {
    local ping web pid start elapsed cpu rss
    ping=$(free_port); web=$(free_port)
    start=$(now_ms)
    # A clean environment: PROXY_* variables would change the configuration under test.
    env -i PATH="$PATH" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$@" --ping --entryPoints.proxy.address=127.0.0.1:"$ping" \
        --entryPoints.web.address=127.0.0.1:"$web" >/dev/null 2>&1 &
    pid=$!
    until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$ping/ping")" = 200 ]; do
        kill -0 "$pid" 2>/dev/null || { echo "proxy exited before answering /ping" >&2; exit 1; }
        sleep 0.005
    done
    elapsed=$(( $(now_ms) - start ))
    cpu=$(awk -v tick="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / tick)}' "/proc/$pid/stat")
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
    kill -TERM "$pid"; wait "$pid" || true
    echo "$elapsed $cpu $rss"
}

# median, min and max of the numbers on stdin
stats() { sort -n | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%d (%d–%d)", m, v[1], v[NR]}'; }

row() {
    local label=$1; shift
    local out="" i
    for ((i = 0; i < runs; i++)); do out+="$(measure "$@")"$'\n'; done
    printf "%-44s %20s %20s %16s\n" "$label" \
        "$(printf '%s' "$out" | awk 'NF {print $1}' | stats)" \
        "$(printf '%s' "$out" | awk 'NF {print $2}' | stats)" \
        "$(printf '%s' "$out" | awk 'NF {printf "%d\n", $3 / 1024}' | stats)"
}

cd "$(mktemp -d)"   # no ./proxy.yml
echo "proxy start-up, $runs runs each; $(nproc) CPUs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-44s %20s %20s %16s\n" "variant" "to /ping 200, ms" "CPU until then, ms" "RSS, MiB"
row "target/bin/proxy (AppCDS archive)" "$launcher"
row "target/bin/proxy, JDK's default CDS only" env JAVA_OPTS="-XX:SharedArchiveFile=$jdk_archive" "$launcher"
row "target/bin/proxy, -Xshare:off" env JAVA_OPTS=-Xshare:off "$launcher"
row "java -jar target/proxy.jar (JVM defaults)" java -jar "$jar"
