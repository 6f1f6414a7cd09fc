#!/usr/bin/env bash
# The cluster fault test (ClusterFaultsIT): starts a local cluster (--cluster: 3 Kafka brokers, 3
# Elasticsearch nodes, 2 instances of each service) on the ports from PORT_BASE (default 25100, below
# the kernel's ephemeral port range; it uses PORT_BASE .. PORT_BASE+70), subscribes a loopback webhook receiver through the api, posts 200 signals
# through both ingest instances (503 and 504 posted again with the same id) while the broker leading
# signals-0, the elected Elasticsearch master, streams-2 and api-2 are killed with kill -9, and audits
# every acknowledged signal (reads topic, Elasticsearch, an SSE reader on each api, the webhooks) and
# asOf on both api instances. Prints the table; it is also appended to faults/target/fault-report.md.
# About 10-15 minutes on a 2-core machine, most of it the cluster's start.
#   faults/cluster-fault-test.sh [PORT_BASE] [MAVEN OPTIONS...]
# e.g. offline and without ESLint: faults/cluster-fault-test.sh 25100 -o -Djslint.skip=true
set -euo pipefail
cd "$(dirname "$0")/.."
PORT_BASE=${1:-25100}
shift || true
mvn -B -q "$@" -pl faults -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ClusterFaultsIT -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dchainfeed.fault.cluster.port-base="$PORT_BASE"
echo
cat faults/target/fault-report.md
