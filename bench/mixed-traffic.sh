#!/usr/bin/env bash
# Mixed public traffic against the api of a running embedded default (./chainfeed run in another
# terminal), all at once, bounded in time and requests, loopback only (issue 25; results in
# docs/benchmarks.md):
#   bench/mixed-traffic.sh [--seconds 30] [--max-requests 2000000] [--sse 2000] [--visitors 10000]
#                          [--origins 100] [--searchers 200] [--readers 2000]
#                          [--client-per-class false] [--widget-threads 32] [--widget-think-ms 20] ... (per class: widget, embed,
#                          search, feeds, abusive)
# Widget visitors, searchers and feed readers come through the trusted loopback with an
# X-Forwarded-For address each, as behind a proxy; one abusive address searches in a tight loop and
# must be the only one refused (429). It issues one partner key for 100 origins with the admin key of
# .run/admin-key. Run it on a quiet machine (nothing else building or running) and report the load
# average it prints. For the search path alone against Elasticsearch, see api/load/search-load.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -r .run/admin-key ] || { echo "mixed-traffic: no .run/admin-key: start ./chainfeed run first" >&2; exit 2; }
[ -r .run/pids/api.pid ] || { echo "mixed-traffic: no .run/pids/api.pid: is the stack up?" >&2; exit 2; }
mvn -B -q -o -DskipTests -Djslint.skip=true install -pl api -am 2>/dev/null || mvn -B -q -DskipTests -Djslint.skip=true install -pl api -am
mvn -B -q -pl api dependency:build-classpath -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
ulimit -n "$(ulimit -Hn)"
exec java -Xmx512m -XX:+UseSerialGC -cp "api/target/test-classes:api/target/classes:schemas/target/classes:infra/platform/target/classes:$(cat api/target/test.classpath)" \
  io.chainfeed.api.load.MixedTraffic "$@"
