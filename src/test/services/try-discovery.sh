#!/usr/bin/env bash
# Try discovery locally: a real Consul agent and the ECS emulator, each announcing a small local backend, and
# `proxy` routing to both. Everything listens on 127.0.0.1 and stops when the script ends.
#
#   bash src/test/services/try-discovery.sh          # runs the demo, prints what it does, cleans up
#   KEEP=1 bash src/test/services/try-discovery.sh   # leaves everything running until Ctrl-C
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
WORK=$(mktemp -d /tmp/proxy-try.XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  bash src/test/services/consul/agent.sh stop "$WORK/consul" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
say() { printf '\n== %s\n' "$*"; }

say "building proxy"
mvn -q -DskipTests package

say "a backend: python's http.server on 127.0.0.1"
BACKEND_PORT=$(free_port)
mkdir -p "$WORK/www" && echo "hello from the demo backend on port $BACKEND_PORT" >"$WORK/www/index.html"
python3 -m http.server "$BACKEND_PORT" --bind 127.0.0.1 --directory "$WORK/www" >/dev/null 2>&1 &
PIDS+=($!)

say "Consul (dev agent; built from source and cached on first use)"
bash src/test/services/consul/agent.sh start "$WORK/consul" >/dev/null
set -a; . "$WORK/consul/consul.env"; set +a
echo "CONSUL_HTTP_ADDR=$CONSUL_HTTP_ADDR"
curl -sf -X PUT "http://$CONSUL_HTTP_ADDR/v1/agent/service/register" -d @- <<JSON
{"Name": "whoami", "Address": "127.0.0.1", "Port": $BACKEND_PORT,
 "Tags": ["proxy.http.routers.whoami.rule=Host(\`whoami.localhost\`)"]}
JSON
echo "registered service whoami with tag proxy.http.routers.whoami.rule=Host(\`whoami.localhost\`)"

say "the ECS/EC2/SSM emulator (patched moto; virtualenv cached on first use)"
PY=$(bash src/test/services/moto/setup.sh | tail -1)
"$PY" src/test/services/moto/launcher.py --workdir "$WORK/moto" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -f "$WORK/moto/moto.env" ] && break; sleep 0.1; done
set -a; . "$WORK/moto/moto.env"; set +a
echo "AWS_ENDPOINT_URL=$AWS_ENDPOINT_URL"
BACKEND_PORT=$BACKEND_PORT "$PY" - <<'PY'
import json, os, urllib.request, boto3
ecs = boto3.client("ecs"); ec2 = boto3.client("ec2")
port = int(os.environ["BACKEND_PORT"])
ecs.create_cluster(clusterName="demo")
ecs.register_task_definition(family="app", networkMode="awsvpc", requiresCompatibilities=["FARGATE"],
    cpu="256", memory="512", containerDefinitions=[{"name": "app", "image": "demo/app", "memory": 64, "essential": True,
    "portMappings": [{"containerPort": port}],
    "dockerLabels": {"proxy.http.routers.app.rule": "Host(`app.localhost`)"}}])
subnet = ec2.describe_subnets(Filters=[{"Name": "default-for-az", "Values": ["true"]}])["Subnets"][0]["SubnetId"]
sg = ec2.describe_security_groups(GroupNames=["default"])["SecurityGroups"][0]["GroupId"]  # moto needs one
task = ecs.run_task(cluster="demo", taskDefinition="app", launchType="FARGATE", networkConfiguration={
    "awsvpcConfiguration": {"subnets": [subnet], "securityGroups": [sg]}})["tasks"][0]["taskArn"]
# The emulator gives tasks loopback addresses; point this one at the demo backend.
req = urllib.request.Request(os.environ["AWS_ENDPOINT_URL"] + "/_proxy/task-ip", method="POST",
    data=json.dumps({"task": task, "ip": "127.0.0.1"}).encode())
urllib.request.urlopen(req).read()
print("ran Fargate task", task.split("/")[-1], "with label proxy.http.routers.app.rule=Host(`app.localhost`)")
PY

say "proxy with both providers"
WEB_PORT=$(free_port)
java -jar target/proxy.jar --entryPoints.web.address=127.0.0.1:$WEB_PORT \
  --providers.providersThrottleDuration=0s \
  --providers.registryCatalog.endpoint.address="$CONSUL_HTTP_ADDR" --providers.registryCatalog.watch=true \
  --providers.clusterTasks.clusters=demo --providers.clusterTasks.refreshSeconds=2 >"$WORK/proxy.log" 2>&1 &
PIDS+=($!)
echo "proxy log: $WORK/proxy.log"

try() {
  local host=$1 out
  for _ in $(seq 100); do
    out=$(curl -s -H "Host: $host" "http://127.0.0.1:$WEB_PORT/" || true)
    case "$out" in hello*) echo "curl -H 'Host: $host' http://127.0.0.1:$WEB_PORT/  ->  $out"; return 0;; esac
    sleep 0.1
  done
  echo "no route for $host; the proxy log says:"; tail -20 "$WORK/proxy.log"; return 1
}
say "requests through proxy"
try whoami.localhost
try app.localhost

if [ -n "${KEEP:-}" ]; then
  say "running until Ctrl-C (proxy on 127.0.0.1:$WEB_PORT)"
  wait
fi
