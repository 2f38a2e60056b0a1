#!/usr/bin/env bash
# Proxy throughput benchmark: direct vs nginx vs haproxy vs `proxy`, interleaved, in one run.
# Everything listens on 127.0.0.1 (random free ports); wrk runs on CPU 0, backend + proxy under test on CPU 1.
# See src/bench/README.md for what the figures mean. Usage: bash src/bench/throughput.sh [--quick] [--help]
set -eo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)

DURATION=5 REPS=5 WARMUP=3 CONCS="32 256" MARKDOWN="" OPS="" PROXY_EXTRA_ARGS=""
PROXY_CMD="$REPO_ROOT/target/bin/proxy"
# One wrk thread: wrk is pinned to a single core (CPU 0), so a second thread would only time-share
# that core with the first (more context switches, no more load); one epoll loop drives c=256 fine.
WRK_THREADS=${WRK_THREADS:-1}
BODIES="small 10k"                       # small = "ok\n" at /, 10k = 10240 bytes at /10k
READY_TIMEOUT=30

usage() {
  cat <<EOF
Usage: bash src/bench/throughput.sh [options]
  --duration S      seconds per measured run (default $DURATION)
  --reps N          repetitions, each one interleaving every target (default $REPS)
  --warmup S        seconds of uncounted warm-up per target and body before its first run (default $WARMUP)
  --quick           smoke check: 1 rep, 2 s runs, c=32 only
  --conc "C ..."    concurrencies to measure (default "$CONCS")
  --bodies "B ..."  bodies to measure, of: small 10k (default "$BODIES")
  --proxy-cmd CMD   command starting our proxy (default: target/bin/proxy); flags are appended
  --proxy-extra-args ARGS  more flags for every proxy target
  --ops             also run proxy-ops: the same proxy with Prometheus metrics and a JSON access log on,
                    interleaved with proxy, and report the throughput it loses (target: at most 10 %)
  --markdown FILE   also write the summary table as Markdown to FILE
EOF
}

parse_args() {
  while (($#)); do
    case $1 in
      --duration) DURATION=$2; shift ;;
      --reps) REPS=$2; shift ;;
      --warmup) WARMUP=$2; shift ;;
      --quick) REPS=1 DURATION=2 CONCS="32" ;;
      --conc) CONCS=$2; shift ;;
      --bodies) BODIES=$2; shift ;;
      --proxy-cmd) PROXY_CMD=$2; shift ;;
      --proxy-extra-args) PROXY_EXTRA_ARGS=$2; shift ;;
      --ops) OPS=1 ;;
      --markdown) MARKDOWN=$(realpath -m "$2"); shift ;;
      -h|--help) usage; exit 0 ;;
      *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
  done
}

# shellcheck source=processes.sh
source "$BENCH_DIR/processes.sh"

# CPU clock ticks (utime + stime) of a process and all its live descendants. /proc/<pid>/stat already
# sums every thread; nginx workers (and a JVM behind a launcher that forks) are separate processes,
# hence the tree walk. Fields after "(comm) " are 0-based: ppid=1, utime=11, stime=12.
tree_ticks() {
  local root=$1 f line pid p a total=0 changed=1
  local -A parent=() ticks=() inside=([$root]=1)
  for f in /proc/[0-9]*/stat; do
    { read -r line <"$f"; } 2>/dev/null || continue
    read -r -a a <<<"${line##*) }"
    pid=${f#/proc/}; pid=${pid%/stat}
    parent[$pid]=${a[1]}; ticks[$pid]=$((a[11] + a[12]))
  done
  while ((changed)); do
    changed=0
    for p in "${!parent[@]}"; do
      if [ -z "${inside[$p]:-}" ] && [ -n "${inside[${parent[$p]}]:-}" ]; then inside[$p]=1; changed=1; fi
    done
  done
  for p in "${!inside[@]}"; do total=$((total + ${ticks[$p]:-0})); done
  echo "$total"
}

# nginx needs no writable system path: prefix, pid, error log and every temp path live in $dir.
nginx_conf() {
  local dir=$1 body=$2 t
  [ "$(id -u)" = 0 ] && echo "user root;"    # workers must reach the 0700 temp dir
  cat <<EOF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  default_type text/plain;
EOF
  for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $dir/$t;"; done
  # Without this, nginx closes a client connection every 1000 requests; wrk and proxies would reconnect.
  echo "  keepalive_requests 1000000; keepalive_timeout 75s;"
  echo "$body"
  echo "}"
}

start_backend() {
  local port kib
  port=$(free_port)
  # A config token may not exceed 4 KiB, so the 10 KiB body is ten copies of a 1 KiB variable.
  kib=$(printf 'x%.0s' {1..1023})
  mkdir -p "$TMP/backend"
  nginx_conf "$TMP/backend" "  server {
    listen 127.0.0.1:$port;
    location = / { return 200 \"ok\\n\"; }
    location = /10k { set \$kib \"$kib\\n\"; return 200 \"\$kib\$kib\$kib\$kib\$kib\$kib\$kib\$kib\$kib\$kib\"; }
  }" >"$TMP/backend/nginx.conf"
  start_pinned backend nginx -p "$TMP/backend" -c "$TMP/backend/nginx.conf" -e "$TMP/backend/error.log"
  PID[direct]=$LAST_PID PORT[direct]=$port BACKEND_PID=$LAST_PID BACKEND_PORT=$port
}

start_nginx_proxy() {
  local port; port=$(free_port)
  mkdir -p "$TMP/nginx"
  nginx_conf "$TMP/nginx" "  upstream backend {
    server 127.0.0.1:$BACKEND_PORT;
    keepalive 512;                 # > c=256: the idle pool never has to close connections
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection \"\";
      # The headers an edge proxy sets (proxy sets the same; equal work for every target).
      proxy_set_header X-Forwarded-For \$remote_addr;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_set_header X-Forwarded-Host \$http_host;
      proxy_set_header X-Forwarded-Port \$server_port;
      proxy_set_header X-Real-Ip \$remote_addr;
    }
  }" >"$TMP/nginx/nginx.conf"
  start_pinned nginx nginx -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/error.log"
  PID[nginx]=$LAST_PID PORT[nginx]=$port
}

start_haproxy() {
  local port; port=$(free_port)
  cat >"$TMP/haproxy.cfg" <<EOF
global
  nbthread 1
  maxconn 2000      # >> c=256; haproxy needs ~2 fds per connection under the hard limit
defaults
  mode http
  option http-keep-alive
  http-reuse always
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend fe
  bind 127.0.0.1:$port
  default_backend be
backend be
  # The headers an edge proxy sets (proxy sets the same; equal work for every target).
  option forwardfor
  http-request set-header X-Forwarded-Proto http
  http-request set-header X-Forwarded-Host %[req.hdr(host)]
  http-request set-header X-Forwarded-Port %[dst_port]
  http-request set-header X-Real-Ip %[src]
  server b1 127.0.0.1:$BACKEND_PORT
EOF
  start_pinned haproxy haproxy -db -f "$TMP/haproxy.cfg"
  PID[haproxy]=$LAST_PID PORT[haproxy]=$port
}

# Our proxy, configured like Traefik: a file-provider dynamic config routing everything to the backend.
# start_proxy <target name> [more flags]
start_proxy() {
  local name=$1 extra=${2:-} port words; port=$(free_port)
  cat >"$TMP/dynamic.yml" <<EOF
http:
  routers:
    bench: { rule: "PathPrefix(\`/\`)", service: backend, entryPoints: [web] }
  services:
    backend: { loadBalancer: { servers: [ { url: "http://127.0.0.1:$BACKEND_PORT" } ] } }
EOF
  read -r -a words <<<"$PROXY_CMD"
  if ! command -v "${words[0]:-}" >/dev/null; then
    echo "$name: SKIPPED - '${words[0]:-}' not found (data plane not built yet?); measuring the others"
    return 1
  fi
  # Idle backend connections kept: 512, as nginx's `keepalive 512` above (proxy's default is Traefik's 200).
  start_pinned "$name" bash -c "exec $PROXY_CMD --entryPoints.web.address=127.0.0.1:$port \
    --providers.file.filename=$TMP/dynamic.yml --serversTransport.maxIdleConnsPerHost=512 --log.level=WARN $PROXY_EXTRA_ARGS $extra"
  PID[$name]=$LAST_PID PORT[$name]=$port
  if ! wait_ready "$port" "$LAST_PID"; then
    local why="no 200 on http://127.0.0.1:$port/ within ${READY_TIMEOUT}s"
    kill -0 "$LAST_PID" 2>/dev/null || why="it exited before answering on http://127.0.0.1:$port/"
    echo "$name: SKIPPED - $why; its log ends:"
    tail -n 15 "$TMP/$name.log" | sed 's/^/  | /'
    kill -TERM -- "-$LAST_PID" 2>/dev/null || true
    return 1
  fi
}

# proxy-ops: metrics on the internal entry point (a free port, not :8080) and a JSON access log to a file.
start_proxy_ops() {
  OPS_PORT=$(free_port)
  start_proxy proxy-ops "--metrics.prometheus --entryPoints.proxy.address=127.0.0.1:$OPS_PORT \
    --accessLog.filePath=$TMP/access.log --accessLog.format=json"
}

# What proxy-ops recorded: access log lines written, lines dropped, requests counted by the metrics.
report_ops() {
  local metrics
  metrics=$( (exec 3<>"/dev/tcp/127.0.0.1/$OPS_PORT" &&
    printf 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3 && cat <&3) 2>/dev/null || true)
  echo "== proxy-ops: $(wc -l <"$TMP/access.log" 2>/dev/null || echo 0) access log lines;" \
    "$(grep -m1 '^proxy_accesslog_dropped_lines_total' <<<"$metrics" || echo 'dropped: ?');" \
    "requests counted: $(grep '^proxy_entrypoint_requests_total{code="200",entrypoint="web"' <<<"$metrics" \
      | awk '{ s += $2 } END { printf "%d", s }')"
}

path_of() { [ "$1" = small ] && echo / || echo /10k; }

# wrk checks statuses, not bodies: make sure a target returns both bodies whole before timing it.
bodies_ok() { python3 "$BENCH_DIR/bench_report.py" bodies --port "${PORT[$1]}"; }

wrk_run() {  # target conc body seconds out
  taskset -c 0 wrk -t"$WRK_THREADS" -c"$2" -d"$4"s --timeout 5s --latency \
    "http://127.0.0.1:${PORT[$1]}$(path_of "$3")" >"$5" 2>&1 || true
}

# One measured run: CPU ticks of the proxy tree and the backend tree around one wrk run.
measure() {  # rep target conc body
  local rep=$1 target=$2 c=$3 body=$4 out="$TMP/runs/$1-$2-$3-$4.txt" b0 b1 p0=0 p1=0
  b0=$(tree_ticks "$BACKEND_PID")
  [ "$target" = direct ] || p0=$(tree_ticks "${PID[$target]}")
  wrk_run "$target" "$c" "$body" "$DURATION" "$out"
  b1=$(tree_ticks "$BACKEND_PID")
  [ "$target" = direct ] || p1=$(tree_ticks "${PID[$target]}")
  # A target that died during the run lost its CPU history (and its requests failed): void the run.
  local exited=""; kill -0 "${PID[$target]}" 2>/dev/null || exited=--target-exited
  python3 "$BENCH_DIR/bench_report.py" record --results "$TMP/results.jsonl" --wrk "$out" \
    --rep "$rep" --target "$target" --conc "$c" --body "$body" --clk-tck "$CLK_TCK" \
    --proxy-ticks $((p1 - p0)) --backend-ticks $((b1 - b0)) $exited
}

main() {
  parse_args "$@"
  ensure_packages wrk nginx haproxy
  export PATH="$PATH:/usr/sbin:/sbin"
  CLK_TCK=$(getconf CLK_TCK)
  declare -gA PID=() PORT=() GONE=()
  STARTED=() TMP=$(mktemp -d -t proxy-bench.XXXXXX)
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  mkdir -p "$TMP/runs"

  echo "== proxy throughput benchmark: $(nproc) CPUs, $(uname -r), $(nginx -v 2>&1 | cut -d' ' -f3)," \
    "$(haproxy -v | head -1 | cut -d' ' -f1-3), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
  echo "== reps=$REPS duration=${DURATION}s warmup=${WARMUP}s conc=[$CONCS] bodies=[$BODIES] wrk -t$WRK_THREADS on CPU 0;" \
    "backend + proxies on CPU 1; load average $(cut -d' ' -f1-3 /proc/loadavg) (other work skews absolute figures)"
  start_backend; wait_ready "$BACKEND_PORT" "$BACKEND_PID" || { cat "$TMP/backend.log"; exit 1; }
  start_nginx_proxy; start_haproxy
  local targets=(direct nginx haproxy) t rep c body
  for t in nginx haproxy; do
    wait_ready "${PORT[$t]}" "${PID[$t]}" || { echo "$t did not start:"; cat "$TMP/$t.log"; exit 1; }
  done
  for t in "${targets[@]}"; do bodies_ok "$t" || { echo "$t serves wrong bodies"; exit 1; }; done
  if start_proxy proxy; then
    if bodies_ok proxy; then targets+=(proxy)
    else echo "proxy: SKIPPED - wrong bodies"; kill -TERM -- "-${PID[proxy]}" 2>/dev/null || true; fi
  fi
  if [ -n "$OPS" ] && start_proxy_ops; then
    if bodies_ok proxy-ops; then targets+=(proxy-ops)
    else echo "proxy-ops: SKIPPED - wrong bodies"; kill -TERM -- "-${PID[proxy-ops]}" 2>/dev/null || true; fi
  fi

  # Warm-up, not counted: the JVM interprets, then JIT-compiles the hot path over the first seconds.
  echo "== warm-up: ${WARMUP}s per target and body (not counted)"
  for t in "${targets[@]}"; do
    for body in $BODIES; do wrk_run "$t" "${CONCS##* }" "$body" "$WARMUP" /dev/null; done
  done

  # Interleaved: each rep runs every target back to back, so minute-to-minute drift hits all alike.
  for ((rep = 1; rep <= REPS; rep++)); do
    for c in $CONCS; do
      for body in $BODIES; do
        for t in "${targets[@]}"; do
          [ -z "${GONE[$t]:-}" ] || continue
          if ! kill -0 "${PID[$t]}" 2>/dev/null; then
            echo "$t exited; skipping its remaining runs"; tail -n 15 "$TMP/$t.log" | sed 's/^/  | /'
            GONE[$t]=1; continue
          fi
          measure "$rep" "$t" "$c" "$body"
        done
      done
    done
  done

  [ -z "${PORT[proxy-ops]:-}" ] || report_ops
  python3 "$BENCH_DIR/bench_report.py" summary --results "$TMP/results.jsonl" \
    --title "reps=$REPS, ${DURATION}s runs, wrk -t$WRK_THREADS, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1 /proc/loadavg)" \
    ${MARKDOWN:+--markdown "$MARKDOWN"}
}

main "$@"
