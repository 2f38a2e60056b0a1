#!/usr/bin/env bash
# Soak test: `proxy` under constant load (wrk, c=256) for N minutes while its dynamic configuration changes every
# few seconds (the file provider's file is rewritten: a router appears or disappears, a server is added or removed).
# Prints total requests, errors (non-2xx/3xx responses + socket errors), the proxy's RSS every 30 s after a warm-up
# and the RSS drift (largest sample vs the first after warm-up). Targets: zero errors, drift within 10 %.
# Everything listens on 127.0.0.1 (random free ports); wrk runs on CPU 0, backend + proxy on CPU 1.
# Usage: bash src/bench/soak.sh [--minutes N] [--help]
set -eo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)

MINUTES=10 CONC=256 CHANGE_EVERY=5 SAMPLE_EVERY=30 WARMUP=60 READY_TIMEOUT=30
PROXY_CMD="$REPO_ROOT/target/bin/proxy"

usage() {
  cat <<EOF
Usage: bash src/bench/soak.sh [options]
  --minutes N       length of the load (default $MINUTES)
  --conc C          wrk connections (default $CONC)
  --change-every S  seconds between two configuration changes (default $CHANGE_EVERY)
  --sample-every S  seconds between two RSS samples (default $SAMPLE_EVERY)
  --warmup S        seconds of load before the first RSS sample (default $WARMUP)
  --proxy-cmd CMD   command starting the proxy (default: target/bin/proxy); flags are appended
EOF
}

parse_args() {
  while (($#)); do
    case $1 in
      --minutes) MINUTES=$2; shift ;;
      --conc) CONC=$2; shift ;;
      --change-every) CHANGE_EVERY=$2; shift ;;
      --sample-every) SAMPLE_EVERY=$2; shift ;;
      --warmup) WARMUP=$2; shift ;;
      --proxy-cmd) PROXY_CMD=$2; shift ;;
      -h|--help) usage; exit 0 ;;
      *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
  done
}

# shellcheck source=processes.sh
source "$BENCH_DIR/processes.sh"

start_backend() {  # two nginx servers (ports A and B) in one nginx, both answering 200
  BACKEND_A=$(free_port) BACKEND_B=$(free_port)
  mkdir -p "$TMP/backend"
  {
    [ "$(id -u)" = 0 ] && echo "user root;"
    cat <<EOF
worker_processes 1;
daemon off;
pid $TMP/backend/nginx.pid;
error_log $TMP/backend/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  default_type text/plain;
  keepalive_requests 1000000; keepalive_timeout 75s;
EOF
    for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $TMP/backend/$t;"; done
    echo "  server { listen 127.0.0.1:$BACKEND_A; listen 127.0.0.1:$BACKEND_B; location / { return 200 \"ok\\n\"; } }"
    echo "}"
  } >"$TMP/backend/nginx.conf"
  start_pinned backend nginx -p "$TMP/backend" -c "$TMP/backend/nginx.conf" -e "$TMP/backend/error.log"
  BACKEND_PID=$LAST_PID
}

# Generation n of the dynamic configuration: even ones have one server and an extra router, odd ones two servers
# and no extra router. Written to a temporary file and renamed, as configuration tools do.
write_config() {
  local n=$1 servers extra=""
  if ((n % 2 == 0)); then
    servers="{ url: \"http://127.0.0.1:$BACKEND_A\" }"
    extra="    extra-$n: { rule: \"Host(\`extra-$n.localhost\`)\", service: backend, entryPoints: [web] }"
  else
    servers="{ url: \"http://127.0.0.1:$BACKEND_A\" }, { url: \"http://127.0.0.1:$BACKEND_B\" }"
  fi
  cat >"$TMP/dynamic.yml.tmp" <<EOF
http:
  routers:
    soak: { rule: "PathPrefix(\`/\`)", service: backend, entryPoints: [web] }
$extra
  services:
    backend: { loadBalancer: { servers: [ $servers ] } }
EOF
  mv "$TMP/dynamic.yml.tmp" "$TMP/dynamic.yml"
}

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

main() {
  parse_args "$@"
  ensure_packages wrk nginx
  export PATH="$PATH:/usr/sbin:/sbin"
  STARTED=() TMP=$(mktemp -d -t proxy-soak.XXXXXX)
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  local seconds=$((MINUTES * 60)) port words
  echo "== proxy soak: ${MINUTES} min at c=$CONC, a configuration change every ${CHANGE_EVERY}s, RSS every" \
    "${SAMPLE_EVERY}s after ${WARMUP}s; $(nproc) CPUs; $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2);" \
    "load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  start_backend
  wait_ready "$BACKEND_A" "$BACKEND_PID" || { cat "$TMP/backend.log"; exit 1; }

  write_config 1
  read -r -a words <<<"$PROXY_CMD"
  command -v "${words[0]:-}" >/dev/null || { echo "'${words[0]:-}' not found: build it first (mvn -DskipTests package)"; exit 1; }
  port=$(free_port)
  start_pinned proxy bash -c "exec $PROXY_CMD --entryPoints.web.address=127.0.0.1:$port \
    --providers.file.filename=$TMP/dynamic.yml --serversTransport.maxIdleConnsPerHost=512 --log.level=INFO"
  PROXY_PID=$LAST_PID
  wait_ready "$port" "$PROXY_PID" || { echo "proxy did not start:"; tail -n 20 "$TMP/proxy.log"; exit 1; }
  echo "== proxy pid $PROXY_PID ($(cat "/proc/$PROXY_PID/comm")), RSS at start $(( $(rss_kib "$PROXY_PID") / 1024 )) MiB"

  taskset -c 0 wrk -t1 -c"$CONC" -d"${seconds}s" --timeout 5s --latency "http://127.0.0.1:$port/" \
    >"$TMP/wrk.txt" 2>&1 &
  local wrk_pid=$! start=$SECONDS changes=0 generation=1 next_change=$CHANGE_EVERY next_sample=$WARMUP
  local -a samples=()
  while kill -0 "$wrk_pid" 2>/dev/null; do
    local now=$((SECONDS - start))
    if ((now >= next_change && now < seconds)); then
      generation=$((generation + 1)); write_config "$generation"; changes=$((changes + 1))
      next_change=$((next_change + CHANGE_EVERY))
    fi
    if ((now >= next_sample && now <= seconds)); then
      local kib; kib=$(rss_kib "$PROXY_PID")
      samples+=("$now:$kib")
      printf '   t=%4ss  RSS %6.1f MiB  load %s\n' "$now" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$(cut -d' ' -f1 /proc/loadavg)"
      next_sample=$((next_sample + SAMPLE_EVERY))
    fi
    sleep 0.5
  done
  wait "$wrk_pid" || true
  kill -0 "$PROXY_PID" 2>/dev/null || { echo "FAIL: the proxy exited during the soak"; tail -n 20 "$TMP/proxy.log"; exit 1; }

  echo "== wrk"
  sed 's/^/  | /' "$TMP/wrk.txt"
  local applied
  applied=$(grep -c "configuration from provider file applied" "$TMP/proxy.log" || true)
  python3 - "$TMP/wrk.txt" "$changes" "$applied" "${samples[@]}" <<'EOF'
import re, sys
wrk = open(sys.argv[1]).read()
changes, applied = int(sys.argv[2]), int(sys.argv[3])
samples = [tuple(map(int, s.split(":"))) for s in sys.argv[4:]]

def count(pattern):
    m = re.search(pattern, wrk)
    return int(m.group(1)) if m else 0

total = count(r"(\d+) requests in")
non2xx = count(r"Non-2xx or 3xx responses: (\d+)")
m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", wrk)
socket = sum(map(int, m.groups())) if m else 0
rps = re.search(r"Requests/sec:\s+([\d.]+)", wrk)
errors = non2xx + socket
print(f"== total requests {total:,}, {rps.group(1) if rps else '?'} req/s; errors {errors} "
      f"(non-2xx/3xx {non2xx}, socket {socket}{' ' + m.group(0) if m else ''})")
print(f"== configuration changes written {changes}, applied by the proxy {applied} (the first load included)")
if samples:
    first = samples[0][1]
    top = max(kib for _, kib in samples)
    drift = (top - first) * 100.0 / first if first else float("nan")
    print("== RSS after warm-up (MiB): " + ", ".join(f"t={t}s {kib / 1024:.1f}" for t, kib in samples))
    low = min(kib for _, kib in samples)
    print(f"== RSS drift (max vs first after warm-up): {drift:+.1f} % (first {first / 1024:.1f} MiB, "
          f"max {top / 1024:.1f} MiB, min {low / 1024:.1f} MiB, last {samples[-1][1] / 1024:.1f} MiB)")
else:
    drift = float("nan")
    print("== no RSS sample (run shorter than the warm-up)")
ok_errors = total > 0 and errors == 0
ok_rss = drift == drift and drift <= 10.0
print(f"- {'PASS' if ok_errors else 'FAIL'}: errors {errors} (target 0)")
print(f"- {'PASS' if ok_rss else 'FAIL'}: RSS drift {drift:+.1f} % (target <= 10 %)")
EOF
  echo "== load average at end $(cut -d' ' -f1-3 /proc/loadavg); $(uptime)"
}

main "$@"
