#!/usr/bin/env bash
# SSE load: N concurrent subscribers on GET /api/v1/feeds/stream of a running API (./chainfeed run in
# another terminal), reads published straight to chainfeed.reads.v1, latency from the broker's ack to
# each subscriber's receipt, the API's heap after a full GC (jcmd). Loopback only. See README.
#   api/load/sse-load.sh [--subscribers 10000] [--reads 30] [--rate 1] [--url http://127.0.0.1:8080]
#                        [--bootstrap 127.0.0.1:19092] [--topic all] [--connect-rate 1000] [--heartbeat-seconds 15]
# API_PID (default: .run/pids/api.pid) names the API process to measure.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests install
mvn -B -q -pl api dependency:build-classpath -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
# One socket per subscriber on each side: raise the open-files limit as far as allowed.
ulimit -n "$(ulimit -Hn)"
API_PID=${API_PID:-$(cat .run/pids/api.pid)}
exec java -Xmx2g -cp "api/target/test-classes:api/target/classes:schemas/target/classes:infra/platform/target/classes:$(cat api/target/test.classpath)" \
  io.chainfeed.api.load.SseLoad --api-pid "$API_PID" "$@"
