#!/usr/bin/env bash
# Search latency at saturation, through the API and straight to Elasticsearch, in one run (wrk).
#
#   ./chainfeed run                      # in another terminal: the stack with the bundled corpus
#   api/load/search-load.sh              # or: API_URL=... ES_URL=... DURATION=20s Q=memory api/load/search-load.sh
#   WORDS=api/load/search-words.txt api/load/search-load.sh
#                                        # varied queries: one word per request, in turn, from the file
#                                        # (one lower-case word a line), the same words to both targets
#
# For each target: a short warm-up, then DURATION of closed-loop load (CONNECTIONS connections over
# THREADS threads; a request slower than TIMEOUT counts as an error; raise CONNECTIONS until requests/s
# stops growing to be sure it saturates). Prints
# p50 / p99 / requests per second for both, the ratios, the goal of issue 13 (API p99 <= 1.2 x
# Elasticsearch p99 + 2 ms, API throughput >= 0.85 x Elasticsearch's) and Elasticsearch's open search
# contexts (GET _nodes/stats/indices/search: open_contexts, which points in time and scrolls hold) before
# the run, right after the API's burst and at the end. The last line is machine-readable:
#   RESULT name=search-load api_p50_ms=.. api_p99_ms=.. api_rps=.. es_p50_ms=.. ... open_contexts_after_api=..
# Only loopback targets are accepted.
#
# The API keeps identical first pages for up to 1 s (FirstPageCache, chainfeed.api.search.cache-ttl) and
# this script repeats one query: to compare the search itself, start the stack with
# CHAINFEED_API_SEARCH_CACHETTL=0s in its environment. Slow searches no longer open the Elasticsearch
# breaker: the api waits for them while Elasticsearch answers its liveness probe (docs/resilience.md).
#
# RANKING=hybrid (the default, issue 40) loads the API's hybrid first pages and sends Elasticsearch
# load/search-body-hybrid.ndjson (the word in place of __Q__, its query vector from
# load/search-vectors.tsv in place of __V__): the page, its term and signal sections and the vector
# search, the very multi-search the API's ReadSearch sends; the API then fuses the two rankings itself,
# which is its own work in the comparison. RANKING=lexical loads ranking=lexical pages against
# load/search-body.ndjson (the page and its two sections). SearchLoadBodyTest checks both bodies and the
# vectors against the code, so both sides ask Elasticsearch for the same work. Before loading, the
# script also checks that the lexical page of each word has the same total and the same ids in the same
# order on both sides.
set -euo pipefail

API_URL=${API_URL:-http://127.0.0.1:8080}
ES_URL=${ES_URL:-http://127.0.0.1:19200}
INDEX=${INDEX:-chainfeed-reads}
Q=${Q:-prices}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-15s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
TIMEOUT=${TIMEOUT:-10s}
RANKING=${RANKING:-hybrid}
case $RANKING in
  hybrid) BODY_FILE=${BODY_FILE:-$(dirname "$0")/search-body-hybrid.ndjson} ;;
  lexical) BODY_FILE=${BODY_FILE:-$(dirname "$0")/search-body.ndjson} ;;
  *) echo "search-load: RANKING is hybrid or lexical: $RANKING" >&2; exit 2 ;;
esac
VECTORS=${VECTORS:-$(dirname "$0")/search-vectors.tsv}

die() { echo "search-load: $*" >&2; exit 2; }
command -v wrk >/dev/null || die "wrk is missing (Debian: apt-get install -y wrk)"
command -v curl >/dev/null || die "curl is missing"
command -v jq >/dev/null || die "jq is missing (Debian: apt-get install -y jq)"
for u in "$API_URL" "$ES_URL"; do
  [[ $u =~ ^http://(127\.0\.0\.1|localhost)(:[0-9]+)?$ ]] || die "only http://127.0.0.1[:port] targets are allowed: $u"
done
if [ -n "${WORDS:-}" ]; then
  [ -r "$WORDS" ] || die "no word list at $WORDS"
  mapfile -t words < <(grep -v '^\s*\(#\|$\)' "$WORDS")
  [ "${#words[@]}" -ge 1 ] || die "the word list $WORDS is empty"
else
  words=("$Q")
fi
for w in "${words[@]}"; do
  [[ $w =~ ^[a-z]+$ ]] || die "each query must be one lower-case word (the Elasticsearch body mirrors that case): $w"
done
[[ $DURATION =~ ^[0-9]{1,3}s$ ]] || die "DURATION must be seconds, at most 999s: $DURATION"
[ -r "$BODY_FILE" ] || die "no request body at $BODY_FILE"

curl -fsS "$API_URL/api/v1/search?q=${words[0]}&size=10" -o /dev/null || die "the API does not answer at $API_URL"
curl -fsS "$ES_URL/$INDEX/_count" -o /dev/null || die "Elasticsearch does not answer at $ES_URL (index $INDEX)"

# Each word's body, checked against the API's answer: the same total and the same first page. A word
# that names a glossary term, a layer or a company makes the API build a larger query than the body
# file holds, and is refused here.
body_dir=$(mktemp -d)
trap 'rm -rf "$body_dir"' EXIT
n=0
for w in "${words[@]}"; do
  n=$((n + 1))
  if [ "$RANKING" = hybrid ]; then
    vector=$(awk -F'\t' -v w="$w" '$1 == w { print $2 }' "$VECTORS")
    [ -n "$vector" ] || die "'$w' has no vector in $VECTORS (SearchLoadBodyTest -Dgolden.update=true writes them)"
    sed "s/__Q__/$w/g" "$BODY_FILE" | awk -v v="$vector" '{ gsub(/__V__/, v); print }' >"$body_dir/$n.ndjson"
  else
    sed "s/__Q__/$w/g" "$BODY_FILE" >"$body_dir/$n.ndjson"
  fi
  api_answer=$(curl -fsS "$API_URL/api/v1/search?q=$w&size=10&ranking=lexical")
  es_answer=$(curl -fsS -H 'Content-Type: application/x-ndjson' --data-binary "@$body_dir/$n.ndjson" \
    "$ES_URL/_msearch?typed_keys=true" | jq '.responses[0]')
  api_total=$(jq .total <<<"$api_answer")
  es_total=$(jq .hits.total.value <<<"$es_answer")
  api_ids=$(jq -c '[.results[].id]' <<<"$api_answer")
  es_ids=$(jq -c '[.hits.hits[]._source.id]' <<<"$es_answer")
  echo "query '$w': API total $api_total, Elasticsearch total $es_total"
  [ "$api_total" = "$es_total" ] || die "'$w': the two answers differ in total hits: the body does not mirror the API's query for it"
  [ "$api_ids" = "$es_ids" ] || die "'$w': the two first pages differ ($api_ids from the API, $es_ids from Elasticsearch)"
done

open_contexts() { curl -fsS "$ES_URL/_nodes/stats/indices/search" | jq '[.nodes[].indices.search.open_contexts] | add'; }

# One request per word in turn, on each wrk thread: the API's GET and Elasticsearch's multi-search of
# the same word's body (read from the files written above).
lua_es="$body_dir/es.lua"
lua_api="$body_dir/api.lua"
cat >"$lua_es" <<'LUA'
local bodies, i = {}, 0
local dir, count = os.getenv("CHAINFEED_BODY_DIR"), tonumber(os.getenv("CHAINFEED_BODY_COUNT"))
for n = 1, count do
  local f = assert(io.open(dir .. "/" .. n .. ".ndjson", "rb"))
  bodies[n] = f:read("*a")
  f:close()
end
request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/_msearch?typed_keys=true", { ["Content-Type"] = "application/x-ndjson" }, bodies[i])
end
LUA
cat >"$lua_api" <<'LUA'
local words, i = {}, 0
for line in string.gmatch(os.getenv("CHAINFEED_WORDS"), "[^\n]+") do words[#words + 1] = line end
request = function()
  i = i % #words + 1
  return wrk.format("GET", "/api/v1/search?q=" .. words[i] .. "&size=10&ranking=" .. os.getenv("CHAINFEED_RANKING"))
end
LUA
CHAINFEED_BODY_DIR=$body_dir
CHAINFEED_BODY_COUNT=${#words[@]}
CHAINFEED_WORDS=$(printf '%s\n' "${words[@]}")
CHAINFEED_RANKING=$RANKING
export CHAINFEED_BODY_DIR CHAINFEED_BODY_COUNT CHAINFEED_WORDS CHAINFEED_RANKING

# ms of a wrk latency figure (us, ms or s)
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /[0-9]s$/ && v !~ /ms$/) n *= 1000; printf "%.2f", n }'; }

run() { # name url [lua]
  local name=$1 url=$2 script=${3:-} out
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" --timeout "$TIMEOUT" ${script:+-s "$script"} "$url" >/dev/null
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout "$TIMEOUT" --latency ${script:+-s "$script"} "$url")
  if grep -q 'Non-2xx\|Socket errors' <<<"$out"; then echo "$out" >&2; die "$name: errors under load"; fi
  local p50 p99 rps
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
  rps=$(awk '$1 == "Requests/sec:" { print $2 }' <<<"$out")
  if ! awk -v r="$rps" 'BEGIN { exit !(r > 0) }'; then echo "$out" >&2; die "$name: no request completed"; fi
  printf '%-14s p50 %8s ms   p99 %8s ms   %9s req/s\n' "$name" "$p50" "$p99" "$rps"
  eval "${name}_p50=$p50 ${name}_p99=$p99 ${name}_rps=$rps"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%FT%TZ)"
echo "wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per target (after $WARMUP warm-up), ${#words[@]} word(s) in turn, ranking $RANKING"
contexts_before=$(open_contexts)
run api "$API_URL/api/v1/search" "$lua_api"
contexts_after_api=$(open_contexts)
run elasticsearch "$ES_URL/_msearch" "$lua_es"
contexts_after=$(open_contexts)
echo "open search contexts on Elasticsearch: $contexts_before before, $contexts_after_api after the API's burst, $contexts_after at the end"
awk -v a50="$api_p50" -v a99="$api_p99" -v e50="$elasticsearch_p50" -v e99="$elasticsearch_p99" \
    -v ar="$api_rps" -v er="$elasticsearch_rps" -v c="$contexts_after_api" -v cb="$contexts_before" -v ce="$contexts_after" \
    -v load="$(cut -d' ' -f1 /proc/loadavg)" -v ranking="$RANKING" 'BEGIN {
  printf "ratio api/es   p50 %8.2fx    p99 %8.2fx    throughput %.2fx\n", a50 / e50, a99 / e99, ar / er
  p99ok = a99 <= 1.2 * e99 + 2; rpsok = ar >= 0.85 * er; cok = c < 20
  printf "goal           p99 %.2f <= %.2f ms: %s   throughput %.1f >= %.1f req/s: %s   open contexts %d < 20: %s\n",
    a99, 1.2 * e99 + 2, p99ok ? "met" : "MISSED", ar, 0.85 * er, rpsok ? "met" : "MISSED", c, cok ? "met" : "MISSED"
  printf "RESULT name=search-load ranking=%s api_p50_ms=%.2f api_p99_ms=%.2f api_rps=%.1f es_p50_ms=%.2f es_p99_ms=%.2f es_rps=%.1f" \
    " p50_ratio=%.2f p99_ratio=%.2f throughput_ratio=%.2f open_contexts_before=%d open_contexts_after_api=%d" \
    " open_contexts_after=%d load=%s goal=%s\n", ranking, a50, a99, ar, e50, e99, er, a50 / e50, a99 / e99, ar / er, cb, c, ce,
    load, (p99ok && rpsok && cok) ? "met" : "missed"
}'
