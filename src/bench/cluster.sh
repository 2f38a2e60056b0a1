#!/usr/bin/env bash
# clusterTasks at scale: seeds the ECS/EC2/SSM emulator with TASKS tasks (default 1000) in one cluster (Fargate,
# bridge on EC2, ECS Anywhere), runs 11 refreshes as the provider does, and prints the AWS calls per refresh by
# operation (first vs steady) and the refresh time. Report: target/bench/cluster.txt.
#
#   src/bench/cluster.sh            # 1000 tasks
#   TASKS=250 src/bench/cluster.sh
#
# The emulator (patched moto, see src/test/services/moto/README.md) is built and started by the test harness.
set -euo pipefail
cd "$(dirname "$0")/../.."
TASKS="${TASKS:-1000}"
mkdir -p target/bench
if ! mvn -B -q ${MVN_ARGS:-} verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=ClusterTasksBenchmark -Dfailsafe.failIfNoSpecifiedTests=false -Dproxy.bench.tasks="$TASKS" \
    >target/bench/cluster-mvn.log 2>&1; then
  tail -n 60 target/bench/cluster-mvn.log >&2
  echo "cluster benchmark failed; full log: target/bench/cluster-mvn.log" >&2
  exit 1
fi
cat target/bench/cluster.txt
