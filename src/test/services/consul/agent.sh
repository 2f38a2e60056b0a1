#!/usr/bin/env bash
# Starts and stops a single-node Consul dev agent for tests and demos, on 127.0.0.1 only.
#
#   agent.sh start <workdir> [--acl] [--tls]   start, wait for a leader, write <workdir>/consul.env
#   agent.sh stop  <workdir>                   stop the agent started in <workdir>
#
# <workdir> keeps the agent's configuration, ports, tokens, certificates and log. Starting again in
# the same <workdir> reuses its ports, tokens and certificates ("Consul restarted" scenarios); the
# catalog itself is in memory (dev mode) and starts empty. The binary is $CONSUL_BIN, or the one
# build.sh builds (and caches) on first use.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
  echo "usage: agent.sh start <workdir> [--acl] [--tls] | agent.sh stop <workdir>" >&2
  exit 2
}

die() {
  echo "agent.sh: $*" >&2
  exit 1
}

# Prints "<pid>" if the agent recorded in <workdir> still runs (and is a consul process).
running_pid() {
  local pidfile="$1/consul.pid" pid
  [[ -f "$pidfile" ]] || return 1
  pid="$(<"$pidfile")"
  [[ -r "/proc/$pid/cmdline" && "$(tr '\0' ' ' <"/proc/$pid/cmdline")" == *" agent -dev "* ]] || return 1
  echo "$pid"
}

# Picks free 127.0.0.1 ports, all held open together so they differ. Serf uses TCP and UDP on the
# same port, so every port is checked for both. They come from below the kernel's ephemeral range
# (net.ipv4.ip_local_port_range): an agent restarted on the same ports must not find one of them taken
# as the source port of some outgoing connection in the meantime (seen: "bind: address already in use").
free_ports() {
  python3 - "$1" <<'EOF'
import random, socket, sys
try:
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except (OSError, ValueError, IndexError):
    low = 32768
first = 10000 if low > 12000 else 1024
held, ports = [], []
while len(ports) < int(sys.argv[1]):
    port = random.randrange(first, low)
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        tcp.bind(("127.0.0.1", port))
        udp.bind(("127.0.0.1", port))
    except OSError:
        tcp.close()
        udp.close()
        continue
    held += [tcp, udp]
    ports.append(port)
print(" ".join(map(str, ports)))
EOF
}

elapsed_ms() {
  local start="${1/./}" now="${EPOCHREALTIME/./}"
  echo $(((now - start) / 1000))
}

new_token() {
  cat /proc/sys/kernel/random/uuid
}

# curl against the local agent; the token goes through a header file, never the command line.
consul_api() {
  local token="$1"
  shift
  curl --silent --show-error --fail --max-time 5 \
    --header @<(printf 'X-Consul-Token: %s\n' "$token") "$@"
}

make_certificates() {
  local dir="$1/tls"
  [[ -f "$dir/client-key.pk8.pem" ]] && return 0
  mkdir -p "$dir"
  (
    cd "$dir"
    "$consul" tls ca create -days 3650 >/dev/null
    # Server certificate SANs: server.dc1.consul, localhost and 127.0.0.1.
    "$consul" tls cert create -server -dc dc1 -days 3650 >/dev/null
    "$consul" tls cert create -client -dc dc1 -days 3650 >/dev/null
    mv consul-agent-ca.pem ca.pem
    mv consul-agent-ca-key.pem ca-key.pem
    mv dc1-server-consul-0.pem server.pem
    mv dc1-server-consul-0-key.pem server-key.pem
    mv dc1-client-consul-0.pem client.pem
    mv dc1-client-consul-0-key.pem client-key.pem
    # Consul writes SEC1 EC keys; the JDK (and Netty without BouncyCastle) read PKCS#8 only.
    openssl pkcs8 -topk8 -nocrypt -in client-key.pem -out client-key.pk8.pem
  )
}

write_config() {
  local workdir="$1" acl="$2" tls="$3"
  # shellcheck disable=SC1091
  source "$workdir/state.env"
  {
    cat <<EOF
node_name = "proxy-test"
datacenter = "dc1"
log_level = "INFO"
# No calls to checkpoint-api.hashicorp.com: test traffic stays on loopback.
disable_update_check = true
ports {
  http = $HTTP_PORT
  https = $([[ "$tls" == 1 ]] && echo "$HTTPS_PORT" || echo -1)
  grpc = $GRPC_PORT
  grpc_tls = -1
  dns = -1
  serf_lan = $SERF_LAN_PORT
  serf_wan = -1
  server = $SERVER_PORT
}
EOF
    if [[ "$acl" == 1 ]]; then
      cat <<EOF
acl {
  enabled = true
  default_policy = "deny"
  enable_token_persistence = false
  tokens {
    initial_management = "$MANAGEMENT_TOKEN"
    # The agent registers its own node and services; under default deny it needs a token to do so.
    agent = "$MANAGEMENT_TOKEN"
  }
}
EOF
    fi
    if [[ "$tls" == 1 ]]; then
      cat <<EOF
tls {
  defaults {
    ca_file = "$workdir/tls/ca.pem"
    cert_file = "$workdir/tls/server.pem"
    key_file = "$workdir/tls/server-key.pem"
  }
  # Only the HTTPS listener demands a client certificate; plain HTTP stays open for test set-up.
  https {
    verify_incoming = true
  }
}
EOF
    fi
  } >"$workdir/agent.hcl"
}

# Creates the read-only policy and the read token with the secret chosen at first start, so the token
# stays the same across restarts of a dev agent (which forgets its ACL state).
create_read_token() {
  local base="http://127.0.0.1:$HTTP_PORT" policy deadline=$((SECONDS + 30))
  policy='{"Name":"read-services-and-nodes","Rules":"service_prefix \"\" { policy = \"read\" } node_prefix \"\" { policy = \"read\" }"}'
  # Right after election the leader may still be initialising the ACL system: retry until it accepts.
  until consul_api "$MANAGEMENT_TOKEN" -X PUT --data "$policy" "$base/v1/acl/policy" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "could not create the read-only ACL policy (see $workdir/consul.log)"
    sleep 0.2
  done
  consul_api "$MANAGEMENT_TOKEN" -X PUT \
    --data "{\"SecretID\":\"$READ_TOKEN\",\"Description\":\"read-only\",\"Policies\":[{\"Name\":\"read-services-and-nodes\"}]}" \
    "$base/v1/acl/token" >/dev/null
}

write_env() {
  local workdir="$1" acl="$2" tls="$3" pid="$4"
  (
    umask 077
    {
      if [[ "$tls" == 1 ]]; then
        # Consul's own CLI variables: with CONSUL_HTTP_SSL the address is the HTTPS listener.
        echo "CONSUL_HTTP_ADDR=127.0.0.1:$HTTPS_PORT"
        echo "CONSUL_HTTP_SSL=true"
        echo "CONSUL_CACERT=$workdir/tls/ca.pem"
        echo "CONSUL_CLIENT_CERT=$workdir/tls/client.pem"
        echo "CONSUL_CLIENT_KEY=$workdir/tls/client-key.pem"
      else
        echo "CONSUL_HTTP_ADDR=127.0.0.1:$HTTP_PORT"
      fi
      if [[ "$acl" == 1 ]]; then
        echo "CONSUL_HTTP_TOKEN=$MANAGEMENT_TOKEN"
        echo "CONSUL_READ_TOKEN=$READ_TOKEN"
      fi
      echo "CONSUL_PLAIN_HTTP_ADDR=127.0.0.1:$HTTP_PORT"
      echo "CONSUL_GRPC_ADDR=127.0.0.1:$GRPC_PORT"
      echo "CONSUL_PID=$pid"
    } >"$workdir/consul.env"
  )
}

start() {
  local workdir="$1" acl=0 tls=0
  shift
  for flag in "$@"; do
    case "$flag" in
      --acl) acl=1 ;;
      --tls) tls=1 ;;
      *) usage ;;
    esac
  done
  mkdir -p "$workdir"
  workdir="$(cd "$workdir" && pwd)"
  if pid="$(running_pid "$workdir")"; then
    die "an agent already runs in $workdir (pid $pid)"
  fi

  consul="${CONSUL_BIN:-$("$here/build.sh")}"
  [[ -x "$consul" ]] || die "no Consul binary at $consul"

  if [[ ! -f "$workdir/state.env" ]]; then
    read -r http https grpc serf_lan server < <(free_ports 5)
    (
      umask 077
      printf 'HTTP_PORT=%s\nHTTPS_PORT=%s\nGRPC_PORT=%s\nSERF_LAN_PORT=%s\nSERVER_PORT=%s\nMANAGEMENT_TOKEN=%s\nREAD_TOKEN=%s\n' \
        "$http" "$https" "$grpc" "$serf_lan" "$server" "$(new_token)" "$(new_token)" >"$workdir/state.env"
    )
  fi
  # shellcheck disable=SC1091
  source "$workdir/state.env"
  [[ "$tls" == 1 ]] && make_certificates "$workdir"
  write_config "$workdir" "$acl" "$tls"

  local started=$EPOCHREALTIME
  # setsid: the agent outlives this script and does not get the caller's terminal signals.
  setsid "$consul" agent -dev \
    -bind 127.0.0.1 -client 127.0.0.1 -advertise 127.0.0.1 \
    -config-file "$workdir/agent.hcl" \
    >"$workdir/consul.log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$workdir/consul.pid"

  local leader="" deadline=$((SECONDS + 60))
  until [[ -n "$leader" && "$leader" != '""' ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$workdir/consul.log" >&2
      die "the agent exited during start-up (log: $workdir/consul.log)"
    fi
    if ((SECONDS >= deadline)); then
      kill "$pid" 2>/dev/null || true
      die "no leader within 60 s (log: $workdir/consul.log)"
    fi
    sleep 0.1
    leader="$(curl --silent --max-time 2 "http://127.0.0.1:$HTTP_PORT/v1/status/leader" || true)"
  done

  [[ "$acl" == 1 ]] && create_read_token
  write_env "$workdir" "$acl" "$tls" "$pid"
  echo "agent.sh: Consul up in $workdir (pid $pid, leader after $(elapsed_ms "$started") ms)" >&2
}

stop() {
  local workdir="$1" pid
  if ! pid="$(running_pid "$workdir")"; then
    rm -f "$workdir/consul.pid"
    return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  rm -f "$workdir/consul.pid"
}

[[ $# -ge 2 ]] || usage
command="$1"
shift
case "$command" in
  start) start "$@" ;;
  stop)
    [[ $# -eq 1 ]] || usage
    stop "$1"
    ;;
  *) usage ;;
esac
