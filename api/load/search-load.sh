#!/usr/bin/env bash
# Search latency at saturation, through the API and straight to Elasticsearch, in one run (wrk).
#
#   ./chainfeed run                      # in another terminal: the stack with the bundled corpus
#   api/load/search-load.sh              # or: API_URL=... ES_URL=... DURATION=20s Q=memory api/load/search-load.sh
#
# For each target: a short warm-up, then DURATION of closed-loop load (CONNECTIONS connections over
# THREADS threads; raise CONNECTIONS until requests/s stops growing to be sure it saturates). Prints
# p50 / p99 / requests per second for both and the ratios. Only loopback targets are accepted.
#
# The Elasticsearch request is the body the API's ReadSearch.query builds for a one-word, lower-case
# query (Q) with no filters: the same multi_match (fields, boosts, fuzziness), the exact-name boosts,
# size, total hits, sort, highlight and the five facet aggregations. The API also opens a point in time
# for the cursor before searching (and closes it asynchronously): that extra round trip is part of
# what the API costs and is counted in its figures.
set -euo pipefail

API_URL=${API_URL:-http://127.0.0.1:8080}
ES_URL=${ES_URL:-http://127.0.0.1:19200}
INDEX=${INDEX:-chainfeed-reads}
Q=${Q:-memory}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-3s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}

die() { echo "search-load: $*" >&2; exit 2; }
command -v wrk >/dev/null || die "wrk is missing (Debian: apt-get install -y wrk)"
command -v curl >/dev/null || die "curl is missing"
for u in "$API_URL" "$ES_URL"; do
  [[ $u =~ ^http://(127\.0\.0\.1|localhost)(:[0-9]+)?$ ]] || die "only http://127.0.0.1[:port] targets are allowed: $u"
done
[[ $Q =~ ^[a-z]+$ ]] || die "Q must be one lower-case word (the Elasticsearch body mirrors that case): $Q"
[[ $DURATION =~ ^[0-9]{1,3}s$ ]] || die "DURATION must be seconds, at most 999s: $DURATION"

curl -fsS "$API_URL/api/v1/search?q=$Q&size=10" -o /dev/null || die "the API does not answer at $API_URL"
curl -fsS "$ES_URL/$INDEX/_count" -o /dev/null || die "Elasticsearch does not answer at $ES_URL (index $INDEX)"

FIELDS='["title^4","aliases^4","summary^2","companies.name^2","layers.name^2","terms.title","sections.heading","sections.body"]'
read -r -d '' ES_BODY <<JSON || true
{"query":{"bool":{
   "must":[{"multi_match":{"query":"$Q","fields":$FIELDS,"type":"best_fields","operator":"and","tie_breaker":0.3,
            "fuzziness":"AUTO:5,8","prefix_length":1,"max_expansions":10}}],
   "should":[{"term":{"title.exact":{"value":"$Q","boost":20.0}}},{"term":{"aliases.exact":{"value":"$Q","boost":15.0}}}]}},
 "size":10,"track_total_hits":true,
 "sort":[{"_score":{"order":"desc"}},{"id":{"order":"asc"}}],
 "highlight":{"encoder":"html","pre_tags":["<mark>"],"post_tags":["</mark>"],
   "fields":{"sections.body":{"fragment_size":180,"number_of_fragments":3,"order":"score"},"summary":{"number_of_fragments":0}}},
 "aggregations":{"layer":{"terms":{"field":"layerRefs","size":50}},"company":{"terms":{"field":"companyRefs","size":50}},
   "term":{"terms":{"field":"termRefs","size":50}},"kind":{"terms":{"field":"kind","size":10}},
   "updated":{"date_histogram":{"field":"updatedAt","calendar_interval":"month","min_doc_count":1,"format":"yyyy-MM"}}}}
JSON
ES_BODY=$(tr -d '\n' <<<"$ES_BODY")
api_total=$(curl -fsS "$API_URL/api/v1/search?q=$Q&size=10" | grep -o '"total":[0-9]*' | head -1 | cut -d: -f2)
es_total=$(curl -fsS -H 'Content-Type: application/json' -d "$ES_BODY" "$ES_URL/$INDEX/_search" | grep -o '"total":{"value":[0-9]*' | head -1 | grep -o '[0-9]*$')
echo "query '$Q': API total $api_total, Elasticsearch total $es_total"
[ "$api_total" = "$es_total" ] || die "the two answers differ in total hits: the body no longer mirrors the API's query"

lua=$(mktemp --suffix=.lua)
trap 'rm -f "$lua"' EXIT
cat >"$lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("CHAINFEED_ES_BODY")
LUA
export CHAINFEED_ES_BODY="$ES_BODY"

# ms of a wrk latency figure (us, ms or s)
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /[0-9]s$/ && v !~ /ms$/) n *= 1000; printf "%.2f", n }'; }

run() { # name url [lua]
  local name=$1 url=$2 script=${3:-} out
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" ${script:+-s "$script"} "$url" >/dev/null
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency ${script:+-s "$script"} "$url")
  if grep -q 'Non-2xx' <<<"$out"; then echo "$out" >&2; die "$name: error responses under load"; fi
  local p50 p99 rps
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
  rps=$(awk '$1 == "Requests/sec:" { print $2 }' <<<"$out")
  printf '%-14s p50 %8s ms   p99 %8s ms   %9s req/s\n' "$name" "$p50" "$p99" "$rps"
  eval "${name}_p50=$p50 ${name}_p99=$p99 ${name}_rps=$rps"
}

echo "wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per target (after $WARMUP warm-up)"
run api "$API_URL/api/v1/search?q=$Q&size=10"
run elasticsearch "$ES_URL/$INDEX/_search" "$lua"
awk -v a50="$api_p50" -v a99="$api_p99" -v e50="$elasticsearch_p50" -v e99="$elasticsearch_p99" \
    -v ar="$api_rps" -v er="$elasticsearch_rps" 'BEGIN {
  printf "ratio api/es   p50 %8.2fx    p99 %8.2fx    throughput %.2fx\n", a50 / e50, a99 / e99, ar / er }'
